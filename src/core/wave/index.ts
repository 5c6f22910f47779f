// `orchard cleanup-wave`: merge a wave of worktrees back from a manifest and clean it.
export type { WaveBlock, WaveOutcome } from "./entry.js";
export type { InvalidEntry, InvalidReason, WaveEntry, WavePlan } from "./manifest.js";
export { cleanupWave } from "./wave.js";
export type { WaveFields, WaveItem, WaveOptions, WaveResult, WaveResultEntry, WaveRun } from "./wave.js";
