// The orphan sweep's verdict (SPEC §3.8), pure. Steps in the spec's order; the first step that
// blocks names the entry's reason (an entry has one reason in the sweep's output). Facts are
// gathered in two stages so a live or fresh lock costs no git process: `assessOwnerGone` over
// the lock facts, then `assessWork` over the branch and checkout facts.
import type { LockOwner, Liveness } from "../ownership/index.js";
import type { IgnoredFacts, MergedHow, Operation } from "../shared/types.js";

export type ReapSkipReason =
  | "lock_too_fresh"
  | "lock_age_unknown"
  | "lock_owner_unknown"
  | "no_owner"
  | "pid_alive"
  | "lease_live"
  | "process_in_worktree"
  | "liveness_unknown"
  | "cannot_resolve_branch_tip"
  | "branch_not_merged"
  | "worktree_dirty"
  | "ignored_files"
  | "nested_worktree"
  | "fact_unknown"
  | "session_resumable"
  | "foreign_workspace"
  | "harness_tracked"
  | "harness_unverified";

export type ReapReason = "pid_dead_and_merged" | "lease_dead_and_merged" | "pid_dead_and_missing";

/** `reapableInMs`: a lock too fresh becomes reapable (as far as its age goes) this much later. */
export type Verdict<T> = { kind: "skip"; reason: ReapSkipReason; detail?: string; reapableInMs?: number } | ({ kind: "go" } & T);

export interface LockFacts {
  /** now − mtime of `<admin>/locked`; null when it could not be read. */
  lockAgeMs: number | null;
  guardMs: number;
  owner: LockOwner;
  /** For an Orchard lock: does the worktree have a lease? `unknown` when its registry row is not here. */
  orchardLease: "present" | "absent" | "unknown";
  liveness: Liveness;
}

/** The live signals, in the spec's order (the owner's pid, the lease heartbeat, processes inside). */
export const LIVE_REASONS = ["pid_alive", "lease_live", "process_in_worktree"] as const;

/**
 * Steps 1–3: the lock is old enough, names an owner we understand, and that owner is gone. A live
 * holder is named first, whatever the guard (SPEC v3 §3.8): the guard protects a lock whose holder
 * is dead or unknown from a sweep racing its start, never hides a live one. `byHeartbeat`: the
 * owner is an Orchard lease that ended by its TTL (no pid to judge), the one `lease_dead_and_merged`.
 */
export function assessOwnerGone(f: LockFacts): Verdict<{ byHeartbeat: boolean }> {
  const codes = new Set(f.liveness.signals.map((s) => s.code));
  for (const live of LIVE_REASONS) {
    if (codes.has(live)) return { kind: "skip", reason: live, detail: f.liveness.signals.find((s) => s.code === live)?.detail ?? "" };
  }
  if (f.lockAgeMs === null) return { kind: "skip", reason: "lock_age_unknown" };
  if (f.lockAgeMs < f.guardMs)
    return { kind: "skip", reason: "lock_too_fresh", detail: `${Math.round(f.lockAgeMs / 1000)}s old`, reapableInMs: f.guardMs - f.lockAgeMs };
  if (f.owner.kind === "unknown") return { kind: "skip", reason: "lock_owner_unknown" };
  if (f.owner.kind === "orchard") {
    if (f.orchardLease === "absent") return { kind: "skip", reason: "no_owner" };
    if (f.orchardLease === "unknown") return { kind: "skip", reason: "liveness_unknown", detail: "an orchard lease this workspace has no record of" };
  }
  if (f.liveness.state === "unknown" || f.liveness.state === "live")
    return { kind: "skip", reason: "liveness_unknown", detail: f.liveness.signals.map((s) => `${s.code}: ${s.detail}`).join("; ") };
  const pidDied = codes.has("pid_dead") || codes.has("pid_reused");
  return { kind: "go", byHeartbeat: f.owner.kind === "orchard" && !pidDied };
}

/** A live holder is no orphan: such a skip is counted apart (`live`), never among skipped orphans. */
export function isLiveReason(reason: string): boolean {
  return (LIVE_REASONS as readonly string[]).includes(reason);
}

export type MergeMode = "ancestor" | "equivalent";

export interface WorkFacts {
  /** The commit the admin HEAD names; null when it names none. */
  tip: string | null;
  /** How the tip is merged (null: no proof) and into which ref. Absent when the tip is unknown. */
  merged?: { how: MergedHow | null; target: string | null };
  missing: boolean;
  /** Changes in the checkout and its unique ignored files; `unknown` when they could not be read; absent when not needed. */
  dirty?: { changes: number; operation: Operation | null; ignored: IgnoredFacts; nested?: string[]; bookkeeping?: string[] } | "unknown";
  /** A detached HEAD's commits only its reflog keeps (SPEC v5 §3.11); absent: none; null: unreadable. */
  reflogOnly?: number | null;
  salvage: boolean;
}

/** Steps 4–6: the branch tip is known and merged, and the checkout holds no unsaved work (or it is salvaged first). */
export function assessWork(f: WorkFacts, byHeartbeat: boolean): Verdict<{ reason: ReapReason; salvage: boolean; bookkeeping?: string[] }> {
  if (f.tip === null) return { kind: "skip", reason: "cannot_resolve_branch_tip" };
  if (!f.merged || f.merged.how === null)
    return { kind: "skip", reason: "branch_not_merged", ...(f.merged?.target ? { detail: `not merged into ${f.merged.target}` } : {}) };
  if (f.missing) return { kind: "go", reason: "pid_dead_and_missing", salvage: false };
  const reason: ReapReason = byHeartbeat ? "lease_dead_and_merged" : "pid_dead_and_merged";
  // commits only a detached HEAD's reflog keeps: merged HEAD or not, they go with the worktree unless salvaged
  const reflogWork = f.reflogOnly !== undefined && f.reflogOnly !== 0;
  if (reflogWork && !(f.salvage && f.reflogOnly !== null))
    return {
      kind: "skip",
      reason: "branch_not_merged",
      detail: f.reflogOnly === null ? "its HEAD reflog could not be read" : `${f.reflogOnly} commit(s) only in its HEAD reflog`,
    };

  if (f.dirty === undefined) throw new Error("assessWork needs the dirty fact of an existing, merged checkout");
  if (f.dirty === "unknown") return { kind: "skip", reason: "fact_unknown", detail: "git status could not be read in the worktree" };
  // a nested worktree or repository (§4.14) blocks removal and salvage alike
  if (f.dirty.nested?.length) return { kind: "skip", reason: "nested_worktree", detail: f.dirty.nested.join(", ") };
  const dirty = f.dirty.changes > 0 || f.dirty.operation !== null;
  const ignored = f.dirty.ignored.count > 0;
  if (!dirty && !ignored) return { kind: "go", reason, salvage: reflogWork }; // the salvage keeps the reflog's commits as parents
  if (f.salvage) return { kind: "go", reason, salvage: true };
  // harness bookkeeping alone is not work: saved in the salvage ref and reaped (issue 22 item 8)
  if (f.dirty.bookkeeping) return { kind: "go", reason, salvage: true, bookkeeping: f.dirty.bookkeeping };
  // step 6's "dirty" includes unique ignored files (§4.7); named apart when they are all there is
  if (!dirty) return { kind: "skip", reason: "ignored_files", detail: describeIgnored(f.dirty.ignored) };
  const also = ignored ? `; ${describeIgnored(f.dirty.ignored)}` : "";
  return {
    kind: "skip",
    reason: "worktree_dirty",
    detail: `${f.dirty.changes} change${f.dirty.changes === 1 ? "" : "s"}${f.dirty.operation ? `, ${f.dirty.operation} in progress` : ""}${also}`,
  };
}

export function describeIgnored(ignored: IgnoredFacts): string {
  return `${ignored.count} unique ignored file(s), ${ignored.bytes} bytes: ${ignored.sample.join(", ")}${ignored.count > ignored.sample.length ? ", …" : ""}`;
}
