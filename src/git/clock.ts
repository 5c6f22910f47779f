// A monotonic clock in milliseconds, for the durations a result reports and a trace prints. Not
// performance.now(): Node 20 loads and compiles perf_hooks (≈ 3 ms of CPU) at the first read of the
// `performance` global, in every command that runs a git; process.hrtime is already loaded.
export const msNow = (): number => Number(process.hrtime.bigint()) / 1e6;
