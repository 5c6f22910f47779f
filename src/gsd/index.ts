// `orchard-worktrees/gsd`: GSD's worktree-safety API — everything get-shit-done-cc 1.42.3's
// bin/lib/worktree-safety.cjs exports, the reaper of its PR 3707 (reapOrphanWorktrees,
// cmdWorktreeReapOrphans) and core's pruneOrphanedWorktrees — served by Orchard's library in this
// process, with GSD's names, arguments and result shapes (docs/gsd.md). `configure` chooses the
// workspace (default: ORCHARD_HOME / ORCHARD_REGISTRY, else ~/.orchard, as Orchard's commands).
export { configure, type WorkspaceChoice } from "./bridge.js";
export { normalizeCleanupManifest, planWorktreeWaveCleanup } from "./manifest.js";
export { parseWorktreePorcelain } from "./porcelain.js";
export {
  resolveWorktreeContext,
  listLinkedWorktreePaths,
  snapshotWorktreeInventory,
  inspectWorktreeHealth,
  planWorktreePrune,
  executeWorktreePrunePlan,
  executeWorktreeWaveCleanupPlan,
  reapOrphanWorktrees,
  pruneOrphanedWorktrees,
  OrchardUnavailable,
  type ReapDeps,
} from "./api.js";
export { cmdWorktreeCleanupWave, cmdWorktreeReapOrphans } from "./commands.js";
export type * from "./types.js";
