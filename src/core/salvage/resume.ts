// A `salvage restore` killed after it made the new worktree leaves a state the next command finishes
// (SPEC §3.10; a crash at any step leaves a state the next command finishes). The rerun of the same
// restore recognises its own work on a managed worktree of the same branch, branch and HEAD at the
// salvage's parent:
// - killed with the salvage's tree staged (its index holding exactly that tree, its files matching
//   it): the index goes back to HEAD, the files stay;
// - killed before or while it laid the tree (its journal in the admin dir names this salvage, and
//   nothing but paths the salvage itself changes differs from HEAD: nobody worked there since):
//   the tree is laid again, to the end;
// - killed after `add` made the worktree, before the journal was written: a worktree nobody holds
//   (no lease, as restore's add makes it), active, and clean at the parent is laid over (a clean
//   worktree holds nothing to lose).
// A kill inside `read-tree -u` or `reset` leaves git's index lock: with the journal there it is this
// restore's own and is cleared first (else every rerun fails on it and the restore never converges).
// Anything else on that branch is not this restore's.
import { existsSync, rmSync } from "node:fs";
import { join } from "node:path";
import { hashFiles, readIndexDifferences, readStatus, readTreeBlobs, readWorktrees, resolveCommit, resolveTree } from "../../git/read.js";
import { checkoutTreeAsChanges, readIndexTree, unstageAll } from "../../git/write.js";
import { leaseView, processesInside, readProcessCwds, withMutationLock } from "../ownership/index.js";
import { findAdminDir } from "../shared/repo/admin.js";
import { readPlainFile, writeFileAtomic } from "../shared/files.js";
import { realOrAbsolute } from "../shared/repo/paths.js";
import { handleForBranch } from "../shared/naming/handle.js";
import { SKIPPED_BOOTSTRAP, type AddResult } from "../shared/request.js";
import type { Ctx } from "../shared/context.js";

export interface Interrupted {
  commit: string;
  parent: string | null;
  branches: readonly string[];
}

/** The result of finishing an interrupted restore onto one of `branches`, or null when none holds one. */
export async function finishInterruptedRestore(ctx: Ctx, o: Interrupted): Promise<AddResult | null> {
  if (!o.parent) return null;
  const tree = await resolveTree(ctx.repo.primary, o.commit);
  for (const branch of o.branches) {
    const row = await ctx.registry.worktrees.byHandle(await handleForBranch(ctx, branch));
    if (!row || row.branch !== branch) continue;
    const finished = await withMutationLock(ctx.repo.commonDir, async () => {
      // re-checked under the lock, at the moment of use
      const admin = findAdminDir(ctx.repo.commonDir, row.path);
      const journaled = admin !== undefined && readRestoreJournal(admin) === o.commit;
      if (journaled) await clearStaleIndexLock(admin, row.path); // a kill inside read-tree or reset: this restore's own lock
      if (await isStagedRestore(ctx, row.path, branch, o.parent as string, tree)) {
        await unstageAll(row.path);
        removeRestoreJournal(admin);
        return true;
      }
      const unjournaled = !journaled && admin !== undefined && row.lifecycle === "active" && row.owner === null && row.pid === null;
      if (!admin || !(journaled || unjournaled) || !(await isUnlaidRestore(ctx, row.path, branch, o, { clean: !journaled }))) return false;
      await checkoutTreeAsChanges(row.path, o.commit);
      removeRestoreJournal(admin);
      return true;
    });
    if (!finished) continue;
    return {
      ok: true,
      action: "created",
      handle: row.handle,
      path: row.path,
      branch,
      base: row.baseRef && row.baseCommit ? { ref: row.baseRef, commit: row.baseCommit } : null,
      head: o.parent,
      task: row.task,
      owner: row.owner,
      lease: leaseView(row),
      reasons: [],
      notes: [],
      candidates: [],
      bootstrap: SKIPPED_BOOTSTRAP,
    };
  }
  return null;
}

const JOURNAL = "orchard-restore";

/** Writes, in the new worktree's admin dir, which salvage commit is being laid over it; returns the admin dir. */
export function writeRestoreJournal(ctx: Ctx, path: string, commit: string): string | undefined {
  const admin = findAdminDir(ctx.repo.commonDir, path);
  if (admin) writeFileAtomic(join(admin, JOURNAL), `${commit}\n`);
  return admin;
}

export function removeRestoreJournal(admin: string | undefined): void {
  if (admin) rmSync(join(admin, JOURNAL), { force: true });
}

function readRestoreJournal(admin: string): string | null {
  return readPlainFile(join(admin, JOURNAL))?.toString("utf8").trim() ?? null;
}

/**
 * A kill inside `read-tree -u` leaves git's index lock behind: it is this restore's own (its journal is
 * there, the repository's mutation lock is held) unless a process works inside the worktree now.
 */
async function clearStaleIndexLock(admin: string, path: string): Promise<void> {
  const lock = join(admin, "index.lock");
  if (!existsSync(lock)) return;
  if (!(await hasProcessInside(path))) rmSync(lock, { force: true });
}

/** A process works inside the worktree, or the process table cannot be read (then: as if one did). */
async function hasProcessInside(path: string): Promise<boolean> {
  const cwds = await readProcessCwds();
  return cwds === null || processesInside(cwds, realOrAbsolute(path)).length > 0;
}

/**
 * Branch and HEAD at the parent, and every file that differs from HEAD holds what the salvage
 * holds there (laid already) or is gone where the salvage deletes it: nobody worked here since.
 */
async function isUnlaidRestore(ctx: Ctx, path: string, branch: string, o: Interrupted, want: { clean: boolean }): Promise<boolean> {
  const entry = (await readWorktrees(ctx.repo.primary)).find((e) => e.path === path);
  if (!entry || entry.branch !== `refs/heads/${branch}`) return false;
  if ((await resolveCommit(ctx.repo.primary, `refs/heads/${branch}`)) !== o.parent) return false;
  if ((await resolveCommit(path, "HEAD")) !== o.parent) return false;
  const salvage = await readTreeBlobs(ctx.repo.primary, o.commit);
  const paths = (await readStatus(path)).paths.map((p) => p.path);
  if (want.clean) return paths.length === 0 && !(await hasProcessInside(path)); // as add made it, and nobody in it
  const present = paths.filter((p) => existsSync(join(path, p)));
  if (paths.some((p) => !present.includes(p) && salvage.has(p))) return false; // deleted where the salvage keeps it
  const hashes = await hashFiles(path, present);
  return present.every((p, i) => salvage.get(p) === hashes[i]);
}

async function isStagedRestore(ctx: Ctx, path: string, branch: string, parent: string, tree: string | null): Promise<boolean> {
  const entry = (await readWorktrees(ctx.repo.primary)).find((e) => e.path === path);
  if (!entry || entry.branch !== `refs/heads/${branch}`) return false;
  if ((await resolveCommit(ctx.repo.primary, `refs/heads/${branch}`)) !== parent) return false;
  if ((await resolveCommit(path, "HEAD")) !== parent) return false;
  if (tree === null || (await readIndexTree(path)) !== tree) return false;
  const differs = await readIndexDifferences(path);
  return differs.deleted.length === 0 && differs.modified.length === 0;
}
