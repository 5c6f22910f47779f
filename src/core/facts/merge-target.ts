// The one target "merged" is proven against (SPEC v4 §3.8): the worktree's recorded base when that
// base is a branch that still exists, else the default branch. Status, list, hygiene, reap-orphans
// and cleanup all ask this function, so they give one answer about the same worktree and name the
// same target. A base branch counts with origin's copy of it (as the default branch does: local
// `main` and `origin/main`); a base that is a commit, a tag, another remote's branch or the
// worktree's own branch counts as no base.
import { readRefs } from "../../git/read.js";
import type { MergeTarget } from "./merged.js";

export interface TargetQuery {
  /** The base ref the worktree was made from, as recorded (registry row or identity file). */
  baseRef: string | null | undefined;
  /** The worktree's own branch (short name). */
  branch: string | null | undefined;
  /** The default branch's short name, null when unknown. */
  defaultBranch: string | null;
  /** The default branch's refs that exist (targetRefs). */
  defaultRefs: readonly string[];
  remotes: readonly string[];
}

/** The branch a recorded base names (`refs/heads/X`, `refs/remotes/origin/X` → X), or null. */
export function baseBranchName(baseRef: string | null | undefined): string | null {
  if (baseRef?.startsWith("refs/heads/")) return baseRef.slice("refs/heads/".length) || null;
  if (baseRef?.startsWith("refs/remotes/origin/")) return baseRef.slice("refs/remotes/origin/".length) || null;
  return null;
}

/** The refs a worktree's work is proven merged into, in order of preference (pure: `exists` answers from refs already read). */
export function chooseMergeTargets(q: TargetQuery, exists: (ref: string) => boolean): string[] {
  const name = baseBranchName(q.baseRef);
  if (name === null || name === q.branch || name === q.defaultBranch || !exists(q.baseRef as string)) return [...q.defaultRefs];
  const refs = [`refs/heads/${name}`, ...(q.remotes.includes("origin") ? [`refs/remotes/origin/${name}`] : [])].filter(exists);
  return refs.length > 0 ? refs : [...q.defaultRefs];
}

/** chooseMergeTargets with the refs read now (one for-each-ref), as commits: for a check at the moment of use. */
export async function readMergeTargets(primary: string, q: TargetQuery, defaultTargets: readonly MergeTarget[]): Promise<MergeTarget[]> {
  const name = baseBranchName(q.baseRef);
  if (name === null || name === q.branch || name === q.defaultBranch) return [...defaultTargets];
  const wanted = [`refs/heads/${name}`, ...(q.remotes.includes("origin") ? [`refs/remotes/origin/${name}`] : [])];
  const found = new Map((await readRefs(primary, wanted)).filter((r) => r.oid).map((r) => [r.ref, r.oid as string]));
  const refs = chooseMergeTargets({ ...q, defaultRefs: [] }, (ref) => found.has(ref));
  return refs.length > 0 ? refs.map((ref) => ({ ref, oid: found.get(ref) as string })) : [...defaultTargets];
}

/** What choosing a worktree's merge target needs of a snapshot. */
export interface TargetView {
  repo: { remotes: readonly string[] };
  defaultBranch: { name: string } | null;
  targets: string[];
  refs: ReadonlyMap<string, { oid: string }>;
}

/** A worktree's merge target refs (merge-target.ts) from the snapshot's refs: its recorded base branch, else the default branch. */
export function worktreeTargets(snapshot: TargetView, worktree: { baseRef: string | null | undefined; branch: string | null | undefined }): string[] {
  const query = { ...worktree, defaultBranch: snapshot.defaultBranch?.name ?? null, defaultRefs: snapshot.targets, remotes: snapshot.repo.remotes };
  return chooseMergeTargets(query, (ref) => snapshot.refs.has(ref));
}

/** How a target is named to a person: the branch, without `refs/heads/` (`origin/main` for a remote-tracking one). */
export function targetName(ref: string | null | undefined): string | null {
  if (!ref) return null;
  return ref.replace(/^refs\/heads\//, "").replace(/^refs\/remotes\//, "");
}
