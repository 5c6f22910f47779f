// `.orchard.json` (SPEC §6): validated with zod; an unknown key or a wrong type is invalid input
// (exit 2) naming the key path. `.worktreeinclude` (one glob a line) adds to bootstrap.copy.
import { join } from "node:path";
import { createHash } from "node:crypto";
import * as z from "zod";
import { parseDuration, ttlProblem } from "./input/duration.js";
import { usageError } from "./errors.js";
import { jsonBreakAt, readInputFile } from "./input/input-file.js";
import { linkNameProblem } from "./primary-link.js";

/** The schema of `.orchard.json`, built on first use (a repository without the file never builds it). */
function buildConfigSchema() {
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

  // a directory of the primary the worktree shares through a symbolic link (bootstrap step `link`)
  const linkName = z.string().refine((p) => linkNameProblem(p) === null, "a directory of the primary, named relative to it (no `..`, not absolute)");

  // a directory the worktree checks out when it is sparse (bootstrap step `sparse`, cone mode)
  const sparseDir = z.string().refine((p) => linkNameProblem(p) === null, "a directory of the repository, named relative to its root (no `..`, not absolute)");

  const schema = z
    .object({
      defaultBranch: z.string().min(1).optional(),
      bootstrap: z
        .object({
          copy: z.array(pattern).optional(),
          link: z.array(linkName).optional(),
          sparse: z.array(sparseDir).optional(),
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
      lease: z
        .object({
          ttl: z
            .string()
            .refine((t) => ttlProblem(t) === null, "a lease time to live: a duration with a unit, more than zero (e.g. 30m, 2h)")
            .optional(),
        })
        .strict()
        .optional(),
      reap: z.object({ guard: duration.optional() }).strict().optional(),
      disposable: z.array(pattern).optional(),
      idleAfter: duration.optional(),
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
  return schema;
}

let built: ReturnType<typeof buildConfigSchema> | undefined;
export function configSchema(): ReturnType<typeof buildConfigSchema> {
  return (built ??= buildConfigSchema());
}

export type OrchardConfig = z.infer<ReturnType<typeof buildConfigSchema>>;

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
  const bytes = readConfigFile(source, process.env.ORCHARD_CONFIG ? null : primary);
  if (bytes === null) {
    if (process.env.ORCHARD_CONFIG) throw usageError("invalid_config", `ORCHARD_CONFIG names ${source}, which does not exist`);
    return { config: {}, source: null, hash: null, copy: include };
  }
  let json: unknown;
  try {
    json = JSON.parse(bytes.toString("utf8"));
  } catch (error) {
    throw usageError("invalid_config", `${source} is not valid JSON${jsonBreakAt(error)}`);
  }
  const parsed = configSchema().safeParse(json);
  if (!parsed.success) throw usageError("invalid_config", `${source}: ${parsed.error.issues.map(describeIssue).join("; ")}`);
  const hash = createHash("sha256").update(bytes).digest("hex");
  return { config: parsed.data, source, hash, copy: [...(parsed.data.bootstrap?.copy ?? []), ...include] };
}

/**
 * A configuration or include file (SPEC §6 v2): read by the rule of every input file (a regular
 * file of at most 1 MiB, `input-file.ts`) and, when `repo` is given, only when it resolves inside
 * it (a symlink out of the repository is invalid config: exit 2, naming the file, never echoing
 * its content). Null when absent.
 */
export function readConfigFile(path: string, repo: string | null): Buffer | null {
  return readInputFile(path, {
    inside: repo,
    bad: (why) => usageError("invalid_config", `${path} ${why}; orchard reads configuration only from a regular file of at most 1 MiB`),
  });
}

function readWorktreeInclude(primary: string): string[] {
  const bytes = readConfigFile(join(primary, ".worktreeinclude"), primary);
  if (bytes === null) return [];
  return bytes
    .toString("utf8")
    .split("\n")
    .map((line) => line.trim())
    .filter((line) => line && !line.startsWith("#"));
}
