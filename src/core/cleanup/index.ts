// Converging cleanup (`orchard cleanup plan|apply|resume|run`): a stored plan of removals that
// re-checks every precondition at the moment of use, and the library's hygiene/cleanup entry.
export type { ApplyFields, ApplyResult, ItemView, Progress } from "./apply.js";
export { cleanupRun } from "./cleanup.js";
export type { DryRunFields, DryRunRefusal, DryRunResult } from "./dry-run.js";
export type { CleanupPlanOptions, PlanResult, RunFields, RunResult } from "./cleanup.js";
export { runCleanupApply, runCleanupDryRun, runCleanupPlan, runCleanupRun, runHygiene, runHygieneFleet } from "./entry.js";
export type { CleanupApplyOptions, ProgressListener } from "./entry.js";
export type { CleanupAction, Includable, PlannedItem, Preconditions, SkippedWorktree } from "./plan.js";
export { removeWorktree } from "./remove.js";
export { removeSwept, type SweptRemoval } from "./remove-swept.js";
export type { RemoveOptions, RemoveResult } from "./remove.js";
export type { KeptReclaim } from "./kept.js";
