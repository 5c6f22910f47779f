// Finding a worktree to work in: `orchard path` (and the shell's `orchard cd` on top of it).
export { resolveTargetOrTask, worktreePath } from "./path.js";
export type { PathOptions, PathResult } from "./path.js";
export { worktreeHandles, worktreeTargets } from "./handles.js";
export { quickHandles, quickPath, type QuickOptions } from "./quick.js";
