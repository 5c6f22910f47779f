// `.orchard.json` (SPEC §6): validated with zod; an unknown key or a wrong type is invalid input
// (exit 2) naming the key path. `.worktreeinclude` (one glob a line) adds to bootstrap.copy.
import { readFileSync, existsSync } from "node:fs";
import { join } from "node:path";
import { createHash } from "node:crypto";
import { z } from "zod";
import { parseDuration } from "./duration.js";
import { usageError } from "./errors.js";

const duration = z.string().refine((text) => {
  try {
    parseDuration(text);
    return true;
  } catch {
    return false;
  }
}, "a duration like 30s, 5m, 2h");

const printable = (text: string): boolean => !/[\p{Cc}\p{Cs}]/u.test(text);
const relativePath = z
  .string()
  .min(1)
  .refine((p) => printable(p) && !p.startsWith("/") && !p.split(/[\\/]/).includes(".."), "a path inside the repository");
// A gitignore-style pattern (`.env`, `/config/*.local`, `**/node_modules`) that cannot name anything outside the repository.
const pattern = z
  .string()
  .min(1)
  .refine((p) => printable(p) && !p.split(/[\\/]/).includes(".."), "a gitignore-style pattern inside the repository");

export const ConfigSchema = z
  .object({
    defaultBranch: z.string().min(1).optional(),
    bootstrap: z
      .object({
        copy: z.array(pattern).optional(),
        run: z.array(z.string().min(1)).optional(),
        inputs: z.array(relativePath).optional(),
        preserve: z.array(pattern).optional(),
        timeout: duration.optional(),
      })
      .strict()
      .optional(),
    context: z
      .object({ files: z.record(relativePath, relativePath).optional() })
      .strict()
      .optional(),
    runtime: z
      .object({ probe: z.array(z.string().min(1)).optional() })
      .strict()
      .optional(),
    lease: z.object({ ttl: duration.optional() }).strict().optional(),
    reap: z.object({ guard: duration.optional() }).strict().optional(),
    disposable: z.array(pattern).optional(),
    wave: z
      .object({
        branchPattern: z
          .string()
          .refine((p) => {
            try {
              new RegExp(p);
              return true;
            } catch {
              return false;
            }
          }, "a valid regular expression")
          .optional(),
        allowDeletions: z.boolean().optional(),
      })
      .strict()
      .optional(),
  })
  .strict();

export type OrchardConfig = z.infer<typeof ConfigSchema>;

export interface LoadedConfig {
  config: OrchardConfig;
  /** Where it came from, or null when the repository has none. */
  source: string | null;
  /** sha256 of the file's bytes (what `orchard trust` records); null without a file. */
  hash: string | null;
  /** bootstrap.copy plus the globs of .worktreeinclude. */
  copy: string[];
}

function describeIssue(issue: z.core.$ZodIssue): string {
  const path = issue.path.map(String).join(".") || "(root)";
  if (issue.code === "unrecognized_keys") return `unknown key ${issue.keys.map((k) => (path === "(root)" ? k : `${path}.${k}`)).join(", ")}`;
  return `${path}: ${issue.message}`;
}

export function loadConfig(primary: string): LoadedConfig {
  const source = process.env.ORCHARD_CONFIG || join(primary, ".orchard.json");
  const include = readWorktreeInclude(primary);
  if (!existsSync(source)) {
    if (process.env.ORCHARD_CONFIG) throw usageError("invalid_config", `ORCHARD_CONFIG names ${source}, which does not exist`);
    return { config: {}, source: null, hash: null, copy: include };
  }
  const bytes = readFileSync(source);
  let json: unknown;
  try {
    json = JSON.parse(bytes.toString("utf8"));
  } catch (error) {
    throw usageError("invalid_config", `${source} is not valid JSON: ${(error as Error).message}`);
  }
  const parsed = ConfigSchema.safeParse(json);
  if (!parsed.success) throw usageError("invalid_config", `${source}: ${parsed.error.issues.map(describeIssue).join("; ")}`);
  const hash = createHash("sha256").update(bytes).digest("hex");
  return { config: parsed.data, source, hash, copy: [...(parsed.data.bootstrap?.copy ?? []), ...include] };
}

function readWorktreeInclude(primary: string): string[] {
  const path = join(primary, ".worktreeinclude");
  if (!existsSync(path)) return [];
  return readFileSync(path, "utf8")
    .split("\n")
    .map((line) => line.trim())
    .filter((line) => line && !line.startsWith("#"));
}
