// The bootstrap report of `add`/`recycle` output (SPEC §3.1).
export interface BootstrapStep {
  /** `copy`, `context`, `run: <command>` or `runtime`. */
  name: string;
  status: "ran" | "skipped" | "failed";
  ms: number;
  /** Why a step was skipped or failed (a reason code when there is one). */
  reason?: string;
  /** The last characters of a command's output (stdout, then stderr). */
  output?: string;
  exitCode?: number | null;
  /** Files copied or written. */
  files?: number;
  /** Matched paths that were not copied, each with why. */
  notCopied?: { path: string; why: string }[];
}

export interface BootstrapReport {
  status: "ran" | "skipped" | "failed" | "reused";
  fingerprint: string | null;
  steps: BootstrapStep[];
}
