// Queries a command is sure to ask first, started before it asks: while node loads the modules
// that will ask them. Read-only queries only; each result is taken once, by the git() call with
// the same argv and cwd (run.ts), and the command's first snapshot drops whatever was not taken.
import { earlyPending, isWarm, startEarlyBatch } from "./run.js";
import { remember } from "./early-answers.js";
import { gitEnv } from "./env.js";
import { keptRefs } from "./warm/refs-kept.js";
import { REF_FORMAT } from "./parse/refs.js";
import type { ProcessResult } from "./result.js";
import { statusArgs } from "./status-args.js";
import { specialAdminFiles } from "./input/admin-pass.js";
import { commonDirOf } from "./programs/policy.js";

export const GIT_DIRS_ARGS = ["rev-parse", "--path-format=absolute", "--git-common-dir", "--git-dir", "--is-bare-repository"];
export const WORKTREE_LIST_ARGS = ["worktree", "list", "--porcelain", "-z"];
export const REMOTE_CONFIG_ARGS = ["config", "-z", "--get-regexp", "^remote\\."];
export const SNAPSHOT_REFS = ["refs/heads", "refs/remotes"];
export const refsArgs = (patterns: readonly string[]): string[] => ["for-each-ref", `--format=${REF_FORMAT}`, "--", ...patterns];

/** Whether git may be asked for the listing in `path`'s repository now: no admin file it would wait on (admin-vet.ts). */
function listable(path: string): boolean {
  const commonDir = commonDirOf(path);
  return commonDir === null || specialAdminFiles(commonDir).length === 0;
}

let started: { path: string; list: Promise<ProcessResult>; dirs: Promise<ProcessResult> } | null = null;

/**
 * Starts the two queries that resolve the repo at `path` (readWorktrees, readGitDirs). When `path`
 * is the primary's top level (`primary`), also the two that are asked there next: the remotes'
 * config (resolving the repo) and the refs (the snapshot).
 */
export function startRepoQueries(path: string, primary: boolean, options: { refs: boolean } = { refs: true }): void {
  // `refs: false` (status: its focused snapshot reads a few refs, core/facts/focus-refs.ts): the program settings instead
  // (the program settings are read without the guard's overrides, programs/read.ts: never from an early batch)
  const fourth = options.refs ? [refsArgs(SNAPSHOT_REFS)] : [];
  if (!listable(path)) return; // read.ts lists from the admin files
  const queries = primary ? [WORKTREE_LIST_ARGS, GIT_DIRS_ARGS, REMOTE_CONFIG_ARGS, ...fourth] : [WORKTREE_LIST_ARGS, GIT_DIRS_ARGS];
  const [list, dirs] = startEarlyBatch(queries, path); // one process forked from here, not four (run.ts)
  started = { path, list: list!, dirs: dirs! };
}

/**
 * The queries a command that takes the repo's mutation lock (add, release, heartbeat) asks first:
 * where the git dirs are and, from the primary's top level, the remotes' config and the program
 * settings (guardRepoPrograms), in one shell. Its worktree listing is read under the lock: it is
 * started here only when the caller holds the lock already (`locked`: the command line's early hold).
 */
export function startLockedQueries(path: string, primary: boolean, locked = false): void {
  const list = locked && listable(path) ? [WORKTREE_LIST_ARGS] : [];
  const queries = primary ? [GIT_DIRS_ARGS, REMOTE_CONFIG_ARGS, ...list] : [GIT_DIRS_ARGS];
  void startEarlyBatch(queries, path); // each answer waits to be taken by the identical git() call (its failure too)
}

/** The two queries started for `path`, to look at without taking them (read.ts peekEarlyListing). */
export function startedRepoQueries(path: string): { list: Promise<ProcessResult>; dirs: Promise<ProcessResult> } | null {
  return started?.path === path ? started : null;
}

/** Starts what a snapshot reads from git in the primary, now, through one shell: the worktree
 * listing (when `listing`: a caller with no listing of its own yet) and the refs (core/facts/snapshot.ts
 * readSnapshot asks exactly these; `refs`: a focused snapshot's patterns), each unless already started.
 * Returns the listing's process when this call started it (to know when one of the gits is done). */
export function startSnapshotReads(primary: string, options: SnapshotReads & { status?: string }): { listing: Promise<ProcessResult> | undefined } {
  const patterns = options.refs ?? SNAPSHOT_REFS;
  const refs = refsArgs(patterns);
  const queries = [...(options.listing && listable(primary) ? [WORKTREE_LIST_ARGS] : []), refs].filter((args) => !earlyPending(args, primary));
  // and a worktree's status (readStatus with ignored files), in the same shell: a fork of a large node process saved
  // (on Linux, where a process scan tells the shell's git inside the worktree from someone else: core/ownership/process.ts)
  const batched = options.status !== undefined && process.platform === "linux" && !earlyPending(statusArgs(true), options.status);
  const status = batched ? [{ args: statusArgs(true), cwd: options.status as string }] : [];
  // a warm process may hold the refs' answer already (warm/refs-kept.ts): the longer gits are sent first,
  // and the refs are looked up while they run (asked of git after them, in a line of their own, when not held)
  const mayKeep = queries.includes(refs) && options.commonDir !== undefined && isWarm();
  const others = queries.filter((q) => q !== refs);
  // the longest first (the listing, then the status): the shell forks them in turn
  const ordered = [...others, ...status, ...(mayKeep ? [] : queries.filter((q) => q === refs))];
  const started = ordered.length > 0 ? startEarlyBatch(ordered, primary) : []; // each answer waits to be taken (its failure too)
  const listing = ordered[0] === WORKTREE_LIST_ARGS ? started[0] : undefined;
  if (!mayKeep) return { listing };
  const held = keptRefs(refs, patterns, { primary, commonDir: options.commonDir as string, env: gitEnv(primary, { read: true }) });
  if (held && "answer" in held) {
    void remember(refs, primary, Promise.resolve(held.answer));
    return { listing };
  }
  const [asked] = startEarlyBatch([refs], primary);
  if (held && "keep" in held) asked!.then(held.keep, () => undefined);
  return { listing };
}

/** What a focused snapshot reads from git (startSnapshotReads): the listing when the caller has none, and the refs. */
export interface SnapshotReads {
  listing: boolean;
  refs?: readonly string[] | null;
  /** The repository's common dir: where a warm process stamps the refs it keeps (warm/refs-kept.ts). */
  commonDir?: string;
}
