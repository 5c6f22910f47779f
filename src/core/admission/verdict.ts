// The exact-handle verdict (pure, SPEC §3.1 step 2): may a requester adopt an existing managed
// worktree? Every blocking reason is collected; observations that do not block become notes.
// The same rules, with unpushed commits and base drift made blocking, judge candidates (candidates.ts
// waives the ones a recycle makes moot for a terminal candidate).
import { reason, type Reason } from "../shared/reasons/reasons.js";
import type { Facts } from "../shared/types.js";

export interface ExactRequest {
  /** null: a detached candidate (never eligible: candidates.ts). */
  branch: string | null;
  task: string | null;
  /** Full ref of an explicitly requested base; null when the caller took the default. */
  baseRef: string | null;
  owner: string | null;
  resume: boolean;
  /** The requester's chain of parent processes (readAncestors): those inside are the requester itself. */
  ancestors?: readonly number[];
}

export interface Verdict {
  reasons: Reason[];
  notes: Reason[];
}

/**
 * Is a live signal someone other than the requester? A live lease of another owner, a live foreign
 * lock pid, or a process working inside (SPEC v3 §3.1, §4.11: live for admission too). The one
 * exception is the same owner re-adding its own worktree: processes inside then are its own
 * (the recorded owner named again, or — both naming nobody — the requester's own shell inside).
 */
function liveOtherOwner(facts: Facts, requester: ExactRequest): boolean {
  if (facts.liveness.state !== "live") return false;
  const signals = facts.liveness.signals.map((s) => s.code);
  const leaseLive = signals.includes("lease_live") || (facts.owner !== null && signals.includes("pid_alive"));
  if (leaseLive && facts.owner !== null && facts.owner !== requester.owner) return true;
  const foreignLockLive = facts.lock.owner !== null && facts.lock.owner.kind !== "orchard" && signals.includes("pid_alive");
  return foreignLockLive || someoneElseInside(facts, requester);
}

function someoneElseInside(facts: Facts, requester: ExactRequest): boolean {
  const inside = facts.liveness.signals.find((s) => s.code === "process_in_worktree")?.pids ?? [];
  const own = new Set(requester.ancestors ?? []);
  const others = inside.filter((pid) => !own.has(pid));
  if (others.length === 0) return false;
  const requesterInside = inside.length > others.length;
  const sameOwner = facts.owner === requester.owner && (requester.owner !== null || requesterInside);
  return !sameOwner;
}

export function assessExact(facts: Facts, request: ExactRequest, options: { strict: boolean }): Verdict {
  const reasons: Reason[] = [];
  const notes: Reason[] = [];
  if (facts.branch !== request.branch) reasons.push(reason("branch_mismatch", { expected: request.branch, actual: facts.branch }));
  if (facts.task !== null && request.task !== null && facts.task !== request.task)
    reasons.push(reason("task_mismatch", { expected: request.task, actual: facts.task }));
  if (request.baseRef !== null && facts.base !== null && facts.base.ref !== request.baseRef)
    reasons.push(reason("base_mismatch", { expected: request.baseRef, actual: facts.base.ref }));
  for (const code of facts.fingerprints.drift) reasons.push(reason(code));
  const otherLive = liveOtherOwner(facts, request);
  if (otherLive) reasons.push(reason("live_owner", { owner: facts.owner, signals: facts.liveness.signals }));
  else if (facts.liveness.state === "unknown") reasons.push(reason("liveness_unknown", { signals: facts.liveness.signals }));
  const dirty = facts.dirty;
  if (dirty === undefined || dirty === null) reasons.push(reason("dirty", { unknown: true }, "the worktree's status could not be read"));
  else {
    if (dirty.operation !== null) reasons.push(reason("operation_in_progress", { operation: dirty.operation }));
    const changed = dirty.tracked + dirty.untracked + dirty.conflicted;
    const sameTask = facts.task === request.task;
    const waived = request.resume && sameTask && !otherLive;
    if (changed > 0 && !waived) reasons.push(reason("dirty", { tracked: dirty.tracked, untracked: dirty.untracked, conflicted: dirty.conflicted }));
    // unique ignored files (§4.7) are work like untracked files: the same waiver, and a note when waived
    if (dirty.ignored.count > 0) (waived ? notes : reasons).push(reason("ignored_files", { ...dirty.ignored }));
  }
  const unpushed = facts.unpushed;
  if (unpushed !== null && unpushed > 0) (options.strict ? reasons : notes).push(reason("unpushed_commits", { count: unpushed }));
  if (options.strict && unpushed === null) reasons.push(reason("unpushed_commits", { unknown: true }, "no remote to compare with"));
  if (facts.base?.drifted) (options.strict ? reasons : notes).push(reason("base_drift", { recorded: facts.base.commit, current: facts.base.current }));
  return { reasons, notes };
}
