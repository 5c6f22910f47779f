// Queries a command is sure to ask first, started before it asks: while node loads the modules
// that will ask them. Read-only queries only; each result is taken once, by the git() call with
// the same argv and cwd (run.ts), and the command's first snapshot drops whatever was not taken.
import { earlyPending, startEarly, startEarlyBatch } from "./run.js";
import { REF_FORMAT } from "./parse/refs.js";
import type { ProcessResult } from "./result.js";

export const GIT_DIRS_ARGS = ["rev-parse", "--path-format=absolute", "--git-common-dir", "--git-dir", "--is-bare-repository"];
export const WORKTREE_LIST_ARGS = ["worktree", "list", "--porcelain", "-z"];
export const REMOTE_CONFIG_ARGS = ["config", "-z", "--get-regexp", "^remote\\."];
export const SNAPSHOT_REFS = ["refs/heads", "refs/remotes"];
export const refsArgs = (patterns: readonly string[]): string[] => ["for-each-ref", `--format=${REF_FORMAT}`, "--", ...patterns];

let started: { path: string; list: Promise<ProcessResult>; dirs: Promise<ProcessResult> } | null = null;

/**
 * Starts the two queries that resolve the repo at `path` (readWorktrees, readGitDirs). When `path`
 * is the primary's top level (`primary`), also the two that are asked there next: the remotes'
 * config (resolving the repo) and the refs (the snapshot).
 */
export function startRepoQueries(path: string, primary: boolean): void {
  const queries = primary ? [WORKTREE_LIST_ARGS, GIT_DIRS_ARGS, REMOTE_CONFIG_ARGS, refsArgs(SNAPSHOT_REFS)] : [WORKTREE_LIST_ARGS, GIT_DIRS_ARGS];
  const [list, dirs] = startEarlyBatch(queries, path); // one process forked from here, not four (run.ts)
  started = { path, list: list!, dirs: dirs! };
}

/** The two queries started for `path`, to look at without taking them (read.ts peekEarlyListing). */
export function startedRepoQueries(path: string): { list: Promise<ProcessResult>; dirs: Promise<ProcessResult> } | null {
  return started?.path === path ? started : null;
}

/** Starts the snapshot's refs read (facts.ts readSnapshot asks exactly this) in the primary, now,
 * unless the command line started it already. */
export function startSnapshotRefs(primary: string): void {
  const args = refsArgs(SNAPSHOT_REFS);
  if (!earlyPending(args, primary)) void startEarly(args, primary).catch(() => undefined);
}
