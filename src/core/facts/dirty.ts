// The dirty fact of one worktree (SPEC §3.3, §4.7): one `git status --ignored=matching` gives
// tracked, untracked and conflicted paths plus the ignored entries the unique-ignored scan walks;
// the operation in progress is read from the admin dir. Callers that compare states later
// (cleanup preconditions) keep the status and the unique ignored files for the digest.
import { StatusUnknownError, readStatus, readStatuses, submoduleWork, worktreeBlockError } from "../../git/read.js";
import { STATUS_PARALLELISM, mapLimit } from "../shared/pool.js";
import type { StatusSummary } from "../../git/parse/status.js";
import { readOperation } from "../shared/repo/admin.js";
import type { RepoContext } from "../shared/repo/repo.js";
import type { Facts, Operation } from "../shared/types.js";
import { disposableOf, ignoredFacts, scanIgnored, type IgnoredFile } from "./ignored.js";
import { onlyBookkeeping } from "./bookkeeping.js";
import { isPrimaryLink } from "../shared/primary-link.js";
import { withoutBootstrapOutput } from "../bootstrap/index.js";

export type DirtyFacts = NonNullable<Facts["dirty"]>;

export interface DirtyState {
  dirty: DirtyFacts;
  status: StatusSummary;
  operation: Operation | null;
  /** Unique ignored files, sorted by path. */
  ignored: IgnoredFile[];
}

export async function readDirtyState(repo: RepoContext, path: string, admin: string): Promise<DirtyState> {
  const unreadable = worktreeBlockError(path); // readStatus's first step, taken first here: a blocked worktree's submodules are not looked at
  if (unreadable) throw unreadable;
  const status = readStatus(path, { ignored: true });
  // the submodule look (its index read, each gitlink's own status) runs beside the status, not after it;
  // the status's failure is still the one reported (awaited first)
  const nested = submoduleWork(path);
  nested.catch(() => undefined); // awaited below, unless the status failed
  return dirtyStateOf(repo, path, admin, withNested(await status, await nested));
}

/**
 * The status with each submodule that holds work (or a repository of its own) as a nested entry:
 * the status itself never looks inside one (git/submodules.ts), and such work is never removed,
 * cleaned or salvaged with the worktree (§4.14). A submodule is any gitlink of the index, and a
 * repository in a tracked directory is nested too (SPEC v5 §4).
 */
async function withSubmodules(path: string, status: StatusSummary): Promise<StatusSummary> {
  return withNested(status, await submoduleWork(path));
}

/** The status with the submodule look's paths (submoduleWork) as untracked entries. */
function withNested(status: StatusSummary, nested: readonly string[]): StatusSummary {
  if (nested.length === 0) return status;
  const listed = new Set(status.paths.map((p) => p.path));
  const extra = nested.filter((p) => !listed.has(p)).map((p) => ({ kind: "untracked" as const, path: p }));
  return { ...status, untracked: status.untracked + extra.length, paths: [...status.paths, ...extra] };
}

/** The dirty states of many worktrees, their statuses read by a few shells (readStatuses) or already
 * under way (`started`, in the same order); an Error where one could not be read. */
export async function readDirtyStates(
  repo: RepoContext,
  worktrees: readonly { path: string; admin: string }[],
  started?: Promise<(StatusSummary | Error)[]>,
): Promise<Map<string, DirtyState | Error>> {
  const statuses = await (started ??
    readStatuses(
      worktrees.map((w) => w.path),
      { ignored: true, slices: STATUS_PARALLELISM },
    ));
  const out = new Map<string, DirtyState | Error>();
  // each worktree's index is read for its gitlinks (withSubmodules): a few gits at a time, as the statuses
  await mapLimit(worktrees, STATUS_PARALLELISM, async (w, i) => {
    const status = statuses[i] as StatusSummary | Error;
    try {
      out.set(w.path, status instanceof Error ? status : dirtyStateOf(repo, w.path, w.admin, await withSubmodules(w.path, status)));
    } catch (error) {
      out.set(w.path, error instanceof Error ? error : new Error(String(error)));
    }
  });
  return out;
}

function dirtyStateOf(repo: RepoContext, path: string, admin: string, read: StatusSummary): DirtyState {
  const status = withoutBootstrapOutput(admin, read, path); // what the bootstrap wrote is not work (bootstrap/output.ts)
  const operation = readOperation(admin);
  const nested: string[] = [];
  const ignored = scanIgnored({ worktree: path, status, primary: repo.bare ? null : repo.primary, disposable: disposableOf(repo), nested });
  // with --untracked-files=all git lists a directory only when it is a nested repository or worktree
  for (const p of status.paths) if (p.kind === "untracked" && p.path.endsWith("/")) nested.push(p.path.replace(/\/+$/, ""));
  nested.sort();
  // a directory the bootstrap shares with the primary (bootstrap.link) that no ignore rule matches: not work
  const primary = repo.bare ? null : repo.primary;
  const linked = new Set(status.paths.filter((p) => p.kind === "untracked" && isPrimaryLink(path, p.path, primary)).map((p) => p.path));
  const links = linked.size;
  const own = links === 0 ? status : { ...status, paths: status.paths.filter((p) => !linked.has(p.path)) };
  const bookkeeping = operation === null && nested.length === 0 ? onlyBookkeeping(own, ignored) : null;
  return {
    dirty: {
      tracked: status.tracked,
      untracked: status.untracked - links,
      conflicted: status.conflicted,
      operation,
      ignored: ignoredFacts(ignored),
      ...(nested.length > 0 && { nested }),
      ...(bookkeeping !== null && { bookkeeping }),
    },
    status,
    operation,
    ignored,
  };
}

/** Null (unknown) where a program the repository's config names, and may not run, would decide it (SPEC v3 §4.1). */
export async function readDirty(repo: RepoContext, path: string, admin: string): Promise<DirtyFacts | null> {
  try {
    return (await readDirtyState(repo, path, admin)).dirty;
  } catch (error) {
    if (error instanceof StatusUnknownError) return null;
    throw error;
  }
}

/** Changes that are work: tracked, untracked, conflicted paths and unique ignored files. */
export function changedCount(dirty: DirtyFacts): number {
  return dirty.tracked + dirty.untracked + dirty.conflicted + dirty.ignored.count;
}

/** Nothing uncommitted, no unique ignored file, no nested worktree, no operation in progress. */
export function isClean(dirty: DirtyFacts): boolean {
  return changedCount(dirty) === 0 && dirty.operation === null && !dirty.nested?.length;
}
