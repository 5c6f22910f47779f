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
