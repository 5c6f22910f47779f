// The bootstrap report of `add`/`recycle` output (SPEC §3.1).
export interface BootstrapStep {
  /** `copy`, `context`, `run: <command>` or `runtime`. */
  name: string;
  status: "ran" | "skipped" | "failed";
  ms: number;
  /** Why a step was skipped or failed (a reason code when there is one). */
  reason?: string;
  /** For a skip or failure with a reason code: the command that moves it on, or null (SPEC v4 §2). */
  next?: string | null;
  /** The last characters of a command's output (stdout, then stderr). */
  output?: string;
  exitCode?: number | null;
  /** Files copied or written. */
  files?: number;
  /** Matched paths that were not copied, each with why. */
  notCopied?: { path: string; why: string }[];
  /** `share`, `share: keep`: how the files were made (bootstrap.shareMethod as used). */
  method?: "clone" | "hardlink" | "copy";
}

/** What bootstrap.share did: materialised the directories from a kept copy, or kept a copy after the install. */
export interface ShareReport {
  action: "materialised" | "kept";
  method: "clone" | "hardlink" | "copy";
  /** The kept copy's key (its directory under `<home>/share/<repo>/`). */
  key: string;
  dirs: string[];
}

export interface BootstrapReport {
  /** `shared`: bootstrap.share materialised the directories from a kept copy instead of running the install. */
  status: "ran" | "skipped" | "failed" | "reused" | "shared";
  fingerprint: string | null;
  steps: BootstrapStep[];
  /** Present when bootstrap.share acted: `method` is how the directories were made. */
  share?: ShareReport;
}
