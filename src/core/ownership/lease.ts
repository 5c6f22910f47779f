// Leases: who holds a managed worktree (owner, pid and its start time, host, heartbeat, TTL).
// A lease exists only when the request names an owner or a pid (SPEC §1).
import { writeFileAtomic } from "../shared/files.js";
import { join } from "node:path";
import { formatOrchardLock } from "./lock-owner.js";
import { HOST, isValidPid, readPidState, readStartTime } from "./process.js";
import { leaseExpiresAt } from "./liveness.js";
import { usageError } from "../shared/errors.js";
import type { WorktreeRow } from "../../registry/index.js";
import type { Lease } from "../shared/types.js";

export const DEFAULT_TTL_MS = 2 * 60 * 60 * 1000;

export interface Requester {
  owner: string | null;
  pid: number | null;
  /** The pid's start time read when the requester identified it: the lease names that process even if it died since. */
  pidStart?: string | null;
  ttlMs: number;
}

/** The lease columns of a worktree row (`lastOwner` is none: a release keeps it, a lease never reads it). */
export type LeaseFields = Pick<WorktreeRow, "owner" | "pid" | "pidStart" | "host" | "heartbeatAt" | "ttlMs">;

/** The lease fields of a worktree nobody holds. */
export const NO_LEASE: Readonly<LeaseFields> = { owner: null, pid: null, pidStart: null, host: null, heartbeatAt: null, ttlMs: null };

/** The row fields of a fresh lease for the requester (all null when it names nobody). */
export async function newLease(requester: Requester, now = new Date()): Promise<LeaseFields> {
  if (requester.owner === null && requester.pid === null) return { ...NO_LEASE };
  let pidStart: string | null = null;
  if (requester.pid !== null) {
    if (!isValidPid(requester.pid)) throw usageError("invalid_argument", `--pid ${requester.pid} is not a process id`);
    if (requester.pidStart)
      return { owner: requester.owner, pid: requester.pid, pidStart: requester.pidStart, host: HOST, heartbeatAt: now.toISOString(), ttlMs: requester.ttlMs };
    pidStart = await readStartTime(requester.pid);
    // a zombie has a start time but runs no more: a lease must start live
    if ((pidStart === null && process.platform === "linux") || (await readPidState(requester.pid)) === "dead")
      throw usageError("invalid_argument", `--pid ${requester.pid} is not a running process`);
  }
  return { owner: requester.owner, pid: requester.pid, pidStart, host: HOST, heartbeatAt: now.toISOString(), ttlMs: requester.ttlMs };
}

/** The git lock text of a lease: the holder, the workspace whose lease it is, and its expiry (SPEC v4 §4.11). */
export function leaseLockText(handle: string, lease: LeaseFields, workspace: string): string {
  const expires = leaseExpiresAt(lease);
  return formatOrchardLock({
    handle,
    owner: lease.owner,
    ...(lease.pid !== null ? { pid: lease.pid } : {}),
    ...(lease.pidStart !== null ? { startTime: lease.pidStart } : {}),
    ...(lease.host !== null ? { host: lease.host } : {}),
    workspace,
    ...(expires !== null ? { expires: new Date(expires).toISOString() } : {}),
  });
}

/** The lease as reported in output, or null when the worktree has none. */
export function leaseView(row: Pick<WorktreeRow, "owner" | "pid" | "host" | "heartbeatAt" | "ttlMs">): Lease | null {
  if (row.owner === null && row.pid === null) return null;
  const expires = leaseExpiresAt(row);
  // null: a lease without a heartbeat (e.g. adopted from a harness's lock) lives as long as its pid
  return { owner: row.owner, pid: row.pid, host: row.host ?? HOST, expiresAt: expires === null ? null : new Date(expires).toISOString() };
}

/**
 * Replaces a worktree's git lock text in one atomic rename of `<admin>/locked` (git's own lock
 * file), so there is no moment in which the worktree is unlocked.
 */
export function writeLock(admin: string, text: string): void {
  const path = join(admin, "locked");
  writeFileAtomic(path, text);
}
