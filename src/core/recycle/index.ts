// `orchard recycle` and `orchard lineage`: reuse a terminal worktree for new work, with lineage.
export { lineage } from "./lineage.js";
export type { LineageEvent, LineageResult } from "./lineage.js";
export { proveRecyclable, recycle, recycleWith } from "./recycle.js";
export type { RecycleOptions } from "./recycle.js";
export type { RecycleProof } from "./verdict.js";
export { repairRecycles, settleRecycles } from "./journal.js";
