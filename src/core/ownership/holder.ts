// Who may end or re-point a live lease (SPEC v5: a caller that does not hold a live lease never
// releases it by naming its owner). The holder of a lease is its process: the lease's pid is this
// process or one of its ancestors (the agent, MCP client or Claude Code session that runs us).
// Anyone holds a lease whose pid is dead (or reused) or whose heartbeat has expired: there is
// nobody left to protect. A lease that names no pid was made by naming its owner alone, so the
// name is all the credential it has (`orchard add --owner` without `--pid`).
import { leaseExpiresAt } from "./liveness.js";
import { HOST, compareStartTime, readAncestors, readPidState, readStartTime } from "./process.js";

export interface LeaseOfRecord {
  pid: number | null;
  pidStart: string | null;
  host: string | null;
  heartbeatAt: string | null;
  ttlMs: number | null;
}

/** True when this process holds `lease` (see the header), false when another live process does or it cannot be told. */
export async function readCallerHolds(lease: LeaseOfRecord, now = Date.now()): Promise<boolean> {
  if (lease.pid === null) return true;
  const expires = leaseExpiresAt(lease);
  if (expires !== null && expires <= now) return true;
  if (lease.host !== null && lease.host !== HOST) return false; // another host's process: no ancestry to read
  if (lease.pid === process.pid || (await readAncestors()).includes(lease.pid)) return true;
  if ((await readPidState(lease.pid)) === "dead") return true;
  if (lease.pidStart === null) return false;
  const current = await readStartTime(lease.pid);
  return current !== null && compareStartTime(lease.pidStart, current) === "different"; // the pid now names a newer process
}
