// The one result shape of every process run (after execa): success and failure alike.
import { msNow } from "./clock.js";
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
