// The public library API (SPEC §7).
export { Orchard, type OpenOptions, type RepoOption } from "./core/orchard.js";
export { OrchardError, type OrchardErrorCode, type ErrorKind } from "./core/shared/errors.js";
export type { Policy, Outcome, MergeMode } from "./core/shared/input/inputs.js";
export type {
  AddOptions,
  AddResult,
  AddResultOf,
  AddFields,
  AddBootstrapFailed,
  AddAction,
  BootstrappedAction,
  Candidate,
  CandidateKind,
  AdoptOptions,
  AdoptResult,
  AdoptFields,
  AdoptAction,
  BootstrapOptions,
  BootstrapResult,
} from "./core/admission/index.js";
export { ADD_ACTIONS, LEASE_ACTIONS, ADOPT_ACTIONS } from "./core/shared/actions.js";
export type { LeaseResult, LeaseResultOf, LeaseResultFields, LeaseAction, ReleaseOptions, HeartbeatOptions } from "./core/lifecycle/index.js";
export type { StatusResult, ListResult, RepoSummary } from "./core/inspect/index.js";
export type {
  DiskFacts,
  Facts,
  HarnessFact,
  HarnessName,
  Lease,
  LivenessState,
  LivenessSignal,
  MergedHow,
  Operation,
  FingerprintDrift,
  Tracked,
} from "./core/shared/types.js";
export type { Reason, ReasonCode, ReasonOf } from "./core/shared/reasons/reasons.js";
export type {
  ReasonDetails,
  NoDetail,
  ReapProofFailed,
  DirtyCounts,
  Unknown,
  PreconditionValue,
  TrashLeftoverDetail,
} from "./core/shared/reasons/reason-details.js";
export type { BootstrapReport, BootstrapStep, ShareReport } from "./core/shared/bootstrap-report.js";
export type { RecycleOptions, LineageResult, LineageEvent } from "./core/recycle/index.js";
export type { TrustResult } from "./core/bootstrap/index.js";
export type { ReapOptions, ReapResult, ReapFields, ReapEntry, ReapOwner, ReapReason, ReapSkipReason } from "./core/reap/index.js";
export type { SalvageEntry, SalvageListResult, RestoreOptions, RestoreResult, RestoreNotCreated, SalvageInput, SalvageMetadata } from "./core/salvage/index.js";
export type { SalvagePruneOptions, SalvagePruneResult, PrunedSalvage, KeptSalvage } from "./core/salvage/index.js";
export type { RemoveOptions, RemoveResult } from "./core/cleanup/index.js";
export type { PathOptions, PathResult } from "./core/navigate/index.js";
export type { MergeOptions, MergeResult } from "./core/wave/index.js";
export type { Strategy } from "./core/shared/input/inputs.js";
export type {
  WaveOptions,
  WaveResult,
  WaveFields,
  WaveRun,
  WaveResultEntry,
  WaveItem,
  WaveEntry,
  WavePlan,
  InvalidEntry,
  InvalidReason,
  WaveOutcome,
  WaveBlock,
} from "./core/wave/index.js";
export type {
  HygieneReport,
  HygieneWorktree,
  Disposition,
  HuskFacts,
  DuplicateTaskGroup,
  PatchEquivalentGroup,
  HygieneSummary,
  DiskSummary,
  KeptCopyView,
  Suggestion,
  HygieneOptions,
  FleetHygieneReport,
  CrossHostGroup,
  CrossHostMember,
  HostBacklog,
  PublishedSummary,
} from "./core/hygiene/index.js";
export { migrateRegistry } from "./core/migrate/index.js";
export type { MigrateOptions, MigrateResult, MigrateDone, MigrateRefused } from "./core/migrate/index.js";
export type {
  CleanupPlanOptions,
  PlanResult,
  DryRunResult,
  DryRunFields,
  DryRunRefusal,
  RunResult,
  RunFields,
  CleanupAction,
  PlannedItem,
  Preconditions,
  SkippedWorktree,
  Includable,
  ApplyResult,
  ApplyFields,
  ItemView,
  Progress,
  CleanupApplyOptions,
} from "./core/cleanup/index.js";
