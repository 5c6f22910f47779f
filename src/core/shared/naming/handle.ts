// The handle a branch gets in this workspace (SPEC §1 v2): `<repo>@<slug>` with an 8-hex hash
// suffix, unless that handle is already held by another branch (a 32-bit collision, which a
// hostile branch name can force); then the later branch takes the 16-hex form.
import type { Ctx } from "../context.js";
import { handleFor } from "./identity.js";

export async function handleForBranch(ctx: Pick<Ctx, "registry" | "repo">, branch: string): Promise<string> {
  const short = handleFor(ctx.repo.name, branch);
  const holder = await ctx.registry.worktrees.byHandle(short);
  return holder === undefined || holder.branch === branch ? short : handleFor(ctx.repo.name, branch, 16);
}
