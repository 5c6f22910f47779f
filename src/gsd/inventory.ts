// The worker's side of GSD's read-only functions and its prune: the repository's root, its linked
// worktrees, their inventory and health, and the prune of registered worktrees whose directory is
// gone. The read-only four are answered on the caller's thread (fast.ts) wherever they can be; here
// are the rest — a config include or an admin file that is not plain (vetted first, the listing
// then read from the admin files), a failure worded as GSD's — with the same reads as GSD's module:
// the context one `rev-parse`, the listing one `git worktree list`, the inventory and health that
// listing plus a stat of each directory. No registry, no assessment; `{assess: true}` adds what
// `hygiene` makes of each worktree (its disposition and reasons), at hygiene's cost. The prune is
// Orchard's cleanup of `missing` entries, one entry at a time under its proofs — never a
// repository-wide `git worktree prune`, which would also drop an entry git merely cannot resolve.
import { existsSync, realpathSync } from "node:fs";
import { GitError } from "../git/errors.js";
import { refuseWedgedConfig } from "../git/programs/read.js";
import { readGitDirs, readWorktrees } from "../git/read.js";
import { findingsOf, inventoryEntry, mainWorktreeOf, type InventoryOptions } from "./fast.js";
import type { OrchardOf, Health, Inventory, InventoryEntry, LinkedPaths, PrunePlan, PruneResult, WorktreeContext } from "./types.js";

const notARepository = (message: string): Error => Object.assign(new Error(message), { code: "not_a_repository" });

/** Where `path`'s repository is (one `rev-parse`), as core's locateRepo answers it, without loading the library. */
async function locate(path: string): Promise<{ commonDir: string; bare: boolean; inPrimary: boolean }> {
  if (!existsSync(path)) throw notARepository(`${path} does not exist`);
  await refuseWedgedConfig(path); // an include every git would wait on: said now, not after a git's timeout
  let dirs;
  try {
    dirs = await readGitDirs(path);
  } catch (error) {
    if (error instanceof GitError) throw notARepository(`${path} is not inside a git repository`);
    throw error;
  }
  const commonDir = realpathSync(dirs.commonDir);
  return { commonDir, bare: dirs.bare, inPrimary: realpathSync(dirs.gitDir) === commonDir };
}

export async function worktreeContext(_orchard: OrchardOf, cwd: string): Promise<WorktreeContext> {
  let location;
  try {
    location = await locate(cwd);
  } catch {
    return { effectiveRoot: cwd, mode: "current_directory", reason: "not_git_repo" };
  }
  const primary = mainWorktreeOf(location.commonDir);
  if (location.inPrimary) return { effectiveRoot: cwd, mode: "current_directory", reason: "main_worktree", primary };
  return { effectiveRoot: primary, mode: "linked_worktree_root", reason: "linked_worktree", primary };
}

/** git's listing of the repository at `repoRoot` (the main worktree first): one `git worktree list`, as GSD's. */
async function listing(repoRoot: string) {
  if (!existsSync(repoRoot)) throw notARepository(`${repoRoot} does not exist`);
  await refuseWedgedConfig(repoRoot);
  try {
    return await readWorktrees(repoRoot);
  } catch (error) {
    // not a repository: usage error not_a_repository (git says so in its C locale, the hardened env's)
    if (error instanceof GitError && /not a git repository/i.test(error.result.stderr)) throw notARepository(`${repoRoot} is not inside a git repository`);
    throw error;
  }
}

export async function linkedPaths(_orchard: OrchardOf, repoRoot: string): Promise<LinkedPaths> {
  return { ok: true, reason: "ok", paths: (await listing(repoRoot)).slice(1).map((e) => e.path) };
}

type Judged = Map<string, { disposition: string; reasons: string[] }>;

/** hygiene's verdict of each worktree, by path (only when asked: it reads every worktree's status). */
async function judged(orchard: OrchardOf, repoRoot: string): Promise<Judged> {
  const report = await (await orchard(repoRoot)).hygiene({ repo: repoRoot });
  return new Map(report.worktrees.map((w) => [w.path, { disposition: w.disposition, reasons: w.reasons.map((r) => r.code) }]));
}

export async function inventory(orchard: OrchardOf, repoRoot: string, options: InventoryOptions = {}): Promise<Inventory> {
  const now = Date.now();
  const linked = (await listing(repoRoot)).slice(1);
  const verdicts = options.assess ? await judged(orchard, repoRoot) : null;
  const entries: InventoryEntry[] = linked.map(({ path }) => ({ ...inventoryEntry(path, options, now), ...verdicts?.get(path) }));
  return { ok: true, reason: "ok", entries };
}

export async function health(orchard: OrchardOf, repoRoot: string, options: InventoryOptions = {}): Promise<Health> {
  return { ok: true, reason: "ok", findings: findingsOf((await inventory(orchard, repoRoot, options)).entries) };
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
