// A `salvage restore` killed after it laid the salvaged tree over the new worktree but before it
// unstaged it leaves that worktree with the salvage's tree staged (SPEC §3.10; a crash at any step
// leaves a state the next command finishes). The rerun of the same restore recognises its own
// work — a managed worktree on the same branch, branch and HEAD at the salvage's parent, its index
// holding exactly the salvage commit's tree and its files matching that index — and finishes it:
// the index goes back to HEAD, the files stay. Anything else on that branch is not this restore's.
import { readIndexDifferences, readWorktrees, resolveCommit, resolveTree } from "../../git/read.js";
import { readIndexTree, unstageAll } from "../../git/write.js";
import { leaseView, withMutationLock } from "../ownership/index.js";
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
      if (!(await isStagedRestore(ctx, row.path, branch, o.parent as string, tree))) return false;
      await unstageAll(row.path);
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

async function isStagedRestore(ctx: Ctx, path: string, branch: string, parent: string, tree: string | null): Promise<boolean> {
  const entry = (await readWorktrees(ctx.repo.primary)).find((e) => e.path === path);
  if (!entry || entry.branch !== `refs/heads/${branch}`) return false;
  if ((await resolveCommit(ctx.repo.primary, `refs/heads/${branch}`)) !== parent) return false;
  if ((await resolveCommit(path, "HEAD")) !== parent) return false;
  if (tree === null || (await readIndexTree(path)) !== tree) return false;
  const differs = await readIndexDifferences(path);
  return differs.deleted.length === 0 && differs.modified.length === 0;
}
