// The cleanup planner (pure): hygiene verdicts → plan items. It plans only what apply will do
// when nothing changes in between: an item exists only for a worktree whose disposition already
// proves the action safe, and its preconditions are exactly the facts apply re-checks. Every
// worktree not planned is listed in `skipped` with its reasons, so a plan accounts for all.
// Foreign worktrees get only two actions (SPEC §3.7 v2): a `reap` of a reapable one, whose apply
// re-checks the whole orphan-sweep proof (§3.8), and the `prune` of an unlocked missing entry.
// Branches are deleted only when orchard created them and their tip is reachable from the
// default branch (same commit or ancestor): deleting them loses no commit.
import { hasCode, reason, type Reason } from "../shared/reasons/reasons.js";
import { assessPreservation, type Disposition, type HygieneWorktree, type Subject } from "../hygiene/index.js";
import type { Lifecycle } from "../../registry/index.js";

export const CLEANUP_ACTIONS = ["remove", "reap", "prune", "salvage_remove", "delete_branch"] as const;
export type CleanupAction = (typeof CLEANUP_ACTIONS)[number];
export const INCLUDABLE = ["reclaimable", "reapable", "missing", "husk", "needs_salvage"] as const satisfies readonly Disposition[];
export type Includable = (typeof INCLUDABLE)[number];
export const DEFAULT_INCLUDE: readonly Includable[] = ["reclaimable", "reapable", "missing"];

export interface Preconditions {
  head: string | null;
  dirtyDigest: string | null;
  lifecycle: Lifecycle | null;
  lockReason: string | null;
  /** The branch a delete_branch item removes (and the branch the worktree had). */
  branch: string | null;
  /** How the work was preserved when planned: re-proved at the moment of use. */
  proof: "merged" | "pushed" | null;
  /** The item is a husk directory, not a git worktree. */
  husk: boolean;
  /** The merge target the proof was made against (SPEC v4 §3.8): re-proved against it while that branch exists, else the default branch. */
  target?: string;
}

export interface PlannedItem {
  seq: number;
  repo: string | null;
  path: string;
  handle: string | null;
  action: CleanupAction;
  preconditions: Preconditions;
  reasons: Reason[];
  bytes?: number;
}

export interface SkippedWorktree {
  path: string;
  handle: string | null;
  disposition: Disposition;
  reasons: Reason[];
}

export interface PlanMember {
  view: HygieneWorktree;
  subject: Subject;
  digest: string | null;
}

export interface PlanRequest {
  include: readonly Includable[];
  salvage: boolean;
  olderThanMs: number | null;
  now: number;
  /** Default branch per repo identity (never deleted). */
  defaultBranches: ReadonlyMap<string, string | null>;
  /**
   * `orchard remove`: the caller named this worktree. An active worktree nobody holds is then taken
   * under the same proofs (clean and preserved → remove; work → salvage_remove with --salvage):
   * idleAfter only keeps cleanup's automatic sweep away from it.
   */
  explicit?: boolean;
}

type Decision = { action: CleanupAction; reasons: Reason[] } | { skip: Reason[] };

function decide(m: PlanMember, request: PlanRequest): Decision {
  const w = m.view;
  const d = w.disposition;
  if (d === "idle" && request.explicit) {
    if (hasCode(w.reasons, "recently_active")) return { action: "remove", reasons: w.reasons };
    if (hasCode(w.reasons, "active_unowned"))
      return request.salvage ? { action: "salvage_remove", reasons: w.reasons } : { skip: [reason("salvage_not_requested"), ...w.reasons] };
  }
  if (d === "live" || d === "idle" || d === "unknown") return { skip: w.reasons };
  // harness bookkeeping alone is not work (issue 22 item 8): included and salvaged without being asked
  const bookkeeping = d === "needs_salvage" && w.reasons.some((r) => r.code === "harness_bookkeeping");
  if (!request.include.includes(d as Includable) && !bookkeeping)
    return { skip: [reason("not_included", { disposition: d, include: request.include }), ...w.reasons] };
  if (request.olderThanMs !== null) {
    if (!w.lastActivity) return { skip: [reason("fact_unknown", { fact: "lastActivity" }, "lastActivity")] };
    if (Date.parse(w.lastActivity) > request.now - request.olderThanMs) return { skip: [reason("too_recent", { lastActivity: w.lastActivity })] };
  }
  if (d !== "husk" && !w.managed) {
    // foreign (SPEC §3.7 v2): only a reap under the §3.8 proof, and the prune of an unlocked missing entry
    if (d === "missing" && w.lock.locked) return { skip: [reason("foreign_lock", { lockReason: w.lock.reason }), ...w.reasons] };
    if (d !== "reapable" && d !== "missing") return { skip: [reason("not_managed"), ...w.reasons] };
  }
  if (m.digest === null && d !== "missing") return { skip: [reason("fact_unknown", { fact: "dirtyDigest" }, "dirtyDigest")] };
  switch (d) {
    case "reclaimable":
      return { action: "remove", reasons: w.reasons };
    case "reapable":
      return { action: "reap", reasons: w.reasons };
    case "missing":
      return { action: "prune", reasons: w.reasons };
    case "needs_salvage":
      return request.salvage || bookkeeping ? { action: "salvage_remove", reasons: w.reasons } : { skip: [reason("salvage_not_requested"), ...w.reasons] };
    case "husk": {
      const codes = new Set(w.reasons.map((r) => r.code));
      if (codes.has("husk_empty") || codes.has("husk_only_ignored")) return { action: "remove", reasons: w.reasons };
      if (codes.has("husk_has_files"))
        return request.salvage ? { action: "salvage_remove", reasons: w.reasons } : { skip: [reason("salvage_not_requested"), ...w.reasons] };
      return { skip: w.reasons };
    }
    default: {
      const never: never = d;
      throw new Error(`unhandled disposition ${String(never)}`);
    }
  }
}

function preconditionsOf(m: PlanMember): Preconditions {
  const w = m.view;
  const preserved = assessPreservation(w);
  return {
    head: w.head,
    dirtyDigest: m.digest,
    lifecycle: w.lifecycle,
    lockReason: w.lock.locked ? w.lock.reason : null,
    branch: w.detached ? null : w.branch,
    proof: preserved.state === "yes" ? preserved.via : null,
    husk: w.disposition === "husk",
    ...(w.merged?.target ? { target: w.merged.target } : {}),
  };
}

/** A branch orchard created, merged by reachability into the default branch, and not the default branch itself. */
function deletableBranch(m: PlanMember, action: CleanupAction, request: PlanRequest): boolean {
  const w = m.view;
  if (action !== "remove" && action !== "reap" && action !== "prune") return false;
  if (!w.managed || !m.subject.createdBranch || !w.branch || w.detached || !w.head || !m.subject.repo) return false;
  if (w.merged?.how !== "same_commit" && w.merged?.how !== "ancestor") return false;
  const main = request.defaultBranches.get(m.subject.repo);
  return !!main && main !== w.branch;
}

export function planCleanup(members: readonly PlanMember[], request: PlanRequest): { items: PlannedItem[]; skipped: SkippedWorktree[] } {
  const items: PlannedItem[] = [];
  const branchItems: Omit<PlannedItem, "seq">[] = [];
  const skipped: SkippedWorktree[] = [];
  const ordered = [...members].sort((a, b) => (a.subject.repo ?? "~").localeCompare(b.subject.repo ?? "~") || a.view.path.localeCompare(b.view.path));
  for (const m of ordered) {
    const w = m.view;
    const decision = decide(m, request);
    if ("skip" in decision) {
      skipped.push({ path: w.path, handle: w.handle, disposition: w.disposition, reasons: decision.skip });
      continue;
    }
    const item: PlannedItem = {
      seq: items.length + 1,
      repo: m.subject.repo,
      path: w.path,
      handle: w.handle,
      action: decision.action,
      preconditions: preconditionsOf(m),
      reasons: decision.reasons,
    };
    if (w.disk) item.bytes = w.disk.uniqueBytes;
    items.push(item);
    if (deletableBranch(m, decision.action, request))
      branchItems.push({
        repo: m.subject.repo,
        path: w.path,
        handle: w.handle,
        action: "delete_branch",
        preconditions: { ...preconditionsOf(m), dirtyDigest: null },
        reasons: [reason("merged", { how: w.merged?.how, target: w.merged?.target })],
      });
  }
  for (const b of branchItems) items.push({ seq: items.length + 1, ...b });
  return { items, skipped };
}
