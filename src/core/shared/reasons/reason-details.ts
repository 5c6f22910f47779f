// The evidence each reason code carries beside its `code` and `message` (the `...evidence` of
// `{code, message, ...evidence}` in the JSON): one entry per code of REASON_TEXT (reasons.ts),
// checked there both ways, so a code added without its detail type does not compile. `reason()`
// takes exactly this type for its code, so what is produced is what is declared. A union is a code
// that more than one place reports, each with its own evidence.
import type { Lifecycle } from "../../../registry/index.js";
import type { Facts, IgnoredFacts, LivenessSignal, LockOwnerFacts, MergedHow, Operation } from "../types.js";

/** A code that carries no evidence: its reason is `{code, message}`. */
export type NoDetail = Record<never, never>;

/** cleanup apply re-ran the orphan sweep's proof on a foreign worktree, and this step of it failed. */
export interface ReapProofFailed {
  reapProof: false;
}

export interface DirtyCounts {
  tracked: number;
  untracked: number;
  conflicted: number;
  /** `orchard remove`: the changed paths as `git status --short` names them (`?? "new file.txt"`), at most 20. */
  files?: string[];
}

/** The worktree's status could not be read. */
export interface Unknown {
  unknown: true;
}

export interface TrashLeftoverDetail {
  /** The entries' paths in the workspace's trash. */
  entries: string[];
  /** Their size in all, null when not measured. */
  bytes: number | null;
  why: string[];
}

/** A precondition's value in a plan, and now. */
export type PreconditionValue = string | boolean | null;

export interface ReasonDetails {
  // validation
  invalid_branch: NoDetail;
  invalid_argument: NoDetail;
  // admission: exact handle and candidates
  branch_mismatch: { expected: string | null; actual: string | null };
  task_mismatch: { expected: string | null; actual: string | null };
  base_mismatch: { expected: string | null; actual: string };
  bootstrap_drift: NoDetail;
  context_drift: NoDetail;
  runtime_drift: NoDetail;
  /** `owner` and `signals` when the facts were read here; `owner` alone for a lease of another host. */
  /** `holderPid`: the lease's process, when the caller named its owner but is not that process nor its descendant. */
  live_owner: { owner?: string | null; signals?: LivenessSignal[]; holderPid?: number | null };
  liveness_unknown: { signals: LivenessSignal[] } | ReapProofFailed;
  operation_in_progress: { operation: Operation };
  dirty: DirtyCounts | Unknown;
  ignored_files: IgnoredFacts | ReapProofFailed;
  harness_bookkeeping: { files: string[] };
  branch_from_task: { task: string; branch: string };
  unpushed_commits: { count: number } | Unknown;
  base_drift: { recorded: string; current: string | null };
  base_diverged: { local: string; remote: string; ref: string };
  /** `host`: the holder's host, when it is another of the fleet. */
  task_held_elsewhere: { handle: string; path: string; owner: string | null; host?: string };
  other_host: { host: string | null };
  recreated_missing: NoDetail;
  path_occupied: { path: string };
  /** `path`: the worktree that has the branch checked out (add); `branch`: the branch cleanup did not delete. */
  branch_checked_out: { path: string } | { branch: string };
  creating_repaired: NoDetail;
  bootstrap_failed: NoDetail;
  config_untrusted: NoDetail;
  fingerprint_failed: NoDetail;
  fingerprint_unknown: { bootstrap: string | null; context: string | null; runtime: string | null };
  // recycle
  not_managed: { path?: string };
  not_terminal: { lifecycle: Lifecycle | null };
  not_active: { lifecycle: Lifecycle };
  /** hygiene: `unpushed`; recycle: also the head, what merged shows, and the worktree's path and branch. */
  work_not_preserved: { unpushed: number | null; head?: string | null; merged?: Facts["merged"]; path?: string; branch?: string | null };
  /** recycle: git's lock reason and its owner; cleanup plan: the lock reason of a missing worktree. */
  foreign_lock: { reason: string | null; owner: LockOwnerFacts | null } | { lockReason: string | null };
  not_a_linked_worktree: { path: string };
  path_escapes_workspace: NoDetail;
  default_branch_unknown: NoDetail | ReapProofFailed;
  // task-backed admission, bootstrap, recycle
  bootstrap_reused: NoDetail;
  reuse_planned: { handle: string; requested: string };
  recycle_planned: { from: string; path: string };
  recycled_terminal: NoDetail;
  bootstrap_interrupted: NoDetail;
  bootstrap_owed: NoDetail;
  bootstrap_running: NoDetail;
  salvage_unique_work: { count: number; refs: string[] };
  recycle_undone: { from: string; to: string; path: string };
  // dependency sharing and disk
  bootstrap_shared: NoDetail;
  share_not_relocatable: NoDetail;
  share_dir_missing: NoDetail;
  share_clone_unsupported: NoDetail;
  share_target_present: NoDetail;
  share_unused: NoDetail;
  share_over_budget: { budget: number };
  share_incomplete: NoDetail;
  /** What showed the change (the copy's path and what differs). */
  share_modified: { why: string };
  /** Free and floor in bytes; what `cleanup run` would free now (worktrees, bytes when measured). */
  disk_low: {
    free: number;
    floor: number;
    minFree: string;
    wouldFree?: { worktrees: number; keptCopies: number; bytes: number | null };
    alsoFree?: { needsSalvage: { worktrees: number; bytes: number | null }; keptCopies: { copies: number; bytes: number | null } };
  };
  until_free_unmet: { free: number; floor: number };
  // reap
  /** The Claude Code session, its transcript, and until when Claude Code keeps it. */
  session_resumable: { sessionId: string; until: string; transcript: string } | ReapProofFailed;
  lock_too_fresh: { reapableAt: string; guardMs: number } | ReapProofFailed;
  lock_age_unknown: ReapProofFailed;
  lock_owner_unknown: ReapProofFailed;
  no_owner: ReapProofFailed;
  pid_alive: ReapProofFailed;
  lease_live: ReapProofFailed;
  process_in_worktree: ReapProofFailed;
  cannot_resolve_branch_tip: ReapProofFailed;
  branch_not_merged: ReapProofFailed;
  worktree_dirty: ReapProofFailed;
  pid_dead_and_missing: NoDetail;
  pid_dead_and_merged: NoDetail;
  lease_dead_and_merged: NoDetail;
  /** git's (or the file system's) message. */
  remove_failed: { error: string };
  repo_busy: NoDetail;
  // wave
  already_done: NoDetail;
  branch_contains_deletions: NoDetail;
  deletion_check_failed: NoDetail;
  /** `into`: the target's branch (`orchard merge`: the step merges it into the worktree's branch). */
  merge_conflict: { conflicts?: string[]; into?: string | null };
  merge_failed: NoDetail;
  worktree_remove_failed: NoDetail;
  worktree_remove_incomplete: NoDetail;
  live_process: NoDetail;
  rebase_needs_worktree: NoDetail;
  not_a_worktree: NoDetail;
  entry_not_found: NoDetail;
  unfinished_merge_aborted: { branch: string; mergeHead: string };
  branch_delete_failed: { error: string };
  /** `path`: the target checkout. */
  target_detached: { path: string };
  target_dirty: { path: string };
  already_merged: NoDetail;
  invalid_manifest: NoDetail;
  empty_manifest: NoDetail;
  // adopt
  not_adoptable: { path: string };
  detached: { path: string };
  /** `handle` when adopt finds it taken; `path` the worktree that has it. */
  handle_taken: { handle?: string; path: string };
  // hygiene and cleanup
  /**
   * `field` changed from `planned` to `now`; `head`: the branch's tip now (`merged`), `signals`: the
   * liveness read now, `pids`: the processes inside (null: the process table could not be read).
   */
  precondition_changed: {
    field: string;
    planned: PreconditionValue;
    now: PreconditionValue;
    head?: string;
    signals?: LivenessSignal[];
    pids?: number[] | null;
  };
  not_live: { liveness: Facts["liveness"]["state"] };
  clean: NoDetail;
  /** `via` merged (with how and into what) or pushed (`unpushed` 0). */
  work_preserved: { via: "merged"; how: MergedHow | null; target: string | null } | { via: "pushed"; unpushed: 0 };
  dead_owner: { signals: LivenessSignal[] };
  merged: { how?: MergedHow | null | undefined; target?: string | null | undefined };
  active_unowned: { managed: boolean };
  /** `idleAfterMs` is left out when the repository sets no idle window. */
  recently_active: { lastActivity: string | null; idleAfterMs?: number | undefined };
  missing_directory: { registeredWithGit: boolean } | { path: string };
  not_listed_by_git: NoDetail | { outsideManagedRoot: boolean };
  /** Which fact, and where it came from: a host's summary, a repo that could not be opened, git's error. */
  fact_unknown:
    | (
        | { fact: string; error?: string; signals?: LivenessSignal[] }
        | { fact: "summary"; host: string; repo: string }
        | { fact: "repo"; repo: string; primary: string; error: string }
      )
    | ReapProofFailed;
  terminal: NoDetail;
  /** hygiene's verdict: the other primary; a workspace with several repos: every primary. */
  duplicate_primary: { primary: string } | { primaries: string[] };
  creating_interrupted: NoDetail;
  husk_empty: NoDetail;
  husk_only_ignored: NoDetail;
  husk_has_files: { files: number; ignored: number };
  husk_unattributed: NoDetail;
  symlink_not_followed: NoDetail;
  /** The nested worktrees or repositories, relative to this one. */
  nested_worktree: { paths: string[] } | ReapProofFailed;
  held_by_nested: { paths: string[] };
  nested_repository: NoDetail;
  not_included: { disposition: string; include: readonly string[] };
  salvage_not_requested: NoDetail;
  too_recent: { lastActivity: string };
  disk_budget_exceeded: { budget: string; measured: number; unmeasured: number };
  disk_partial: { worktrees: number };
  salvage_failed: { error: string };
  salvage_too_large: { error: string };
  limit_reached: { limit: number };
  budget_exhausted: NoDetail;
  in_progress_elsewhere: NoDetail;
  removal_interrupted: NoDetail;
  /** `command`: what retries them once the cause is gone. */
  trash_not_deleted: TrashLeftoverDetail & { command: string };
  trash_foreign: TrashLeftoverDetail;
  /** The trash entries handed to the background deletion again. */
  trash_retried: { entries: string[] };
  // the repository is input
  /** The key, its value and the config file that sets it. */
  worktree_relocated: { key: string; value: string; file: string };
  config_unvetted: { file: string; why: string };
  admin_file_special: { file: string; kind: string };
  walk_file_special: { file: string; kind: string };
  /** The workspace the worktree's identity file or lock names (its id; null: a file written before workspaces had ids). */
  foreign_workspace: { workspace: string | null };
  swept_root: { path: string; harness: string; root: string; rule: string };
  harness_tracked: { harness: string; session: string | null; drop: string };
  harness_unverified: { harness: string; session: string | null; drop: string };
  /** What showed the caller to be an agent (the worktree it runs in, or the lease it holds). */
  trust_from_agent: { why: string };
  /** Why the caller is not taken for a person (no terminal on stdin, no --yes). */
  trust_needs_person: { why: string };
  // registry migrate
  /** The source's hosts, and how many rows of theirs each destination table holds. */
  host_rows_present: { hosts: string[]; present: Record<string, number> };
}
