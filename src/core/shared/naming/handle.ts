// The handle a branch gets in this workspace (SPEC §1 v2): `<repo>@<slug>` with an 8-hex hash
// suffix, unless that handle is already held by another branch (a 32-bit collision, which a
// hostile branch name can force); then the later branch takes the 16-hex form.
import type { Ctx } from "../context.js";
import { createHash } from "node:crypto";
import { handleFor } from "./identity.js";

export async function handleForBranch(ctx: Pick<Ctx, "registry" | "repo">, branch: string): Promise<string> {
  const short = handleFor(ctx.repo.name, branch);
  const holder = await ctx.registry.worktrees.byHandle(short);
  return holder === undefined || holder.branch === branch ? short : handleFor(ctx.repo.name, branch, 16);
}

/**
 * The handle of a detached worktree adopted in place (SPEC v5 §3.11): it has no branch to name it,
 * so its last two path segments do (a harness's `<id>/<repo>` or `<repo>/<id>`), with 8 hex of its
 * path: `<repo>@detached-<segments>-<8 hex>`. A branch never takes it (a branch ending in 8 hex
 * gets a hash suffix of its own).
 */
export function handleForDetached(repoName: string, path: string): string {
  const tail = path
    .split("/")
    .filter((p) => p !== "")
    .slice(-2)
    .join("-");
  const reduced = tail
    .replace(/[^A-Za-z0-9._-]/g, "-")
    .replace(/-{2,}/g, "-")
    .replace(/^[-.]+|[-.]+$/g, "")
    .slice(0, 60);
  const hash = createHash("sha256").update(path, "utf8").digest("hex").slice(0, 8);
  return `${repoName}@detached-${reduced === "" ? "" : `${reduced}-`}${hash}`;
}
