// The handles a TAB completes (`orchard __complete handles`): the registry's current rows of the
// repo; only where the registry has none (a lost registry), the identity files of what one `git
// worktree list` names. Never a status: completion assesses nothing (SPEC v5 §3).
import { readWorktrees } from "../../git/read.js";
import { takeListing } from "../shared/repo/repo.js";
import { identityOf } from "../workspace/index.js";
import type { Ctx } from "../shared/context.js";

export async function worktreeHandles(ctx: Ctx): Promise<string[]> {
  const rows = await ctx.registry.worktrees.current(ctx.repo.identity);
  if (rows.length > 0) return rows.map((r) => r.handle).sort();
  const listing = takeListing(ctx.repo) ?? (await readWorktrees(ctx.repo.primary));
  const handles = listing.slice(1).flatMap((e) => {
    const identity = identityOf(ctx.repo, e.path, { lockReason: e.locked ? e.lockReason : null });
    return identity ? [identity.handle] : [];
  });
  return handles.sort();
}
