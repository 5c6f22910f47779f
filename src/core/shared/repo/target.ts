// Resolving a `<handle|path|branch>` argument to a worktree of the repo: a handle names a registry
// row; anything else is a path, compared by realpath with what git lists; failing that, the branch
// of a managed worktree, then the branch git has checked out in a linked worktree (so a branch
// resolves without the registry too).
import { readWorktrees } from "../../../git/read.js";
import type { WorktreeEntry } from "../../../git/parse/worktrees.js";
import type { WorktreeRow } from "../../../registry/index.js";
import type { Ctx } from "../context.js";
import { usageError } from "../errors.js";
import { realOrAbsolute } from "./paths.js";
import { findAdminDir, type IdentityFile } from "./admin.js";
import { identityOf, recoverRows } from "../../workspace/index.js";

export interface Target {
  path: string;
  entry: WorktreeEntry | null;
  row: WorktreeRow | null;
  /** The `git worktree list` this resolution read (primary first), for the command's snapshot. */
  listing: WorktreeEntry[];
}

export async function resolveTarget(ctx: Ctx, target: string, known?: WorktreeEntry[]): Promise<Target> {
  if (!target || target.startsWith("-")) throw usageError("invalid_argument", `${JSON.stringify(target)} is neither a handle nor a path`);
  const listing = known ?? (await readWorktrees(ctx.repo.primary));
  const entries = listing.slice(1);
  const byHandle = target.includes("@") ? await ctx.registry.worktrees.byHandle(target) : undefined;
  if (byHandle && byHandle.repo === ctx.repo.identity)
    return { path: byHandle.path, entry: entries.find((e) => e.path === byHandle.path) ?? null, row: byHandle, listing };
  const wanted = realOrAbsolute(target);
  let entry = entries.find((e) => e.path === wanted || realOrAbsolute(e.path) === wanted) ?? null;
  // the row at that path: one indexed read (the newest current row there), not every row of the repo
  const row = (await ctx.registry.worktrees.atPath(ctx.repo.identity, entry?.path ?? wanted)) ?? null;
  if (!entry && !row) {
    // not a path of a worktree: the branch name of a managed worktree (an agent knows its branch)
    const rows = await ctx.registry.worktrees.current(ctx.repo.identity);
    const byBranch = rows.find((r) => r.branch === target && r.lifecycle !== "removed");
    if (byBranch) return { path: byBranch.path, entry: entries.find((e) => e.path === byBranch.path) ?? null, row: byBranch, listing };
    // or the branch git has checked out in a linked worktree: a foreign one, or a managed one whose row is gone (its identity file below)
    entry = entries.find((e) => e.branch === `refs/heads/${target}`) ?? null;
  }
  if (!entry && !row) {
    const recovered = target.includes("@") ? await fromIdentityFile(ctx, entries, (identity) => identity.handle === target) : null;
    if (recovered) return { ...recovered, listing };
    throw usageError("not_a_worktree", `${target} is not a handle, linked worktree or managed branch of ${ctx.repo.primary}`);
  }
  if (entry && !row) {
    const recovered = await fromIdentityFile(ctx, [entry], () => true);
    if (recovered) return { ...recovered, listing };
  }
  return { path: entry?.path ?? (row as WorktreeRow).path, entry, row, listing };
}

/**
 * A listed worktree whose registry row is gone, by its identity file (SPEC §5): restored when this
 * chain holds the repo's mutation lock (a write), else a row of memory for a read (recovered.ts).
 */
async function fromIdentityFile(
  ctx: Ctx,
  entries: readonly WorktreeEntry[],
  wanted: (identity: IdentityFile) => boolean,
): Promise<Omit<Target, "listing"> | null> {
  for (const entry of entries) {
    const identity = identityOf(ctx.repo, entry.path, { lockReason: entry.locked ? entry.lockReason : null });
    if (!identity || !wanted(identity) || (await ctx.registry.worktrees.byHandle(identity.handle))) continue;
    const admins = new Map([[entry.path, findAdminDir(ctx.repo.commonDir, entry.path) as string]]);
    const [row] = await recoverRows(ctx.registry, ctx.repo, [entry], [], admins);
    if (row) return { path: entry.path, entry, row };
  }
  return null;
}

/**
 * The managed row `target` names, for a command that reads the row alone (heartbeat: a lease and its
 * lock text, no fact of git's): a handle of this repo is its row, and no listing is read; anything
 * else resolves as resolveTarget does.
 */
export async function resolveManaged(ctx: Ctx, target: string, what: string, known?: WorktreeEntry[]): Promise<WorktreeRow> {
  if (target.includes("@") && !target.startsWith("-")) {
    const row = await ctx.registry.worktrees.byHandle(target);
    if (row && row.repo === ctx.repo.identity) return row;
  }
  return requireManaged(await resolveTarget(ctx, target, known), what);
}

export function requireManaged(target: Target, what: string): WorktreeRow {
  if (!target.row) throw usageError("not_managed", `${target.path} is not managed by orchard; ${what} needs a managed worktree (see \`orchard adopt\`)`);
  return target.row;
}
