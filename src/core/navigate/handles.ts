// The handles a TAB completes (`orchard __complete handles`): the registry's current rows of the
// repo; only where the registry has none (a lost registry), the identity files of what one `git
// worktree list` names. Never a status: completion assesses nothing (SPEC v5 §3).
import { readWorktrees } from "../../git/read.js";
import { takeListing } from "../shared/repo/repo.js";
import { identityOf } from "../workspace/index.js";
import type { Ctx } from "../shared/context.js";

export async function worktreeHandles(ctx: Ctx): Promise<string[]> {
  return (await namesOf(ctx)).map((n) => n.handle).sort();
}

/** What `cd`, `path` and `merge` complete: every handle, task and branch of the same rows (or identity files). */
export async function worktreeTargets(ctx: Ctx): Promise<string[]> {
  const names = (await namesOf(ctx)).flatMap((n) => [n.handle, n.task, n.branch].filter((x): x is string => !!x));
  return [...new Set(names)].sort();
}

async function namesOf(ctx: Ctx): Promise<{ handle: string; task: string | null; branch: string | null }[]> {
  const rows = await ctx.registry.worktrees.current(ctx.repo.identity);
  if (rows.length > 0) return rows.filter((r) => r.lifecycle !== "removed");
  const listing = takeListing(ctx.repo) ?? (await readWorktrees(ctx.repo.primary));
  return listing.slice(1).flatMap((e) => {
    const identity = identityOf(ctx.repo, e.path, { lockReason: e.locked ? e.lockReason : null });
    return identity ? [{ handle: identity.handle, task: identity.task ?? null, branch: e.branch?.replace(/^refs\/heads\//, "") ?? null }] : [];
  });
}
