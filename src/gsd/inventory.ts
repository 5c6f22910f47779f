// The worker's side of GSD's read-only functions and its prune: the repository's root, its linked
// worktrees, their inventory and health, and the prune of registered worktrees whose directory is
// gone. Listings come from git through Orchard's reader (NUL-terminated, relative gitdirs
// resolved, admin files vetted); what Orchard makes of each worktree comes from `hygiene`. The
// prune is Orchard's cleanup of `missing` entries, one entry at a time under its proofs — never a
// repository-wide `git worktree prune`, which would also drop an entry git merely cannot resolve.
import { existsSync, statSync } from "node:fs";
import { locateRepo } from "../core/shared/repo/repo.js";
import { readWorktrees } from "../git/read.js";
import type { OrchardOf, Health, HealthFinding, Inventory, InventoryEntry, LinkedPaths, PrunePlan, PruneResult, WorktreeContext } from "./types.js";

export async function worktreeContext(_orchard: OrchardOf, cwd: string): Promise<WorktreeContext> {
  let location;
  try {
    location = await locateRepo(cwd);
  } catch {
    return { effectiveRoot: cwd, mode: "current_directory", reason: "not_git_repo" };
  }
  const primary = (await readWorktrees(cwd))[0]?.path ?? cwd;
  if (location.inPrimary) return { effectiveRoot: cwd, mode: "current_directory", reason: "main_worktree", primary };
  return { effectiveRoot: primary, mode: "linked_worktree_root", reason: "linked_worktree", primary };
}

/** git's listing of the repository at `repoRoot` (the main worktree first). */
async function listing(repoRoot: string) {
  await locateRepo(repoRoot); // not a repository: usage error not_a_repository
  return readWorktrees(repoRoot);
}

export async function linkedPaths(_orchard: OrchardOf, repoRoot: string): Promise<LinkedPaths> {
  return { ok: true, reason: "ok", paths: (await listing(repoRoot)).slice(1).map((e) => e.path) };
}

export async function inventory(orchard: OrchardOf, repoRoot: string, options: { staleAfterMs?: number; nowMs?: number } = {}): Promise<Inventory> {
  const staleAfterMs = options.staleAfterMs ?? 60 * 60 * 1000;
  const nowMs = options.nowMs ?? Date.now();
  const linked = (await listing(repoRoot)).slice(1);
  const report = await (await orchard(repoRoot)).hygiene({ repo: repoRoot });
  const judged = new Map(report.worktrees.map((w) => [w.path, w]));
  const entries: InventoryEntry[] = linked.map(({ path }) => {
    const seen = judged.get(path);
    const orchardView = seen ? { disposition: seen.disposition, reasons: seen.reasons.map((r) => r.code) } : {};
    if (!existsSync(path)) return { path, exists: false, isStale: false, ageMinutes: null, ...orchardView };
    let ageMinutes: number | null = null;
    let isStale = false;
    try {
      const ageMs = nowMs - statSync(path).mtimeMs;
      ageMinutes = Math.round(ageMs / 60000);
      isStale = ageMs > staleAfterMs;
    } catch {
      // unreadable: its age is unknown (null), as GSD reports it
    }
    return { path, exists: true, isStale, ageMinutes, ...orchardView };
  });
  return { ok: true, reason: "ok", entries };
}

export async function health(orchard: OrchardOf, repoRoot: string, options: { staleAfterMs?: number; nowMs?: number } = {}): Promise<Health> {
  const { entries } = await inventory(orchard, repoRoot, options);
  const findings: HealthFinding[] = [];
  for (const { path, exists, isStale, ageMinutes, disposition, reasons } of entries) {
    const view = disposition === undefined ? {} : { disposition, reasons: reasons ?? [] };
    if (!exists) findings.push({ kind: "orphan", path, ...view });
    else if (isStale) findings.push({ kind: "stale", path, ageMinutes, ...view });
  }
  return { ok: true, reason: "ok", findings };
}

export async function prunePlan(_orchard: OrchardOf, repoRoot: string, options: { allowDestructive?: unknown } = {}): Promise<PrunePlan> {
  const entries = await listing(repoRoot);
  return {
    repoRoot,
    action: "metadata_prune_only",
    reason: entries.some((e) => e.branch) ? "worktrees_present" : "no_worktrees",
    destructiveModeRequested: Boolean(options.allowDestructive),
    missing: entries
      .slice(1)
      .filter((e) => e.prunable !== null)
      .map((e) => e.path),
  };
}

export async function runPrune(orchard: OrchardOf, plan: PrunePlan): Promise<PruneResult> {
  const run = await (await orchard(plan.repoRoot)).cleanupRun({ repo: plan.repoRoot, include: "missing" });
  const pruned = run.items.filter((i) => i.state === "done").map((i) => i.path);
  const skipped = run.kept.filter((k) => !existsSync(k.path)).map((k) => ({ path: k.path, reasons: k.reasons.map((r) => r.code) }));
  return { ok: run.ok, action: plan.action, reason: plan.reason, timedOut: false, pruned, ...(skipped.length > 0 ? { skipped } : {}) };
}
