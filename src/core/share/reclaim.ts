// Which kept copies go (pure): a copy is reclaimable when it is incomplete (no marker), when it
// changed since it was kept (share_modified: its digest differs, digest.ts), when no
// worktree of its fingerprint remains (share_unused), or, while the copies left take more than
// `disk.shareBudget`, the least recently used first (share_over_budget). A copy is never followed
// by a worktree's removal, and removing a copy never touches a worktree: with `clone` and `copy`
// the worktrees hold their own files; with `hardlink` they hold their own links to the inodes.
import { reason, type Reason } from "../shared/reasons/reasons.js";
import type { KeptCopy } from "./store.js";

export interface KeptUse {
  copy: KeptCopy;
  /** Worktrees (registered, not removed) whose recorded fingerprints and the repo's shared directories match the copy's. */
  worktrees: number;
  /** Allocated bytes of the copy; null when not measured. */
  bytes: number | null;
  /** Why the copy changed since it was kept (digest.ts); null when it matches or was not checked. */
  modified?: string | null;
}

export interface KeptVerdict extends KeptUse {
  reclaim: boolean;
  reasons: Reason[];
}

/** `uses` oldest use first (listKept's order). With a budget, an unmeasured copy counts as nothing. */
export function assessKept(uses: readonly KeptUse[], budget: number | null): KeptVerdict[] {
  const verdicts = uses.map((u): KeptVerdict => {
    if (!u.copy.marker) return { ...u, reclaim: true, reasons: [reason("share_incomplete")] };
    if (u.modified) return { ...u, reclaim: true, reasons: [reason("share_modified", { why: u.modified })] };
    if (u.worktrees === 0) return { ...u, reclaim: true, reasons: [reason("share_unused")] };
    return { ...u, reclaim: false, reasons: [] };
  });
  if (budget === null) return verdicts;
  let total = verdicts.reduce((n, v) => n + (v.reclaim ? 0 : (v.bytes ?? 0)), 0);
  for (const v of verdicts) {
    if (total <= budget) break;
    if (v.reclaim) continue;
    v.reclaim = true;
    v.reasons.push(reason("share_over_budget", { budget }));
    total -= v.bytes ?? 0;
  }
  return verdicts;
}

/** Does a worktree with these recorded fingerprints, in a repo that shares `dirs` now, use the copy? */
export function usesCopy(copy: KeptCopy, fp: { bootstrap: string | null; runtime: string | null }, dirs: readonly string[]): boolean {
  const m = copy.marker;
  return m !== null && m.bootstrap === fp.bootstrap && m.runtime === fp.runtime && JSON.stringify(m.dirs) === JSON.stringify(dirs);
}
