// Dependency sharing (bootstrap.share, SPEC v4 §6): the pristine copies Orchard keeps per
// fingerprint in `<home>/share/`, materialising them into new worktrees by a method, and
// reclaiming them.
export { keepCopy, materialise, presentDirs, relocationProblem } from "./keep.js";
export type { KeepResult, Materialised, ShareRequest } from "./keep.js";
export { findReady, listKept, removeKept, sharedDirsOf, shareKey, sweepStore } from "./store.js";
export type { KeptCopy, KeptMarker } from "./store.js";
export { CloneUnsupported, copyTree } from "./tree.js";
export type { ShareMethod, UsedMethod } from "./tree.js";
export { assessKept, usesCopy } from "./reclaim.js";
export { digestKept, readKeptChange, unprovable } from "./digest.js";
export type { KeptUse, KeptVerdict } from "./reclaim.js";
