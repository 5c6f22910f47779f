import type { Facts } from "../shared/types.js";

/**
 * The one OWNER label of every table and of the HTML report (hygiene, status, reap-orphans): the
 * lease's owner, else who the git lock names — `claude-code <pid>`, `pid <pid>`, an Orchard
 * lease's owner — else the owner whose lease a release ended (`<owner> (released)`), else `-`.
 */
export function ownerLabel(f: Pick<Facts, "owner" | "lock" | "lastOwner">): string {
  if (f.owner !== null) return f.owner;
  const lock = f.lock.owner;
  const released = f.lastOwner !== undefined ? `${f.lastOwner} (released)` : "-"; // the last owner, its lease ended
  if (!f.lock.locked || lock === null || lock.kind === "unknown") return released;
  if (lock.kind === "orchard") return lock.pid !== undefined ? `orchard ${lock.pid}` : released;
  return lock.pid !== undefined ? `${lock.kind} ${lock.pid}` : lock.kind;
}
