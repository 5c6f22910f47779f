// Every reason and note code Orchard reports, and the one place that turns a code into a
// sentence. Codes are stable public contract (SPEC.md); add, never rename. Each code's evidence
// type is its entry of ReasonDetails (reason-details.ts).
import type { NoDetail, ReasonDetails } from "./reason-details.js";

export const REASON_TEXT = {
  // validation
  invalid_branch: "the branch name is not a valid literal branch name",
  invalid_argument: "an argument is invalid",
  // admission: exact handle and candidates
  branch_mismatch: "the worktree has another branch checked out",
  task_mismatch: "the worktree belongs to another task",
  base_mismatch: "the requested base differs from the recorded base",
  bootstrap_drift: "the bootstrap fingerprint changed since the worktree was bootstrapped",
  context_drift: "the context fingerprint changed",
  runtime_drift: "the runtime fingerprint changed",
  live_owner: "another owner holds a live lease or works inside the worktree",
  liveness_unknown: "whether an owner is alive could not be established",
  operation_in_progress: "a merge, rebase, cherry-pick, revert or bisect is in progress",
  dirty: "the worktree has tracked changes or untracked files",
  ignored_files: "the worktree holds ignored files that exist nowhere else (not disposable, not identical to the primary's copy)",
  harness_bookkeeping:
    "the only changes are files a coding harness writes into every worktree (.claude/settings.local.json): not work; cleanup and reap remove the worktree with them saved in its salvage ref",
  unpushed_commits: "the branch has commits that are on no remote and not on the local default branch",
  base_drift: "the base ref now points at another commit than recorded",
  base_diverged: "the local default branch and origin's have diverged; the new branch starts from the local one",
  task_held_elsewhere: "another owner's live lease holds the same task (policy exclusive-task), on this host or another of the fleet",
  other_host: "the worktree lives on another host of the fleet: never reused from here",
  branch_from_task: "no branch was given: the branch was derived from the task (T-123 → t-123, an issue URL → <repo>-<n>)",
  recreated_missing: "the worktree directory was gone and has been recreated from its branch",
  path_occupied: "the path exists but git does not list it as a worktree",
  branch_checked_out: "the branch is checked out in another worktree",
  creating_repaired: "an earlier add of this handle was interrupted; what it left was finished (its checkout completed, any work kept) or rolled back",
  bootstrap_failed: "a bootstrap step failed",
  config_untrusted: "the repository's commands run only after `orchard trust`",
  fingerprint_failed: "the worktree's last bootstrap failed",
  fingerprint_unknown: "the worktree's fingerprints are not recorded",
  // recycle
  not_managed: "the worktree is not managed by orchard",
  not_terminal: "the worktree has not been released",
  not_active: "the worktree was released: a heartbeat never re-leases it (add adopts it again)",
  work_not_preserved: "the branch has commits that are neither merged nor on a remote",
  foreign_lock: "the worktree is locked by someone other than orchard",
  not_a_linked_worktree: "the path is no longer the linked worktree git registered (a symlink, the primary, or another repository)",
  path_escapes_workspace: "the path resolves outside the managed root",
  default_branch_unknown: "the default branch could not be established (a remote exists without origin/HEAD)",
  // task-backed admission, bootstrap, recycle
  bootstrap_reused: "the bootstrap fingerprint is unchanged: preserved paths were kept and the commands not re-run",
  reuse_planned: "dry run: the request would reuse this compatible worktree of the same work",
  recycle_planned: "dry run: the request would recycle a terminal worktree",
  recycled_terminal: "a terminal worktree was recycled instead of creating a new one",
  bootstrap_interrupted: "the worktree's last bootstrap was interrupted (a crash); it was run again before the worktree was handed out",
  bootstrap_owed:
    "the worktree's bootstrap had skipped its commands while the repository was untrusted; now trusted, it ran before the worktree was handed out",
  bootstrap_running: "another process runs this worktree's bootstrap now: it is not run twice",
  salvage_unique_work: "salvage refs pruned by age hold work that exists nowhere else (not merged, not on a remote): it goes with them",
  recycle_undone: "an earlier recycle of this worktree was interrupted (a crash); it was undone first",
  // dependency sharing (bootstrap.share) and disk
  bootstrap_shared: "the shared directories were materialised from the pristine copy kept for this fingerprint: the install did not run",
  share_not_relocatable:
    "a shared directory names its own absolute path (a Python virtual environment that is not relocatable, or an absolute link into the worktree): no copy was kept, so every worktree of this fingerprint runs its install",
  share_dir_missing: "bootstrap.run made no directory that bootstrap.share names: no copy was kept",
  share_clone_unsupported: "bootstrap.shareMethod is clone, and the filesystem cannot clone files (reflink)",
  share_target_present: "the worktree already has a shared directory (tracked, preserved or left by an earlier run): the install ran instead of sharing",
  share_unused: "no worktree of this kept copy's fingerprint remains",
  share_over_budget: "the kept copies take more than disk.shareBudget: the least recently used go first",
  share_incomplete: "a kept copy without a plain marker of completeness (absent, not JSON, or a FIFO, device or link): never used",
  share_modified:
    "a kept copy changed after it was kept (with shareMethod hardlink, a write in place in one worktree reaches the copy): it is never materialised again",
  disk_low: "the workspace's filesystem has less free space than disk.minFree",
  until_free_unmet: "cleanup removed everything it may remove and the free space is still below the floor",
  // reap
  session_resumable:
    "the worktree's Claude Code session can still be resumed (its transcript is younger than Claude Code's cleanupPeriodDays): `claude --resume` would go on in it",
  lock_too_fresh: "the lock is younger than the guard and its holder is dead or unknown; reapable once the lock is as old as the guard",
  lock_age_unknown: "the lock's age could not be read",
  lock_owner_unknown: "the lock text names no owner orchard understands",
  no_owner: "an orchard lock without a lease: for `orchard cleanup`, not the orphan sweep",
  pid_alive: "the lock's process is alive",
  lease_live: "the lease's heartbeat is within its TTL",
  process_in_worktree: "a process works inside the worktree",
  cannot_resolve_branch_tip: "the branch tip could not be read from the worktree's HEAD",
  branch_not_merged: "the branch is not merged into its target (its base branch while that exists, else the default branch)",
  worktree_dirty: "the worktree has tracked changes or untracked files",
  pid_dead_and_missing: "the owner is dead and the directory is gone",
  pid_dead_and_merged: "the owner is dead and the branch is merged",
  lease_dead_and_merged: "the lease expired and the branch is merged",
  remove_failed: "git could not remove the worktree",
  repo_busy: "another orchard held the repository's mutation lock longer than reap-orphans waits (10 s)",
  // wave
  already_done: "already merged and removed",
  branch_contains_deletions: "the branch deletes files",
  deletion_check_failed: "the deletion check could not run",
  merge_conflict: "merging would conflict",
  merge_failed: "the merge failed and was aborted",
  worktree_remove_failed: "git could not remove the worktree",
  worktree_remove_incomplete:
    "git dropped the worktree but files remain in its directory; they are listed, and a rerun finishes them when they are in the merged commit",
  live_process: "a process works inside the worktree (--allow-live waives)",
  rebase_needs_worktree: "the branch must be replayed onto the target (strategy rebase), and its worktree, where the replay runs, is gone",
  not_a_worktree: "the path exists but git lists no worktree of this repository there",
  entry_not_found: "git lists no worktree at the path, the branch does not exist, and no record shows a wave merged it",
  unfinished_merge_aborted: "an earlier run of this wave was killed during its merge; that merge was aborted",
  branch_delete_failed: "the branch could not be deleted",
  target_detached: "the target checkout is not on a branch",
  target_dirty: "the target checkout has tracked changes",
  already_merged: "the branch was already merged; the worktree was removed and the branch deleted",
  invalid_manifest: "the wave manifest is invalid; nothing was done",
  empty_manifest: "the wave manifest lists no worktrees",
  // adopt
  not_adoptable: "the worktree cannot be adopted",
  detached: "the worktree is not on a branch",
  handle_taken: "another managed worktree already has this handle",
  // hygiene and cleanup
  precondition_changed: "the worktree changed since the plan was made",
  not_live: "no live owner",
  clean: "no tracked changes or untracked files",
  work_preserved: "every commit is merged or on a remote",
  dead_owner: "the lock's owner is dead",
  merged: "the branch is merged into its target (its base branch while that exists, else the default branch)",
  active_unowned: "active, no owner, work not preserved",
  recently_active: "active, no owner, and used within idleAfter (config, default 24h): it may still be in use",
  missing_directory: "registered with git but the directory is gone",
  not_listed_by_git: "a directory under the managed root that git does not list",
  fact_unknown: "a fact could not be established",
  terminal: "the worktree was released",
  duplicate_primary: "two primaries share one repo identity",
  creating_interrupted:
    "an add of this handle was interrupted, or another orchard is still creating it: not a live holder; any command of this host drops it once no orchard creates it, the next add of the handle repairs what git holds",
  husk_empty: "the directory holds no files",
  husk_only_ignored: "every file in the directory is ignored by the repository's rules and can be had again (disposable or identical to the primary's)",
  husk_has_files: "the directory holds files that are not ignored, or unique ignored files; they are salvaged before removal",
  husk_unattributed: "the directory cannot be attributed to a repository, so its files cannot be salvaged",
  symlink_not_followed: "the entry is a symbolic link; orchard never follows or removes it",
  nested_worktree: "a worktree or repository is nested inside; it is handled on its own terms before the outer one is removed, cleaned or salvaged",
  held_by_nested: "only a worktree or repository nested inside keeps it: deal with that one first (its own row says how), then this one is cleaned",
  nested_repository: "the directory holds a nested git repository, which a salvage ref cannot capture",
  not_included: "the disposition is not in --include",
  salvage_not_requested: "the work must be salvaged first; plan with --salvage",
  too_recent: "the last activity is newer than --older-than",
  disk_budget_exceeded: "the disk budget ran out; the remaining worktrees were not measured",
  disk_partial: "some entries could not be read; the size is a lower bound",
  salvage_failed: "the salvage ref could not be made",
  salvage_too_large: "a file over 10 MiB, or over 100 MiB in all, would have to be salvaged; nothing was dropped or removed",
  limit_reached: "--limit reached; resume the plan to continue",
  budget_exhausted: "--budget ran out; resume the plan to continue",
  in_progress_elsewhere: "another cleanup is applying this item right now",
  removal_interrupted: "a removal was interrupted; finishing it loses nothing that the plan had not checked",
  trash_not_deleted:
    "files of removed worktrees could not be deleted from the workspace's trash (an immutable file, another user's files); they still take disk space",
  trash_foreign: "the workspace's trash holds entries Orchard did not put there; they are never deleted",
  trash_retried: "trash entries whose deletion failed before are retried in the background; `orchard hygiene` reports any that still fail",
  // the repository is input (SPEC v4 §4.1, §4.10, §4.11)
  worktree_relocated:
    "the worktree's own config moves git's work tree (core.worktree, or core.bare = true): git run there works on another directory, so the worktree's state is unknown; never recycled, reaped, removed or reused",
  config_unvetted: "a config file git reads for this worktree is not a plain file of at most 1 MiB, or git cannot parse it: the worktree's state is unknown",
  admin_file_special:
    "an admin file of the worktree (in <common>/worktrees/<id>) is a FIFO, socket, device or link: git would wait on it or read the wrong thing, so the worktree's state is unknown",
  walk_file_special:
    "a file git opens while it walks the worktree (a .gitignore or .gitattributes in it, core.excludesFile, core.attributesFile, info/exclude or info/attributes) is a FIFO, socket or device: every status would wait on it, so the worktree's state is unknown",
  swept_root:
    "the worktree is (or would be) under a root that an agent harness sweeps by count, whoever made what is there (Cursor's ~/.cursor/worktrees past cursor.worktreeMaxCount): Orchard never places a worktree there",
  harness_tracked:
    "the agent harness that made the worktree still tracks it (docs/harnesses.md): never reclaimable, reaped, cleaned up or removed by Orchard; the harness drops it",
  harness_unverified:
    "the worktree has an agent harness's shape but whether that harness still tracks it cannot be read (docs/harnesses.md): kept as if tracked",
  foreign_workspace:
    "the worktree belongs to another Orchard workspace (another --home or registry): it is never adopted, recovered, recycled, reaped or removed from here, and its lease is judged only by a dead pid on this host or a passed expiry",
  trust_from_agent:
    "orchard trust was run by a process that works inside a worktree of the repository or holds a lease: an agent never grants trust; the owner runs it from the primary or outside the repository",
  trust_needs_person:
    "orchard trust was run without a terminal on stdin and without --yes: trust is a person's act (a detached or scripted process is refused)",
  // registry migrate
  host_rows_present: "the destination registry already holds rows of the source's hosts (migrated before, or the host already writes there)",
} as const;

export type ReasonCode = keyof typeof REASON_TEXT;

/** Every code has its detail type, and every detail type its code: otherwise this does not compile. */
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
export const REASON_DETAILS_COMPLETE: Same<keyof ReasonDetails, ReasonCode> = true;

/**
 * The reason of one code: `{code, message, next, ...evidence}`, the evidence its entry of
 * ReasonDetails. `next` is the command that moves it on, or null (core/next/): filled in every
 * result an Orchard method returns; null until then.
 */
export type ReasonOf<C extends ReasonCode> = C extends ReasonCode ? { code: C; message: string; next: string | null } & ReasonDetails[C] : never;

/**
 * A reason as the JSON has it, discriminated on `code`: `if (r.code === "dirty") r.tracked` narrows
 * to that code's evidence (docs/reasons.md lists the codes).
 */
export type Reason = { [C in ReasonCode]: ReasonOf<C> }[ReasonCode];

/** The evidence argument of reason(): optional only for a code whose evidence has no required field. */
type EvidenceArgs<C extends ReasonCode> = NoDetail extends ReasonDetails[C]
  ? [evidence?: ReasonDetails[C], detail?: string | undefined]
  : [evidence: ReasonDetails[C], detail?: string | undefined];

/** The one function that turns a code (and its evidence) into a sentence. */
export function reason<C extends ReasonCode>(code: C, ...[evidence, detail]: EvidenceArgs<C>): ReasonOf<C> {
  const message = detail ? `${REASON_TEXT[code]}: ${detail}` : REASON_TEXT[code];
  return { code, message, next: null, ...evidence } as ReasonOf<C>;
}

export function hasCode(reasons: readonly Pick<Reason, "code">[], code: ReasonCode): boolean {
  return reasons.some((r) => r.code === code);
}

/** The first reason of `code`, typed as that code's reason. */
export function findReason<C extends ReasonCode>(reasons: readonly Reason[], code: C): ReasonOf<C> | undefined {
  return reasons.find((r): r is ReasonOf<C> => r.code === code);
}
