// Liveness verdict (pure): is anyone still working in a worktree? Any live signal makes it live
// (lease heartbeat within TTL, the lease's or lock's pid alive with a matching start time, a
// process whose cwd is inside). The pid beats the heartbeat (SPEC §4.11): a lease that names a pid
// on this host is judged by that pid alone, so a crashed agent is dead at once whatever its TTL;
// the TTL decides only for leases without a pid or with a pid on another host. No owner and no
// process → "none". Anything that could not be established and might have been live → "unknown",
// which is never safe.
import type { LivenessState, LivenessSignal } from "../shared/types.js";

export interface PidProbe {
  pid: number;
  host: string | null;
  /** "alive" with a matching start time, "reused" when the start time differs. */
  state: "alive" | "dead" | "reused" | "unknown" | "other_host";
}

export interface LivenessInput {
  /** The registry lease, when the worktree has one (an owner or a pid was named); `pid` is the lease's own pid. */
  lease: { heartbeatAt: string | null; ttlMs: number | null; pid?: number | null } | null;
  pids: PidProbe[];
  /** The lock names an owner we cannot parse. */
  lockOwnerUnknown: boolean;
  /** An Orchard lease in the lock text whose registry row is gone and that names no pid: its heartbeat cannot be read. */
  orphanLease?: { owner: string | null; handle: string; expires?: string } | null;
  /** Pids working inside, or null when the process table could not be read. */
  inside: number[] | null;
  /** Processes the scan could not inspect (another user's, SPEC §4.14): "none inside" is then unknown. */
  unseen?: number;
  /** The unseen processes named ("pid command"), for the signal's detail. */
  unseenNames?: string;
  now: number;
}

export interface Liveness {
  state: LivenessState;
  signals: LivenessSignal[];
}

export function leaseExpiresAt(lease: { heartbeatAt: string | null; ttlMs: number | null }): number | null {
  if (!lease.heartbeatAt || lease.ttlMs === null) return null;
  return Date.parse(lease.heartbeatAt) + lease.ttlMs;
}

export function assessLiveness(input: LivenessInput): Liveness {
  const signals: Liveness["signals"] = [];
  let live = false;
  let unknown = false;
  const leasePid = input.lease?.pid ?? null;
  const pidDecides = leasePid !== null && input.pids.some((p) => p.pid === leasePid && p.state !== "other_host");
  if (input.lease && !pidDecides) {
    const expires = leaseExpiresAt(input.lease);
    if (expires !== null && expires > input.now) {
      live = true;
      signals.push({ code: "lease_live", detail: `heartbeat valid until ${new Date(expires).toISOString()}` });
    } else signals.push({ code: "lease_expired", detail: expires === null ? "no heartbeat" : `expired ${new Date(expires).toISOString()}` });
  }
  for (const probe of input.pids) {
    const detail = `pid ${probe.pid}${probe.host ? ` on ${probe.host}` : ""}${pidDecides && probe.pid === leasePid ? " (the lease's pid; it decides over the heartbeat)" : ""}`;
    switch (probe.state) {
      case "alive":
        live = true;
        signals.push({ code: "pid_alive", detail });
        break;
      case "dead":
        signals.push({ code: "pid_dead", detail });
        break;
      case "reused":
        signals.push({ code: "pid_reused", detail: `${detail} belongs to a newer process` });
        break;
      case "other_host":
        unknown = true;
        signals.push({ code: "pid_other_host", detail });
        break;
      case "unknown":
        unknown = true;
        signals.push({ code: "pid_unknown", detail });
        break;
      default: {
        const never: never = probe.state;
        throw new Error(`unhandled pid state ${String(never)}`);
      }
    }
  }
  if (input.lockOwnerUnknown) {
    unknown = true;
    signals.push({ code: "lock_owner_unknown", detail: "the lock text names no owner orchard understands" });
  }
  if (input.orphanLease) {
    const who = input.orphanLease.owner === null ? "no owner" : `owner ${input.orphanLease.owner}`;
    // the expiry the lock text carries holds across registries (SPEC v4 §4.11): once passed, the lease is over
    const expires = input.orphanLease.expires === undefined ? NaN : Date.parse(input.orphanLease.expires);
    if (Number.isFinite(expires) && expires <= input.now)
      signals.push({
        code: "lease_expired",
        detail: `an orchard lock (handle ${input.orphanLease.handle}, ${who}) whose lease expired at ${input.orphanLease.expires}`,
      });
    else {
      unknown = true;
      signals.push({ code: "lease_unknown", detail: `an orchard lock (handle ${input.orphanLease.handle}, ${who}) without a registry row` });
    }
  }
  if (input.inside === null) {
    unknown = true;
    signals.push({ code: "processes_unknown", detail: "the process table could not be read" });
  } else if (input.inside.length > 0) {
    live = true;
    signals.push({ code: "process_in_worktree", detail: `pid ${input.inside.join(", ")}`, pids: [...input.inside] });
  } else if ((input.unseen ?? 0) > 0) {
    unknown = true;
    signals.push({
      code: "processes_unknown",
      detail: `${input.unseen} process(es) of other users could not be inspected${input.unseenNames ? ` (${input.unseenNames})` : ""}`,
    });
  }
  if (live) return { state: "live", signals };
  if (unknown) return { state: "unknown", signals };
  if (!input.lease && input.pids.length === 0 && !input.orphanLease) return { state: "none", signals };
  return { state: "dead", signals };
}

/**
 * Liveness of another host's row (SPEC §5): its lease's heartbeat TTL alone, since its processes
 * cannot be seen from here. A lease without a heartbeat lives as long as a pid nobody here can
 * check: unknown.
 */
export function assessRemoteLease(row: { owner: string | null; pid: number | null; heartbeatAt: string | null; ttlMs: number | null }, now: number): Liveness {
  if (row.owner === null && row.pid === null) return { state: "none", signals: [] };
  const expires = leaseExpiresAt(row);
  if (expires === null) return { state: "unknown", signals: [{ code: "lease_unknown", detail: "a lease without a heartbeat, on another host" }] };
  const at = new Date(expires).toISOString();
  return expires > now
    ? { state: "live", signals: [{ code: "lease_live", detail: `heartbeat valid until ${at}` }] }
    : { state: "dead", signals: [{ code: "lease_expired", detail: `expired ${at}` }] };
}
