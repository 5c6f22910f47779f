// Queries a command is sure to ask first, started before it asks: while node loads the modules
// that will ask them. Read-only queries only; each result is taken once, by the git() call with
// the same argv and cwd (run.ts), and resolving the repo drops whatever was not taken.
import { startEarly } from "./run.js";
import type { ProcessResult } from "./result.js";

export const GIT_DIRS_ARGS = ["rev-parse", "--path-format=absolute", "--git-common-dir", "--git-dir", "--is-bare-repository"];
export const WORKTREE_LIST_ARGS = ["worktree", "list", "--porcelain", "-z"];

let started: { path: string; list: Promise<ProcessResult>; dirs: Promise<ProcessResult> } | null = null;

/** Starts the two queries that resolve the repo at `path` (readWorktrees, readGitDirs). */
export function startRepoQueries(path: string): void {
  started = { path, list: startEarly(WORKTREE_LIST_ARGS, path), dirs: startEarly(GIT_DIRS_ARGS, path) };
}

/** The two queries started for `path`, to look at without taking them (read.ts peekEarlyListing). */
export function startedRepoQueries(path: string): { list: Promise<ProcessResult>; dirs: Promise<ProcessResult> } | null {
  return started?.path === path ? started : null;
}
