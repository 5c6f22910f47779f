// The facts of a worktree (SPEC §3.3): one snapshot of git and the registry, then per-worktree
// dirty state, liveness, merge and push proofs. Every capability decides from these.
export { MISSING_DIGEST, dirtyDigest, onlyDeletions, treeDigest } from "./dirty-digest.js";
export { MISSING_DIRTY, addReflogFact, factsOf, factsTargets, listFacts, readLiveness, readOneFacts, startDirty, startStatuses } from "./facts.js";
export { readSnapshot } from "./snapshot.js";
export { changedCount, isClean, readDirty, readDirtyState, readDirtyStates } from "./dirty.js";
export type { DirtyFacts, DirtyState } from "./dirty.js";
export { disposableOf, scanIgnored, type IgnoredFile } from "./ignored.js";
export { disposableMatcher } from "./disposable.js";
export { HARNESS_BOOKKEEPING, onlyBookkeeping } from "./bookkeeping.js";
export type { Snapshot } from "./snapshot.js";
export { focusRefPatterns } from "./focus-refs.js";
export { proveMerged } from "./merged.js";
export { distinctTargets, mergedFrom, proveMergedMany, readMergedAll, readMergedByTarget, type MergedBatch, type MergedFact } from "./merged-batch.js";
export { baseBranchName, chooseMergeTargets, worktreeTargets, readMergeTargets, targetName, type TargetQuery } from "./merge-target.js";
export type { MergeTarget } from "./merged.js";
export { focusedEntry, registeredAdmin } from "./focused-entry.js";
export { blockReason, readBlock } from "./boundary.js";
export { nonMerge, reachable, type Graph } from "./graph.js";
