// Salvage refs: a worktree's full state kept under refs/orchard/salvage/, listed and restored.
export { salvageList, salvageRestore } from "./restore.js";
export type { RestoreNotCreated, RestoreOptions, RestoreResult, SalvageEntry, SalvageListResult } from "./restore.js";
export { SALVAGE_PREFIX, checkSalvageable, requireSalvageable, salvageMessage, salvageStamp, salvageWorktree } from "./salvage.js";
export type { SalvageInput, SalvageMetadata } from "./salvage.js";
export { salvagePrune } from "./prune.js";
export type { KeptSalvage, PrunedSalvage, SalvagePruneOptions, SalvagePruneResult } from "./prune.js";
