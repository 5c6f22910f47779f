// exclusive-task across the fleet (SPEC §3.1, §5): a live lease anywhere holding the same
// canonical task refuses the request. The check and the insert of the new row are one registry
// transaction under a lock keyed by the task (a transaction-scoped advisory lock on PostgreSQL;
// SQLite's single writer on one host), so racing processes on any hosts admit exactly one.
import type { WorktreeRow } from "../../registry/index.js";
import type { Ctx } from "../shared/context.js";
import { heldMutationLock, leaseExpiresAt, pidState } from "../ownership/index.js";
import { reason, type Reason } from "../shared/reasons/reasons.js";
import type { AddRequest } from "../shared/request.js";

/** The lock every admission of one task takes before it checks and inserts. */
export const taskLockKey = (repo: string, task: string): string => `orchard:task:${repo}:${task}`;

/**
 * Whether a row's lease is live now. Another host's lease is judged by its heartbeat alone (its
 * processes cannot be seen from here); on this host the lease's pid decides (§4.11), else the TTL.
 */
export function leaseLive(row: WorktreeRow, host: string, now: number): boolean {
  if (row.owner === null && row.pid === null) return false;
  if (row.host === host && row.pid !== null) return pidState(row.pid) !== "dead";
  const expires = leaseExpiresAt(row);
  return expires === null || expires > now;
}

/** Rows of another owner whose live lease holds the request's task, on any host. */
export async function taskHolders(ctx: Ctx, request: Pick<AddRequest, "task" | "owner" | "handle">): Promise<WorktreeRow[]> {
  if (request.task === null) return [];
  const read = await ctx.registry.worktrees.fleet(ctx.repo.identity, request.task);
  const now = Date.now();
  const creating = await creatorsAlive(ctx, read);
  // a creator that finished between the two reads let go of its lock after marking its row active: read those rows again
  const again = await Promise.all(read.map(async (r) => (r.lifecycle === "creating" && !creating(r) ? await ctx.registry.worktrees.byId(r.id) : r)));
  const rows = again.filter((r): r is WorktreeRow => r !== undefined);
  return rows.filter(
    (r) =>
      (r.lifecycle === "active" || (r.lifecycle === "creating" && creating(r))) &&
      !(r.host === ctx.registry.host && r.handle === request.handle) &&
      (request.owner === null || r.owner !== request.owner) &&
      leaseLive(r, ctx.registry.host, now),
  );
}

/**
 * Whether a `creating` row's creator may still be creating it (SPEC v3 §5: a phantom a lost
 * connection or a kill left is never a holder). Every creator on this host holds the repo's
 * mutation lock from the row's insert to its end, so under that lock this host's are phantoms;
 * on PostgreSQL the creator's session holds the row's creation lock, which dies with it. What
 * cannot be told (SQLite, another host's row) stays a holder: unknown is not safe.
 */
async function creatorsAlive(ctx: Ctx, rows: readonly WorktreeRow[]): Promise<(row: WorktreeRow) => boolean> {
  const ids = rows.filter((r) => r.lifecycle === "creating").map((r) => r.id);
  if (ids.length === 0) return () => false;
  const locked = heldMutationLock(ctx.repo.commonDir) !== undefined;
  const held = await ctx.registry.worktrees.creationsHeld(ids);
  return (r) => !(locked && r.host === ctx.registry.host) && (held === null || held.has(r.id));
}

export function heldReasons(holders: readonly WorktreeRow[], host: string): Reason[] {
  return holders.map((r) =>
    reason("task_held_elsewhere", { handle: r.handle, path: r.path, owner: r.owner, ...(r.host !== host && r.host !== null ? { host: r.host } : {}) }),
  );
}

/** Thrown inside the admission transaction when the task turned out to be held; nothing was written. */
export class TaskHeld extends Error {
  constructor(readonly reasons: Reason[]) {
    super("task_held_elsewhere");
    this.name = "TaskHeld";
  }
}
