// `orchard release` and `orchard heartbeat`: a lease's end and renewal.
export { heartbeat, release } from "./lifecycle.js";
export type { HeartbeatOptions, LeaseResult, ReleaseOptions } from "./lifecycle.js";
