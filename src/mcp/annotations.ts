// What each MCP tool does to the world, as MCP `annotations` (SPEC v3 §3.12): a client uses them to
// decide what to ask the user first. One row per tool, true to what the tool can do at its worst:
// - readOnlyHint: nothing is written (no worktree, branch, ref, registry row or file);
// - destructiveHint: it can remove or rewrite a worktree, a branch or a ref (always behind the proofs
//   of SPEC §4: nothing unpushed or uncommitted is lost, but the checkout is gone or replaced);
// - idempotentHint: the same call again changes nothing more (a release already done is
//   `already_released`, a wave entry merged is `already_done`, add of the same branch gets the same
//   worktree back, a recycle or restore done is refused the second time…);
// - openWorldHint: false everywhere — Orchard works on the repository, its workspace and registry.
// A dry run changes nothing whatever the row says; the hints describe the tool, not one call.
export interface ToolAnnotations {
  title: string;
  readOnlyHint: boolean;
  destructiveHint: boolean;
  idempotentHint: boolean;
  openWorldHint: false;
}

function row(title: string, readOnly: boolean, destructive: boolean, idempotent: boolean): ToolAnnotations {
  return { title, readOnlyHint: readOnly, destructiveHint: destructive, idempotentHint: idempotent, openWorldHint: false };
}

//                                                 readOnly destructive idempotent
export const ANNOTATIONS = {
  // policy recycle-terminal restarts a released worktree on the new branch: a rewrite
  orchard_add: row("Take a worktree", false, true, true),
  orchard_release: row("Release a worktree", false, false, true),
  orchard_heartbeat: row("Renew a lease", false, false, true),
  // runs the repository's trusted bootstrap in a worktree the proofs find clean and not held by another
  orchard_bootstrap: row("Run a worktree's bootstrap", false, false, true),
  orchard_status: row("Worktree status", true, false, true),
  orchard_list: row("List worktrees", true, false, true),
  orchard_recycle: row("Recycle a released worktree", false, true, true),
  orchard_hygiene: row("Hygiene report", true, false, true),
  // writes the report page it names (replacing a file there): not read-only
  orchard_hygiene_html: row("Write the hygiene report as HTML", false, false, true),
  // publishes this host's summary to the shared registry
  orchard_hygiene_fleet: row("Fleet hygiene report", false, false, true),
  orchard_reap_orphans: row("Reap orphaned worktrees", false, true, true),
  // stores a new plan (a new planId each call); removes nothing
  orchard_cleanup_plan: row("Plan a clean-up", false, false, false),
  orchard_cleanup_apply: row("Apply a clean-up plan", false, true, true),
  orchard_cleanup_wave: row("Merge and remove a wave", false, true, true),
  orchard_cleanup_resume: row("Resume a clean-up plan", false, true, true),
  orchard_cleanup_run: row("Clean up to a fixed point", false, true, true),
  orchard_adopt: row("Adopt a foreign worktree", false, false, true),
  orchard_lineage: row("Lineage of a handle or task", true, false, true),
  orchard_salvage_list: row("List salvaged work", true, false, true),
  // a new worktree and branch; a second restore with the same branch is refused (branch exists)
  orchard_salvage_restore: row("Restore salvaged work", false, false, false),
  // one worktree under cleanup's proofs; the same call again finds it gone (not_a_worktree), removing nothing more
  orchard_remove: row("Remove a worktree", false, true, true),
  orchard_path: row("Path of a worktree", true, false, true),
  // a rerun finds the branch merged (already_done) and only finishes what is left
  orchard_merge: row("Merge a worktree back", false, true, true),
  // deletes salvage refs (each listed with its commit)
  orchard_salvage_prune: row("Prune salvage refs", false, true, true),
  orchard_explain: row("Explain a reason code", true, false, true),
} satisfies Record<string, ToolAnnotations>;

export type ToolName = keyof typeof ANNOTATIONS;
