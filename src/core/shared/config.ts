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

  // a directory `bootstrap.run` makes, shared between worktrees of one fingerprint (core/share)
  const shareDir = z.string().refine((p) => linkNameProblem(p) === null, "a directory of the worktree, named relative to its root (no `..`, not absolute)");
  // a `bootstrap.run` entry: a command (an install: skipped when bootstrap.share materialised its
  // directories), or {command, always: true} for a step that is not a pure install and always runs
  const runEntry = z.union([z.string().min(1), z.object({ command: z.string().min(1), always: z.boolean().optional() }).strict()]);
  const size = z.string().refine((t) => sizeProblem(t) === null, "a size like 500MiB, 10GiB or 2GB");
  const floor = z.string().refine((t) => floorProblem(t) === null, "a size like 10GiB, or a percentage of the filesystem like 5%");

  const schema = z
    .object({
      defaultBranch: z.string().min(1).optional(),
      bootstrap: z
        .object({
          copy: z.array(pattern).optional(),
          link: z.array(linkName).optional(),
          sparse: z.array(sparseDir).optional(),
          run: z.array(runEntry).optional(),
          inputs: z.array(relativePath).optional(),
          preserve: z.array(pattern).optional(),
          timeout: duration.optional(),
          share: z.array(shareDir).optional(),
          shareMethod: z.enum(["auto", "clone", "hardlink", "copy"]).optional(),
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
      disk: z.object({ shareBudget: size.optional(), minFree: floor.optional() }).strict().optional(),
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

const SIZE_UNITS: Record<string, number> = {
  b: 1,
  k: 1e3,
  kb: 1e3,
  m: 1e6,
  mb: 1e6,
  g: 1e9,
  gb: 1e9,
  t: 1e12,
  tb: 1e12,
  kib: 2 ** 10,
  mib: 2 ** 20,
  gib: 2 ** 30,
  tib: 2 ** 40,
};

/** A byte size (`500MiB`, `10GiB`, `2GB`, `4096`): its bytes, or null when it is not one. */
export function parseSize(text: string): number | null {
  const m = /^\s*(\d+(?:\.\d+)?)\s*([a-z]*)\s*$/i.exec(text);
  const unit = SIZE_UNITS[(m?.[2] || "b").toLowerCase()];
  if (!m || unit === undefined) return null;
  const bytes = Math.round(Number(m[1]) * unit);
  return Number.isFinite(bytes) ? bytes : null;
}

export function sizeProblem(text: string): string | null {
  return parseSize(text) === null ? "not a size" : null;
}

/** A free-space floor (`disk.minFree`, `--until-free`): a size, or a percentage (0–100) of the filesystem. */
export type FreeFloor = { bytes: number } | { percent: number };

export function parseFloor(text: string): FreeFloor | null {
  const pct = /^\s*(\d+(?:\.\d+)?)\s*%\s*$/.exec(text);
  if (pct) return Number(pct[1]) <= 100 ? { percent: Number(pct[1]) } : null;
  const bytes = parseSize(text);
  return bytes === null ? null : { bytes };
}

export function floorProblem(text: string): string | null {
  return parseFloor(text) === null ? "not a size or a percentage" : null;
}

/** The command of a `bootstrap.run` entry, and whether it runs even when the shared directories were materialised. */
export function runEntryOf(entry: string | { command: string; always?: boolean | undefined }): { command: string; always: boolean } {
  return typeof entry === "string" ? { command: entry, always: false } : { command: entry.command, always: entry.always === true };
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
