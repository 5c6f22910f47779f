// `orchard cleanup-wave`: merge a wave of worktrees back from a manifest and clean it; `orchard merge`, its one-entry form.
export type { WaveBlock, WaveOutcome } from "./entry.js";
export type { InvalidEntry, InvalidReason, WaveEntry, WavePlan } from "./manifest.js";
export { cleanupWave } from "./wave.js";
export type { WaveFields, WaveItem, WaveOptions, WaveResult, WaveResultEntry, WaveRun } from "./wave.js";
export { mergeOne } from "./merge-one.js";
export type { MergeOptions, MergeResult } from "./merge-one.js";
