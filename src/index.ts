// The public library API (SPEC §7).
export { Orchard, type OpenOptions, type RepoOption } from "./core/orchard.js";
export { OrchardError } from "./core/errors.js";
export type { AddOptions, AddResult, AddAction } from "./core/admission.js";
export type { LeaseResult, ReleaseOptions, HeartbeatOptions } from "./core/lifecycle.js";
export type { StatusResult, ListResult, RepoSummary } from "./core/inspect.js";
export type { Facts, Lease, LivenessState, MergedHow, Operation } from "./core/types.js";
export type { Reason, ReasonCode } from "./core/reasons.js";
export type { Candidate } from "./core/candidates.js";
export type { BootstrapReport, BootstrapStep } from "./core/bootstrap-types.js";
