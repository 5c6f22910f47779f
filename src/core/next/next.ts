// The one function from a reason (with its evidence) and where it was reported to the step that
// moves it on, or null when nothing a command does moves it (wait, decide, edit a file). Every
// code has its case (the switch is exhaustive); the e2e suite runs each step it names
// (test/e2e/next-steps.test.ts). docs/reasons.md shows each code's step.
import type { Reason } from "../shared/reasons/reasons.js";
import { orchard, shell, stepOf, type Step } from "./step.js";
import { shellQuote } from "../shared/shell-quote.js";

/** Where a reason was reported: the library method, the row it sits on, and the call's input. */
export interface Where {
  /** The Orchard method that produced the result (`add`, `reapOrphans`, `cleanupRun`…). */
  verb: string;
  handle?: string;
  path?: string;
  branch?: string;
  planId?: string;
  disposition?: string;
  /** The row is Orchard's (a managed worktree, or a lock that names an Orchard lease). */
  managed?: boolean;
  /** hygiene's suggested command for the row, when it has one. */
  suggestion?: string | null;
  input: Readonly<Record<string, unknown>>;
}

const text = (v: unknown): string | undefined => (typeof v === "string" && v !== "" ? v : undefined);

/** `orchard add` again as it was asked, with `extra` flags: the same owner, task and base. */
function addAgain(w: Where, extra: Record<string, true> = {}): Step | null {
  const branch = text(w.input.branch) ?? w.branch;
  if (!branch) return null;
  return orchard("add", branch, { task: text(w.input.task), owner: text(w.input.owner), ...extra });
}

/** The cleanup that takes a row of this disposition. */
function cleanupFor(w: Where): Step | null {
  if (w.suggestion !== undefined) return w.suggestion === null ? null : stepOf(w.suggestion);
  switch (w.disposition) {
    case "reclaimable":
    case "reapable":
    case "missing":
      return orchard("cleanup run");
    case "needs_salvage":
      return orchard("cleanup run", null, { include: "needs_salvage", salvage: true });
    case "husk":
      return orchard("cleanup run", null, { include: "husk" });
    default:
      return null;
  }
}

const pushOf = (path: string | undefined, branch: string | null | undefined): Step | null =>
  path && branch ? shell("git", "-C", shellQuote(path), "push", "-u", "origin", shellQuote(branch)) : null;
const isCleanup = (w: Where): boolean => w.verb.startsWith("cleanup") || w.verb.startsWith("hygiene");
const statusOf = (w: Where): Step | null => (w.handle || w.path ? orchard("status", w.handle ?? w.path) : null);
const waveAgain = (w: Where, flag?: string): Step | null =>
  text(w.input.manifest)
    ? orchard("cleanup-wave", null, { manifest: text(w.input.manifest), into: text(w.input.into), ...(flag ? { [flag]: true } : {}) })
    : null;

/** `orchard merge` of the same worktree again, as it was asked, with `flag` (its waiver). */
const mergeAgain = (w: Where, flag?: string): Step | null =>
  w.verb === "merge" && (w.handle ?? w.path)
    ? orchard("merge", w.handle ?? w.path, { strategy: text(w.input.strategy), into: text(w.input.into), ...(flag ? { [flag]: true } : {}) })
    : null;

/** `orchard merge` refused for a conflict: bring the target into the branch, in its worktree, and resolve there. */
function resolveConflict(r: Reason, w: Where): Step | null {
  const into = "into" in r && typeof r.into === "string" ? r.into : null;
  if (w.verb !== "merge" || !w.path || !into) return null;
  return shell("git", "-C", shellQuote(w.path), w.input.strategy === "rebase" ? "rebase" : "merge", shellQuote(into));
}

/** `orchard merge` refused for uncommitted work: commit it on the branch, so the merge takes it. */
const commitWork = (w: Where): Step | null =>
  w.path ? shell(`git -C ${shellQuote(w.path)} add -A && git -C ${shellQuote(w.path)} commit -m ${shellQuote("work in progress")}`) : null;

export function nextStep(r: Reason, w: Where): Step | null {
  // a hygiene row's reasons all move on by the row's one suggested command
  if (w.suggestion !== undefined && r.code !== "trash_not_deleted") return w.suggestion === null ? null : stepOf(w.suggestion);
  switch (r.code) {
    case "dirty":
      // add takes over a dirty worktree of its own task with --resume; recycle never takes work over
      return w.verb === "add" ? addAgain(w, { resume: true }) : null;
    case "ignored_files":
      if (w.verb === "add") return addAgain(w, { resume: true });
      // the sweep reaps such a worktree with --salvage: the files are saved in its salvage ref first
      if (w.verb === "reapOrphans") return orchard("reap-orphans", null, { salvage: true });
      return isCleanup(w) ? cleanupFor(w) : null;
    case "base_mismatch":
      return w.verb === "add" && (text(w.input.branch) ?? w.branch)
        ? orchard("add", text(w.input.branch) ?? w.branch, { task: text(w.input.task), owner: text(w.input.owner) })
        : null;
    case "liveness_unknown":
    case "fact_unknown":
    // whoever holds it is named there; never a release by its owner's name (SPEC v5)
    case "live_owner":
      return statusOf(w);
    case "operation_in_progress": {
      if (!w.path || !("operation" in r)) return null;
      const op = r.operation;
      return shell("git", "-C", shellQuote(w.path), op, op === "bisect" ? "reset" : "--abort");
    }
    case "unpushed_commits":
    case "work_not_preserved":
      if (isCleanup(w)) return cleanupFor(w) ?? orchard("cleanup run", null, { include: "needs_salvage", salvage: true });
      return pushOf("path" in r && r.path ? r.path : w.path, "branch" in r && r.branch ? r.branch : w.branch);
    case "config_untrusted":
      return orchard("trust");
    case "fingerprint_failed":
      return addAgain(w);
    case "not_managed": {
      // cleanup never acts on a worktree that is not Orchard's: adopting it is the step, wherever it is met
      const path = "path" in r && r.path ? r.path : w.path;
      return path ? orchard("adopt", path) : null;
    }
    case "foreign_lock":
    case "lock_owner_unknown": {
      if (isCleanup(w) && w.disposition === "needs_salvage") return cleanupFor(w);
      const path = "path" in r && typeof r.path === "string" && r.path ? r.path : w.path;
      return path ? orchard("adopt", path) : null;
    }
    case "not_terminal":
      return w.handle ? orchard("release", w.handle) : null;
    case "not_active":
      return addAgain(w);
    case "default_branch_unknown":
      return shell("git remote set-head origin --auto");
    case "session_resumable":
      return w.verb === "reapOrphans" ? orchard("reap-orphans", null, { includeResumable: true }) : orchard("cleanup run", null, { includeResumable: true });
    case "no_owner":
      return orchard("cleanup run");
    case "branch_not_merged":
      // reap takes only merged branches; cleanup salvages (or, when pushed, reaps) the unmerged
      // ones it manages, and a foreign worktree becomes Orchard's to salvage once adopted
      if (w.managed) return orchard("cleanup run", null, { include: "reapable,needs_salvage", salvage: true });
      return w.path ? orchard("adopt", w.path) : null;
    case "worktree_dirty":
      return w.verb === "merge" ? commitWork(w) : orchard("reap-orphans", null, { salvage: true });
    case "repo_busy":
      return orchard("reap-orphans");
    case "branch_contains_deletions":
      return mergeAgain(w, "allowDeletions") ?? waveAgain(w, "allowDeletions");
    case "live_process":
      return mergeAgain(w, "allowLive") ?? waveAgain(w, "allowLive");
    case "worktree_remove_incomplete":
      return mergeAgain(w) ?? waveAgain(w);
    case "merge_conflict":
      return resolveConflict(r, w);
    case "not_adoptable":
      return w.path ? orchard("status", w.path) : null;
    case "precondition_changed":
      return orchard("cleanup run");
    case "active_unowned":
      return w.handle && r.managed ? orchard("release", w.handle) : null;
    case "not_live":
    case "clean":
    case "work_preserved":
    case "dead_owner":
    case "merged":
    case "missing_directory":
    case "not_listed_by_git":
    case "terminal":
    case "husk_empty":
    case "husk_only_ignored":
    case "husk_has_files":
    case "harness_bookkeeping":
      return isCleanup(w) ? cleanupFor(w) : null;
    case "not_included":
      // cleanup salvages only the worktrees it manages: a foreign one is adopted first
      if (r.disposition === "needs_salvage" && w.managed === false) return w.path ? orchard("adopt", w.path) : null;
      return r.disposition === "needs_salvage"
        ? orchard("cleanup run", null, { include: "needs_salvage", salvage: true })
        : orchard("cleanup run", null, { include: r.disposition });
    case "salvage_not_requested":
      return orchard("cleanup run", null, { include: w.disposition === "husk" ? "husk" : "needs_salvage", salvage: true });
    case "limit_reached":
    case "budget_exhausted":
      return w.planId ? orchard("cleanup resume", w.planId) : null;
    case "trash_not_deleted":
      return typeof r.command === "string" ? shell(r.command) : null;
    // the repository is input (SPEC v4 §4.1): the key an agent wrote, or the special file it planted, goes
    case "worktree_relocated":
      return w.path ? shell("git", "-C", shellQuote(w.path), "config", "--worktree", "--unset", r.key) : null;
    case "admin_file_special":
    case "walk_file_special":
      return shell("rm", "--", shellQuote(r.file));
    case "disk_low": {
      // the default cleanup would not meet the floor while worktrees needing salvage hold space: the run that takes them
      const short = r.wouldFree && (r.wouldFree.bytes === null || r.free + r.wouldFree.bytes < r.floor);
      if (short && (r.alsoFree?.needsSalvage.worktrees ?? 0) > 0)
        return orchard("cleanup run", null, { include: "reclaimable,reapable,missing,needs_salvage", salvage: true, "until-free": r.minFree });
      return orchard("cleanup run", null, { "until-free": r.minFree });
    }
    case "share_unused":
    case "share_over_budget":
    case "share_incomplete":
    case "share_modified":
      return orchard("cleanup run");
    // nothing a command does moves these on: wait, decide, edit a file, or it is already done
    case "config_unvetted":
    case "foreign_workspace":
    // the harness drops its own worktree (the remedy says how): nothing of Orchard's moves it on
    case "harness_tracked":
    case "swept_root":
    case "harness_unverified":
    case "trust_from_agent":
    case "trust_needs_person":
    case "branch_from_task":
    case "rebase_needs_worktree":
    case "bootstrap_shared":
    case "share_not_relocatable":
    case "share_dir_missing":
    case "share_clone_unsupported":
    case "share_target_present":
    case "until_free_unmet":
    case "invalid_branch":
    case "invalid_argument":
    case "branch_mismatch":
    case "task_mismatch":
    case "bootstrap_drift":
    case "context_drift":
    case "runtime_drift":
    case "base_drift":
    case "base_diverged":
    case "task_held_elsewhere":
    case "other_host":
    case "recreated_missing":
    case "path_occupied":
    case "branch_checked_out":
    case "creating_repaired":
    case "bootstrap_failed":
    case "fingerprint_unknown":
    case "not_a_linked_worktree":
    case "path_escapes_workspace":
    case "bootstrap_reused":
    case "reuse_planned":
    case "recycle_planned":
    case "recycled_terminal":
    case "bootstrap_interrupted":
    case "bootstrap_owed":
    case "bootstrap_running":
    case "salvage_unique_work":
    case "recycle_undone":
    case "lock_too_fresh":
    case "lock_age_unknown":
    case "pid_alive":
    case "lease_live":
    case "process_in_worktree":
    case "cannot_resolve_branch_tip":
    case "pid_dead_and_missing":
    case "pid_dead_and_merged":
    case "lease_dead_and_merged":
    case "remove_failed":
    case "already_done":
    case "deletion_check_failed":
    case "merge_failed":
    case "worktree_remove_failed":
    case "not_a_worktree":
    case "entry_not_found":
    case "unfinished_merge_aborted":
    case "branch_delete_failed":
    case "target_detached":
    case "target_dirty":
    case "already_merged":
    case "invalid_manifest":
    case "empty_manifest":
    case "detached":
    case "handle_taken":
    case "recently_active":
    case "duplicate_primary":
    case "creating_interrupted":
    case "husk_unattributed":
    case "symlink_not_followed":
    case "nested_worktree":
    case "held_by_nested":
    case "nested_repository":
    case "too_recent":
    case "disk_budget_exceeded":
    case "disk_partial":
    case "salvage_failed":
    case "salvage_too_large":
    case "in_progress_elsewhere":
    case "removal_interrupted":
    case "trash_foreign":
    case "trash_retried":
    case "host_rows_present":
      return null;
    default: {
      const never: never = r;
      throw new Error(`no next step for ${JSON.stringify(never)}`);
    }
  }
}
