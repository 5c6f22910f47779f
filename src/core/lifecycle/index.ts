// `orchard release` and `orchard heartbeat`: a lease's end and renewal.
export { heartbeat, release } from "./lifecycle.js";
export type { HeartbeatOptions, LeaseAction, LeaseResultFields, LeaseResult, LeaseResultOf, ReleaseOptions } from "./lifecycle.js";
export { LEASE_ACTIONS } from "./lifecycle.js";
