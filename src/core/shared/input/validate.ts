// Input validation (SPEC §3.1 step 1). Invalid input is a usage error (exit 2) and changes nothing.
import { isValidBranchName } from "../../../git/read.js";
import { usageError } from "../errors.js";
import { parseDuration, ttlProblem } from "./duration.js";
import { unsafeCharacter } from "./escape.js";

/** A literal branch name: `refs/heads/<b>` passes check-ref-format, and it is not `@`, `HEAD` or option-like. */
export async function requireBranch(cwd: string, branch: string, flag = "branch"): Promise<string> {
  const bad = (why: string) => usageError("invalid_branch", `invalid ${flag} ${JSON.stringify(branch)}: ${why}`);
  if (branch.length === 0) throw bad("empty");
  if (branch.startsWith("-")) throw bad("starts with '-' (would read as an option)");
  if (branch === "@" || branch === "HEAD") throw bad(`'${branch}' is not a branch name`);
  if (branch.startsWith("refs/")) throw bad("give the short name, without refs/");
  requireShownAsWritten(branch, flag);
  if (!(await isValidBranchName(cwd, branch))) throw bad("git check-ref-format refuses it");
  // git stores refs/heads/<branch> as files (and <name>.lock beside them): a component longer
  // than the file system's 255-byte name limit is a name git cannot create, not a git failure
  const long = branch.split("/").find((part) => Buffer.byteLength(part) + ".lock".length > 255);
  if (long !== undefined) throw bad(`the component ${JSON.stringify(long.slice(0, 40))}… is longer than 250 bytes, which no ref file name can hold`);
  return branch;
}

/**
 * Owner, task and branch are shown to people (tables, the HTML report) and compared as written:
 * control characters, bidirectional marks, overrides and isolates (U+202E renders "txt.exe" as
 * "exe.txt") and lone surrogates are refused, exit 2 `invalid_input` (SPEC v3 §4.2). Data
 * recorded before this rule is escaped where it is rendered (escape.ts).
 */
export function requireShownAsWritten(value: string, flag: string): void {
  const unsafe = unsafeCharacter(value) ?? (/\p{Cs}/u.test(value) ? "a lone surrogate (not valid UTF-8)" : null);
  if (unsafe !== null) throw usageError("invalid_input", `--${flag} contains ${unsafe}; control and bidirectional characters are refused`);
}

/** Task and owner: printable, at most 512 characters. Empty means absent. */
export function requireText(value: string | undefined, flag: string): string | null {
  if (value === undefined) return null;
  const trimmed = value.trim();
  if (trimmed.length === 0) return null;
  if (value.length > 512) throw usageError("invalid_argument", `--${flag} is longer than 512 characters`);
  requireShownAsWritten(value, flag);
  return value;
}

export function requirePid(value: number | string | undefined): number | null {
  if (value === undefined) return null;
  const n = typeof value === "number" ? value : /^\d+$/.test(value) ? Number(value) : NaN;
  if (!Number.isSafeInteger(n) || n < 1 || n > 2 ** 31 - 1)
    throw usageError("invalid_argument", `--pid must be a process id (1…2147483647), got ${JSON.stringify(value)}`);
  // a lease never names init (it never exits: the worktree would be live for ever) or this very process
  // (an MCP server or library caller that outlives every agent) — SPEC v4 §4.11
  if (n === 1) throw usageError("invalid_argument", "--pid 1 names init, which never exits: a lease names the agent's own process");
  if (n === process.pid) throw usageError("invalid_argument", `--pid ${n} names Orchard's own process, not the agent's`);
  return n;
}

export function requireDuration(value: string | undefined, flag: string, fallbackMs: number): number {
  if (value === undefined) return fallbackMs;
  try {
    return parseDuration(value);
  } catch (error) {
    throw usageError("invalid_argument", `--${flag}: ${(error as Error).message}`);
  }
}

/** A lease time to live: a duration with an explicit unit, more than zero (duration.ts ttlProblem). */
export function requireTtl(value: string | undefined, flag: string, fallbackMs: number): number {
  if (value === undefined) return fallbackMs;
  const problem = ttlProblem(value);
  if (problem === null) return parseDuration(value);
  throw usageError("invalid_argument", problem.startsWith("invalid duration") ? `--${flag}: ${problem}` : `--${flag} ${JSON.stringify(value)} ${problem}`);
}

export function requireOneOf<T extends string>(value: string | undefined, allowed: readonly T[], flag: string, fallback: T): T {
  if (value === undefined) return fallback;
  if ((allowed as readonly string[]).includes(value)) return value as T;
  throw usageError("invalid_argument", `--${flag} must be one of ${allowed.join(", ")}, got ${JSON.stringify(value)}`);
}
