// The bootstrap report of `add`/`recycle` output (SPEC §3.1).
export interface BootstrapStep {
  name: string;
  status: "ran" | "skipped" | "failed";
  ms: number;
  reason?: string;
  output?: string;
}

export interface BootstrapReport {
  status: "ran" | "skipped" | "failed" | "reused";
  fingerprint: string | null;
  steps: BootstrapStep[];
}
