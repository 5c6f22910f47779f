// The recycle proof (SPEC §3.4), pure: may a worktree be switched to new work? Every item must be
// established; each failure is a reason, and all of them are reported. Unknown is never safe.
import { reason, type Reason } from "../shared/reasons/reasons.js";
import type { Facts } from "../shared/types.js";
import { blockReason } from "../facts/index.js";
import { harnessHold } from "../harness/index.js";
import type { WorktreeRow } from "../../registry/index.js";
import type { WorktreeEntry } from "../../git/parse/worktrees.js";

export function assessRecycle(facts: Facts): Reason[] {
  const reasons: Reason[] = [];
  if (!facts.managed) reasons.push(reason("not_managed", { path: facts.path }));
  else if (facts.lifecycle !== "terminal") reasons.push(reason("not_terminal", { lifecycle: facts.lifecycle }));
  if (facts.missing) reasons.push(reason("missing_directory", { path: facts.path }));
  if (facts.liveness.state === "live") reasons.push(reason("live_owner", { owner: facts.owner, signals: facts.liveness.signals }));
  else if (facts.liveness.state === "unknown") reasons.push(reason("liveness_unknown", { signals: facts.liveness.signals }));
  const dirty = facts.dirty;
  if (facts.blocked) reasons.push(blockReason(facts.blocked));
  else if (dirty === undefined || dirty === null) reasons.push(reason("dirty", { unknown: true }, "the worktree's status could not be read"));
  else {
    if (dirty.operation !== null) reasons.push(reason("operation_in_progress", { operation: dirty.operation }));
    if (dirty.tracked + dirty.untracked + dirty.conflicted > 0)
      reasons.push(reason("dirty", { tracked: dirty.tracked, untracked: dirty.untracked, conflicted: dirty.conflicted }));
    if (dirty.ignored.count > 0) reasons.push(reason("ignored_files", { ...dirty.ignored }));
    if (dirty.nested?.length) reasons.push(reason("nested_worktree", { paths: dirty.nested }));
  }
  const merged = facts.merged?.how ?? null;
  if ((merged === null && facts.unpushed !== 0) || (facts.reflogOnly !== undefined && facts.reflogOnly !== 0))
    reasons.push(
      reason(
        "work_not_preserved",
        { head: facts.head, unpushed: facts.unpushed, merged: facts.merged ?? null, path: facts.path, branch: facts.branch },
        facts.unpushed === null ? "no remote to compare with and not merged" : undefined,
      ),
    );
  if (facts.lock.locked && facts.lock.owner?.kind !== "orchard") reasons.push(reason("foreign_lock", { reason: facts.lock.reason, owner: facts.lock.owner }));
  // a worktree its harness tracks (or may) is that harness's to drop, never switched to other work
  const held = harnessHold(facts.harness);
  if (held) reasons.push(held);
  return reasons;
}

/** What must hold where the recycled worktree goes: its handle, path and branch are free. */
export interface Destination {
  /** A current row already holds the new handle (not the recycled worktree's own). */
  handleTakenBy: string | null;
  /** The new path exists and is not the recycled worktree's path. */
  pathOccupied: boolean;
  /** Another worktree has the new branch checked out. */
  branchHolder: string | null;
}

export function assessDestination(d: Destination, path: string): Reason[] {
  const reasons: Reason[] = [];
  if (d.handleTakenBy !== null) reasons.push(reason("handle_taken", { path: d.handleTakenBy }));
  if (d.pathOccupied) reasons.push(reason("path_occupied", { path }));
  if (d.branchHolder !== null) reasons.push(reason("branch_checked_out", { path: d.branchHolder }));
  return reasons;
}

/** A worktree that passed (or failed) the recycle proof, with the facts it was judged on. */
export interface RecycleProof {
  row: WorktreeRow | null;
  entry: WorktreeEntry | null;
  facts: Facts;
  reasons: Reason[];
}
