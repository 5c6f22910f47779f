// What one wave entry comes to (SPEC §3.9): merged and removed, a warning, blocked with its
// reason, or (--dry-run) planned; and the small helpers that word a block.
import { GitError } from "../../git/errors.js";

export type WaveBlock =
  | "not_a_worktree"
  | "branch_checked_out"
  | "entry_not_found"
  | "branch_mismatch"
  | "base_mismatch"
  | "branch_contains_deletions"
  | "deletion_check_failed"
  | "worktree_dirty"
  | "live_process"
  | "live_owner"
  | "liveness_unknown"
  | "ignored_files"
  | "nested_worktree"
  | "merge_conflict"
  | "merge_failed"
  | "worktree_remove_failed"
  | "worktree_remove_incomplete"
  | "target_detached"
  | "target_dirty"
  | "rebase_needs_worktree"
  | "harness_tracked"
  | "harness_unverified";

export type Done = "ok" | "already_merged" | "already_done";

export type WaveOutcome =
  | { status: "merged_removed"; reason: Done }
  | { status: "warning"; reason: "branch_delete_failed"; stderr: string }
  | { status: "blocked"; reason: WaveBlock; stderr?: string; conflicts?: string[]; files?: string[]; harness?: HarnessEvidence }
  /** --dry-run: the entry would go on; `steps` are what it would do. */
  | { status: "planned"; reason: Done; steps: ("merge" | "remove" | "finish_leftover" | "delete_branch")[] };

/** Which harness keeps the entry's worktree (harness_tracked, harness_unverified): its name, session and own way to drop it. */
export interface HarnessEvidence {
  name: string;
  session: string | null;
  drop: string;
}

export const blocked = (
  reason: WaveBlock,
  stderr?: string,
  extra: { conflicts?: string[]; files?: string[]; harness?: HarnessEvidence } = {},
): WaveOutcome => ({
  status: "blocked",
  reason,
  ...(stderr ? { stderr } : {}),
  ...extra,
});

const FILES_SHOWN = 20;
export const someFiles = (files: string[]): string =>
  `${files.slice(0, FILES_SHOWN).join(", ")}${files.length > FILES_SHOWN ? ` and ${files.length - FILES_SHOWN} more` : ""}`;

export function stderrOf(error: unknown): string {
  if (error instanceof GitError) return (error.result.stderr || error.result.stdout).trim() || error.message;
  return error instanceof Error ? error.message : String(error);
}
