// `release` and `heartbeat` (SPEC §3.2). Release ends the lease, removes Orchard's own git lock
// (never a foreign one) and makes the worktree terminal; it is idempotent and refuses while
// another owner's lease is live.
import { findAdminDir } from "../shared/repo/admin.js";
import { writeRowIdentity } from "../shared/rows.js";
import { unlockWorktree } from "../../git/write.js";
import { parseLockOwner, NO_LEASE, leaseLockText, leaseView, newLease, readCallerHolds, writeLock, withMutationLock } from "../ownership/index.js";
import { readLiveness } from "../facts/index.js";
import { resolveManaged, requireManaged } from "../shared/repo/target.js";
import { resolveTargetOrTask } from "../navigate/index.js";
import { requireTtl, requireOneOf, requirePid, requireText } from "../shared/input/validate.js";
import { takeLockedListing } from "../shared/repo/repo.js";
import { reason, type Reason } from "../shared/reasons/reasons.js";
import type { Ctx } from "../shared/context.js";
import type { Lease } from "../shared/types.js";
import type { WorktreeRow } from "../../registry/index.js";
import { OUTCOMES, type Outcome } from "../shared/input/inputs.js";

export interface ReleaseOptions {
  target: string;
  outcome?: Outcome;
  owner?: string;
  /** A person's override: release a live lease this process does not hold (CLI `--force`; never offered to MCP). */
  force?: boolean;
}

import { LEASE_ACTIONS, type LeaseAction } from "../shared/actions.js";
export { LEASE_ACTIONS, type LeaseAction };

export interface LeaseResultFields {
  handle: string;
  path: string;
  lifecycle: WorktreeRow["lifecycle"];
  outcome?: Outcome | null;
  lease: Lease | null;
  reasons: Reason[];
}

/** The result of one action; `ok` is false exactly for `refused` (its `reasons` say why). */
export type LeaseResultOf<A extends LeaseAction> = LeaseResultFields & (A extends "refused" ? { ok: false; action: A } : { ok: true; action: A });

/** What `release` and `heartbeat` resolve to, discriminated on `ok` and `action`. */
export type LeaseResult = { [A in LeaseAction]: LeaseResultOf<A> }[LeaseAction];

/** Another owner's lease is live (heartbeat within TTL, or its pid alive). Processes inside do not count here. */
async function otherOwnerLive(row: WorktreeRow, owner: string | null): Promise<Reason | null> {
  if (row.owner === null || row.owner === owner) return null;
  const liveness = await readLiveness({ row, lockReason: null, path: row.path, cwds: new Map(), now: Date.now() });
  if (liveness.signals.some((s) => s.code === "lease_live" || s.code === "pid_alive"))
    return reason("live_owner", { owner: row.owner, signals: liveness.signals });
  return null;
}

/**
 * A live lease whose process is not this caller nor one of its ancestors (SPEC v5): naming its
 * owner does not make the caller its holder. Dead, reused or expired leases are anyone's to end.
 */
async function notTheHolder(row: WorktreeRow): Promise<Reason | null> {
  if (row.owner === null && row.pid === null) return null;
  if (await readCallerHolds(row)) return null;
  const liveness = await readLiveness({ row, lockReason: null, path: row.path, cwds: new Map(), now: Date.now() });
  if (!liveness.signals.some((s) => s.code === "lease_live" || s.code === "pid_alive" || s.code === "pid_unknown" || s.code === "pid_other_host")) return null;
  return reason(
    "live_owner",
    { owner: row.owner, signals: liveness.signals, holderPid: row.pid },
    `the lease is held by pid ${row.pid} (not this process nor one of its ancestors)`,
  );
}

function view(row: WorktreeRow, action: LeaseAction, reasons: Reason[] = []): LeaseResult {
  const fields: LeaseResultFields = {
    handle: row.handle,
    path: row.path,
    lifecycle: row.lifecycle,
    outcome: row.outcome,
    lease: leaseView(row),
    reasons,
  };
  return action === "refused" ? { ok: false, action, ...fields } : { ok: true, action, ...fields };
}

/** The identity file follows the row (SPEC v4 §4.11): what a recovery restores is what the registry held. */
function syncIdentity(ctx: Ctx, row: WorktreeRow): void {
  const admin = findAdminDir(ctx.repo.commonDir, row.path);
  if (admin) writeRowIdentity(admin, row, ctx.workspace.id);
}

export async function release(ctx: Ctx, options: ReleaseOptions): Promise<LeaseResult> {
  const outcome = requireOneOf(options.outcome, OUTCOMES, "outcome", "done");
  const owner = requireText(options.owner ?? process.env.ORCHARD_OWNER, "owner");
  const listed = takeLockedListing(ctx.repo); // read under the lock this call still holds (Orchard took it first)
  return withMutationLock(ctx.repo.commonDir, async () => {
    const target = await resolveTargetOrTask(ctx, options.target, listed); // a task too, as path and cd read one
    const row = requireManaged(target, "release");
    if (row.lifecycle === "terminal") return clearLeftoverLease(ctx, row, target.entry?.locked ? target.entry.lockReason : null);
    // --force is a person's override of both checks (docs/commands.md); an agent is told `orchard status`
    const blocked = options.force === true ? null : ((await otherOwnerLive(row, owner)) ?? (await notTheHolder(row)));
    if (blocked) return view(row, "refused", [blocked]);
    const lockOwner = target.entry?.locked ? parseLockOwner(target.entry.lockReason) : null;
    if (lockOwner?.kind === "orchard") await unlockWorktree(ctx.repo.primary, row.path);
    const now = new Date().toISOString();
    const released = await ctx.registry.write(async () => {
      const updated = await ctx.registry.worktrees.update(row.id, {
        lifecycle: "terminal",
        outcome,
        releasedAt: now,
        lastActivityAt: now,
        ...NO_LEASE,
        lastOwner: row.owner ?? row.lastOwner, // shown after the lease ended, never a holder
      });
      await ctx.registry.events.append({
        kind: "released",
        repo: row.repo,
        handle: row.handle,
        task: row.task,
        owner: row.owner,
        data: { outcome, by: owner, ...(options.force === true ? { forced: true } : {}) },
      });
      return updated;
    });
    syncIdentity(ctx, released); // a recovery without the registry restores it terminal, with its outcome and last owner
    return view(released, "released");
  });
}

/**
 * Idempotent release (SPEC §3.2): a terminal worktree holds no lease, so one left on it (a
 * heartbeat that raced its release under an older version, a crash) is cleared with Orchard's lock.
 */
async function clearLeftoverLease(ctx: Ctx, row: WorktreeRow, lockReason: string | null): Promise<LeaseResult> {
  const lock = lockReason === null ? null : parseLockOwner(lockReason);
  // only this handle's own lease lock: a recycle into a new handle locks before it records
  if (lock?.kind === "orchard" && lock.handle === row.handle) await unlockWorktree(ctx.repo.primary, row.path);
  if (row.owner === null && row.pid === null && row.heartbeatAt === null) return view(row, "already_released");
  const cleared = await ctx.registry.write(async () => await ctx.registry.worktrees.update(row.id, { ...NO_LEASE, lastOwner: row.owner ?? row.lastOwner }));
  syncIdentity(ctx, cleared);
  return view(cleared, "already_released");
}

export interface HeartbeatOptions {
  target: string;
  owner?: string;
  ttl?: string;
  pid?: number | string;
}

export async function heartbeat(ctx: Ctx, options: HeartbeatOptions): Promise<LeaseResult> {
  const owner = requireText(options.owner ?? process.env.ORCHARD_OWNER, "owner");
  const listed = takeLockedListing(ctx.repo); // read under the lock this call still holds (Orchard took it first)
  return withMutationLock(ctx.repo.commonDir, async () => {
    const row = await resolveManaged(ctx, options.target, "heartbeat", listed);
    const ttlMs = requireTtl(options.ttl, "ttl", row.ttlMs ?? 2 * 60 * 60 * 1000);
    const pid = options.pid === undefined ? row.pid : requirePid(options.pid);
    // a heartbeat timer racing its own release must not re-lease the worktree (SPEC §3.2)
    const refusals: Reason[] = row.lifecycle === "active" ? [] : [reason("not_active", { lifecycle: row.lifecycle })];
    // re-pointing a live lease at another process is taking it: only its holder may
    const blocked = (await otherOwnerLive(row, owner)) ?? (pid !== row.pid ? await notTheHolder(row) : null);
    if (blocked) refusals.push(blocked);
    if (refusals.length > 0) return view(row, "refused", refusals);
    const lease = await newLease({ owner: owner ?? row.owner, pid, ttlMs });
    if (lease.pid !== null && lease.pid === row.pid) lease.pidStart = row.pidStart;
    const admin = findAdminDir(ctx.repo.commonDir, row.path);
    if (admin) writeLock(admin, leaseLockText(row.handle, lease, ctx.workspace.id));
    const renewed = await ctx.registry.write(async () => await ctx.registry.worktrees.update(row.id, { ...lease, lastActivityAt: new Date().toISOString() }));
    if (admin) writeRowIdentity(admin, renewed, ctx.workspace.id); // its expiry on disk: a proof across registries
    return view(renewed, "renewed");
  });
}
