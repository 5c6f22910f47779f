// The one result shape of every process run (after execa): success and failure alike.
export interface ProcessResult {
  args: string[];
  cwd: string;
  exitCode: number | null;
  signal: string | null;
  stdout: string;
  stderr: string;
  durationMs: number;
  timedOut: boolean;
}

/** One query's result in a batch (run.ts, warm/batch-shell.ts): `code` null when it was killed before its shell said. */
export function batchResult(
  query: { args: readonly string[]; cwd: string },
  code: number | null,
  output: { stdout: string; stderr: string },
  started: number,
): ProcessResult {
  return {
    args: [...query.args],
    cwd: query.cwd,
    exitCode: code,
    signal: code === null ? "SIGKILL" : null,
    ...output,
    durationMs: Math.round(msNow() - started),
    timedOut: code === null,
  };
}

/** A monotonic clock in milliseconds, for the durations a result reports and a trace prints. Not
 * performance.now(): Node 20 loads and compiles perf_hooks (≈ 3 ms of CPU) at the first read of the
 * `performance` global, in every command that runs a git; process.hrtime is already loaded. */
export const msNow = (): number => Number(process.hrtime.bigint()) / 1e6;
