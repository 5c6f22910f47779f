// The registry's public surface: the only module core/ imports to reach a database.
export { Registry, type RegistryTarget } from "./registry.js";
export { RegistryError } from "./errors.js";
export type { MigrationHooks } from "./migrations.js";
export type { RepoRow } from "./repos.js";
export type { WorktreeRow, NewWorktreeRow, Lifecycle, Outcome } from "./worktrees.js";
export { branchRefOf } from "./worktrees.js";
export type { EventRow, EventKind, Scope } from "./events.js";
export type { HostSummary } from "./summaries.js";
export type { PlanRow, PlanItemRow, PlanStatus, ItemState, NewPlanItem } from "./plans.js";
export type { RegistryDump, TableCounts, RepoOutcome } from "./transfer.js";
export { countsOf, hostsOf } from "./transfer.js";
export type { Snapshot } from "./sqlite.js";
export { chooseSqliteDriver } from "./sqlite-driver.js";
