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
export type { RecycleOptions } from "./core/recycle.js";
export type { LineageResult, LineageEvent } from "./core/lineage.js";
export type { TrustResult } from "./core/trust.js";
export type { CandidateKind } from "./core/candidates.js";
export type { ReapOptions, ReapResult, ReapEntry, ReapOwner } from "./core/reap.js";
export type { ReapReason, ReapSkipReason } from "./core/reap-verdict.js";
export type { SalvageEntry, SalvageListResult, RestoreOptions, RestoreResult } from "./core/salvage-restore.js";
export type { SalvageInput, SalvageMetadata } from "./core/salvage.js";
export type { WaveOptions, WaveResult, WaveResultEntry, WaveItem } from "./core/wave.js";
export type { WaveEntry, WavePlan, InvalidEntry, InvalidReason } from "./core/wave-manifest.js";
export type { WaveOutcome, WaveBlock } from "./core/wave-entry.js";
export type { AdoptOptions, AdoptResult } from "./core/adopt.js";
export type {
  HygieneReport,
  HygieneWorktree,
  Disposition,
  HuskFacts,
  DuplicateTaskGroup,
  PatchEquivalentGroup,
  HygieneSummary,
  DiskSummary,
  Suggestion,
} from "./core/hygiene-types.js";
export type { HygieneOptions } from "./core/hygiene.js";
export type { CleanupPlanOptions, PlanResult, RunResult } from "./core/cleanup.js";
export type { CleanupAction, PlannedItem, Preconditions, SkippedWorktree, Includable } from "./core/cleanup-plan.js";
export type { ApplyResult, ItemView, Progress } from "./core/cleanup-apply.js";
export type { CleanupApplyOptions } from "./core/hygiene-entry.js";
