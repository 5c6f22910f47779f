// The registry's public surface: the only module core/ imports to reach SQLite.
export { Registry } from "./registry.js";
export { RegistryError } from "./db.js";
export type { MigrationHooks } from "./migrations.js";
export type { RepoRow } from "./repos.js";
export type { WorktreeRow, NewWorktreeRow, Lifecycle, Outcome } from "./worktrees.js";
export type { EventRow, EventKind } from "./events.js";
export type { PlanRow, PlanItemRow, PlanStatus, ItemState, NewPlanItem } from "./plans.js";
