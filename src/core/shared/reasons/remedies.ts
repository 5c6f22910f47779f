// What to do next about a reason: the second half of the reason table (reasons.ts has the
// sentence). The CLI prints it under every refusal and skipped step (`↳ orchard trust`),
// `orchard explain <code>` prints both, and docs/reasons.md is generated from the two
// (scripts/reason-table.mjs). `<name>` is filled from the reason's evidence when it has that field.
import type { Reason, ReasonCode } from "./reasons.js";

export const REASON_REMEDY: Partial<Record<ReasonCode, string>> = {
  invalid_branch: "name a literal branch (git check-ref-format --branch <name>)",
  branch_mismatch: "add the worktree's own branch, or another branch for a new worktree",
  task_mismatch: "pass the worktree's task, or take another branch",
  base_mismatch: "drop --base, or take a new branch",
  live_owner: "orchard status <handle> names the holder: wait for its release, or take another branch",
  liveness_unknown: "orchard status <handle> shows which signal is unknown",
  operation_in_progress: "finish or abort it in the worktree (git merge --abort, git rebase --abort …)",
  dirty: "commit or stash the changes; `orchard add` of the same task takes a dirty worktree over with --resume (recycle never does)",
  ignored_files: "move the files away, or name them in the top-level `disposable` list of .orchard.json",
  unpushed_commits: "git push the branch, or merge it",
  base_drift: "add again with --base <ref>, or rebase the branch",
  task_held_elsewhere: "use another policy than exclusive-task, or wait for the owner's release",
  path_occupied: "move the directory away, then add again",
  branch_checked_out: "release that worktree, or take another branch",
  bootstrap_failed: "fix the command in .orchard.json, then orchard add <branch> again",
  config_untrusted: "orchard trust",
  bootstrap_running: "wait for it, then orchard status <handle>",
  salvage_unique_work: "orchard salvage restore <ref> first to keep the work",
  worktree_relocated: "in the worktree: git config --worktree --unset <key>; then orchard status <path> reads it again",
  config_unvetted: "make <file> a plain config file (or remove the include that names it), then orchard status <path>",
  admin_file_special: "remove <file> (git keeps only plain files there), then orchard status <path>",
  walk_file_special: "remove <file> (an ignore or attributes file is a plain file), then orchard status <path>",
  trust_from_agent: "the owner runs orchard trust from the primary checkout (or outside the repository with --repo)",
  trust_needs_person: "the owner runs orchard trust in a terminal, or types orchard trust --yes (a person's flag: never an agent's)",
  swept_root: "move the workspace out of <root> (--home or ORCHARD_HOME elsewhere)",
  harness_tracked: "the harness drops it: <drop> (docs/harnesses.md, per harness)",
  harness_unverified: "the harness drops it: <drop>; a person who knows the harness no longer has it removes it with git worktree remove <path>",
  foreign_workspace: "run the command with that workspace's --home (and --registry), where the worktree is managed",
  share_not_relocatable: "drop the directory from bootstrap.share, or make it relocatable (uv venv --relocatable)",
  share_dir_missing: "name in bootstrap.share only directories that bootstrap.run makes",
  share_modified:
    "orchard cleanup run reclaims it (the next add keeps a fresh copy); prefer bootstrap.shareMethod auto or copy, where a write never reaches the copy",
  share_clone_unsupported: 'set bootstrap.shareMethod to "auto" (clone where possible, else copy) or "copy"',
  disk_low: "orchard cleanup run --until-free <minFree>",
  until_free_unmet: "orchard hygiene --disk shows what holds the space",
  fingerprint_failed: "orchard add <branch> runs the bootstrap again",
  not_managed: "orchard adopt <path>",
  not_terminal: "orchard release <handle> first",
  not_active: "orchard add <branch> adopts it again",
  work_not_preserved: "git push the branch, or salvage it: orchard cleanup run --include needs_salvage --salvage",
  foreign_lock: "orchard adopt <path>, or git worktree unlock it if its owner is done",
  default_branch_unknown: "git remote set-head origin --auto, or set defaultBranch in .orchard.json",
  session_resumable: "resume the session (claude --resume <id>), or pass --include-resumable to reap it anyway",
  lock_too_fresh: "wait for the guard, or pass --guard with a shorter duration",
  lock_owner_unknown: "orchard adopt <path>, or git worktree unlock it if its owner is done",
  no_owner: "orchard cleanup run",
  pid_alive: "nothing: its owner runs",
  lease_live: "nothing: the lease is live; its owner releases it",
  process_in_worktree: "nothing while the process works there",
  branch_not_merged:
    "merge the branch, or salvage it: orchard cleanup run --include reapable,needs_salvage --salvage (a foreign worktree: orchard adopt <path> first)",
  worktree_dirty: "orchard reap-orphans --salvage",
  repo_busy: "run the command again",
  branch_contains_deletions: "pass --allow-deletions if the deletions are meant",
  merge_conflict: "merge the branch by hand in the target, then run the wave again",
  live_process: "pass --allow-live if its executor is done",
  rebase_needs_worktree: "merge it with --strategy squash or merge, or check the branch out again (orchard add <branch>) and rerun",
  target_detached: "check out a branch in the target",
  target_dirty: "commit or stash the target's changes",
  invalid_manifest: "fix the manifest (see docs/commands.md, cleanup-wave)",
  not_adoptable: "orchard status <path> shows why",
  detached: "check out a branch in it first",
  handle_taken: "orchard status <handle> shows the worktree that has it",
  precondition_changed: "orchard cleanup plan, then apply the new plan",
  active_unowned: "orchard release <handle> when its work is done",
  recently_active: "nothing yet; it becomes reclaimable after idleAfter",
  fact_unknown: "orchard status <path> shows which fact",
  creating_interrupted: "any orchard command of its host drops it; orchard add <branch> repairs a checkout git holds",
  husk_unattributed: "look inside and remove it by hand",
  not_included: "pass --include with its disposition",
  salvage_not_requested: "orchard cleanup run --include needs_salvage --salvage",
  too_recent: "wait, or pass a shorter --older-than",
  disk_budget_exceeded: "pass a longer --disk-budget",
  salvage_failed: "orchard status <path>, then salvage by hand (git stash, git push)",
  salvage_too_large: "commit or move the large files, then run it again",
  limit_reached: "orchard cleanup resume <planId>",
  budget_exhausted: "orchard cleanup resume <planId>",
  in_progress_elsewhere: "wait for the other cleanup, then orchard cleanup resume <planId>",
  host_rows_present: "migrate only once per host; check the destination's rows",
};

/** The next step for a reason, its `<fields>` filled from the reason's evidence (and `extra`) when known. */
export function remedyOf(r: Pick<Reason, "code">, extra: Record<string, unknown> = {}): string | null {
  const text = REASON_REMEDY[r.code];
  if (!text) return null;
  const evidence: Record<string, unknown> = r; // the template names its fields by text
  return text.replace(/<([a-zA-Z]+)>/g, (whole, name: string) => {
    const value = evidence[name] ?? extra[name];
    return typeof value === "string" || typeof value === "number" ? String(value) : whole;
  });
}
