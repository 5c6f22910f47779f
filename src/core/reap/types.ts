// What the startup sweep (`orchard reap-orphans`) is asked and answers: its options, each entry's
// verdict with its evidence, and the counts.
import type { MergeMode, ReapReason, ReapSkipReason } from "./verdict.js";
import type { MergedHow } from "../shared/types.js";
import type { Reason } from "../shared/reasons/reasons.js";

export interface ReapOptions {
  guard?: string;
  salvage?: boolean;
  merged?: MergeMode;
  dryRun?: boolean;
  /** Reap also worktrees whose Claude Code session can still be resumed (kept by default: `session_resumable`). */
  includeResumable?: boolean;
}

export interface ReapOwner {
  kind: "orchard" | "claude-code" | "pid";
  pid?: number;
  startTime?: string;
  host?: string;
  /** Claude Code's agent/session id, or the Orchard lease's owner. */
  name?: string | null;
}

export interface ReapEntry {
  path: string;
  branch: string | null;
  /** `planned` only with --dry-run: the entry would be reaped. */
  status: "reaped" | "skipped" | "planned";
  reason: ReapReason | ReapSkipReason | "remove_failed" | "salvage_failed" | "salvage_too_large" | "precondition_changed" | "repo_busy";
  owner?: ReapOwner;
  salvageRef?: string;
  /** The merge proof and its target (SPEC v4 §3.8: the recorded base branch while it exists, else the default branch), once the branch tip was read. */
  merged?: { target: string | null; how: MergedHow | null };
  /** Evidence for the reason (age, pids, git's message). */
  detail?: string;
  /** The command (or MCP tool call) that moves a skipped entry on, or null (SPEC v4 §2). */
  next?: string | null;
}

/** The sweep ran (`ok: true`), or could not judge merges: the default branch is unknown (nothing was touched). */
export type ReapResult = (ReapFields & { ok: true }) | (ReapFields & { ok: false; reason: "default_branch_unknown" });

export interface ReapFields {
  reaped: number;
  /** Orphans skipped: entries skipped for any reason but a live holder. */
  skipped: number;
  /** Entries held by a live holder (pid_alive, lease_live, process_in_worktree): no orphans. */
  live: number;
  entries: ReapEntry[];
  dryRun?: true;
  planned?: number;
  /** Observations beside the sweep: `disk_low` when the workspace's filesystem is below `disk.minFree` (reap/floor.ts). */
  notes?: Reason[];
}
