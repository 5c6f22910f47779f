// The facts of a worktree (SPEC §3.3): one snapshot of git and the registry, then per-worktree
// dirty state, liveness, merge and push proofs. Every capability decides from these.
export { MISSING_DIGEST, dirtyDigest, onlyDeletions, treeDigest } from "./dirty-digest.js";
export { factsOf, listFacts, readDirty, readLiveness, readSnapshot } from "./facts.js";
export type { Snapshot } from "./facts.js";
export { proveMerged } from "./merged.js";
export type { MergeTarget } from "./merged.js";
