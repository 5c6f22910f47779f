// The dirty fact of one worktree (SPEC §3.3, §4.7): one `git status --ignored=matching` gives
// tracked, untracked and conflicted paths plus the ignored entries the unique-ignored scan walks;
// the operation in progress is read from the admin dir. Callers that compare states later
// (cleanup preconditions) keep the status and the unique ignored files for the digest.
import { readStatus } from "../../git/read.js";
import type { StatusSummary } from "../../git/parse/status.js";
import { readOperation } from "../shared/admin.js";
import type { RepoContext } from "../shared/repo.js";
import type { Facts, Operation } from "../shared/types.js";
import { disposableOf, ignoredFacts, scanIgnored, type IgnoredFile } from "./ignored.js";

export type DirtyFacts = NonNullable<Facts["dirty"]>;

export interface DirtyState {
  dirty: DirtyFacts;
  status: StatusSummary;
  operation: Operation | null;
  /** Unique ignored files, sorted by path. */
  ignored: IgnoredFile[];
}

export async function readDirtyState(repo: RepoContext, path: string, admin: string): Promise<DirtyState> {
  const status = await readStatus(path, { ignored: true });
  const operation = readOperation(admin);
  const nested: string[] = [];
  const ignored = scanIgnored({ worktree: path, status, primary: repo.bare ? null : repo.primary, disposable: disposableOf(repo), nested });
  // with --untracked-files=all git lists a directory only when it is a nested repository or worktree
  for (const p of status.paths) if (p.kind === "untracked" && p.path.endsWith("/")) nested.push(p.path.replace(/\/+$/, ""));
  nested.sort();
  return {
    dirty: {
      tracked: status.tracked,
      untracked: status.untracked,
      conflicted: status.conflicted,
      operation,
      ignored: ignoredFacts(ignored),
      ...(nested.length > 0 && { nested }),
    },
    status,
    operation,
    ignored,
  };
}

export async function readDirty(repo: RepoContext, path: string, admin: string): Promise<DirtyFacts> {
  return (await readDirtyState(repo, path, admin)).dirty;
}

/** Changes that are work: tracked, untracked, conflicted paths and unique ignored files. */
export function changedCount(dirty: DirtyFacts): number {
  return dirty.tracked + dirty.untracked + dirty.conflicted + dirty.ignored.count;
}

/** Nothing uncommitted, no unique ignored file, no nested worktree, no operation in progress. */
export function isClean(dirty: DirtyFacts): boolean {
  return changedCount(dirty) === 0 && dirty.operation === null && !dirty.nested?.length;
}
