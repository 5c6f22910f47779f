// `orchard merge <handle>` (SPEC v4 §3): cleanup-wave's one-entry form. The worktree is named by
// the caller (a handle, a path, or its branch), so the wave's branch allowlist does not apply; the
// expected base is the merge-base the branch has with the target now (the caller names no other),
// and every other proof of §3.9 holds as in a wave: clean, nobody inside, no deletions unless
// allowed, a conflict touches nothing, the removal is verified, the branch deleted compare-and-swap.
// A rerun after a partial run finishes it (an entry already merged goes on to removal).
import { readMergeBase, resolveCommit } from "../../git/read.js";
import { resolveTarget } from "../shared/repo/target.js";
import { OrchardError, usageError } from "../shared/errors.js";
import type { Ctx } from "../shared/context.js";
import { resolveWaveTarget, runWave, type WaveOptions, type WaveResult } from "./wave.js";

export interface MergeOptions extends Omit<WaveOptions, "manifest" | "continueOnBlock"> {
  /** The worktree to merge back and remove: a handle, a path, or its branch. */
  target: string;
}

/**
 * The worktree `named` names now; or, once a merge of it finished (its row retired, a `removed`
 * event by cleanup-wave), where it was: a rerun then finds it done (already_done) or finishes it.
 */
async function locate(ctx: Ctx, named: string): Promise<{ path: string; branch: string | null }> {
  try {
    const t = await resolveTarget(ctx, named);
    return { path: t.path, branch: t.entry?.branch?.replace(/^refs\/heads\//, "") ?? (t.entry ? null : (t.row?.branch ?? null)) };
  } catch (error) {
    if (!(error instanceof OrchardError && error.code === "not_a_worktree") || !named.includes("@")) throw error;
    const events = await ctx.registry.events.for({ handle: named });
    const last = events.filter((e) => e.kind === "removed" && e.handle === named && e.repo === ctx.repo.identity).at(-1);
    const data = (last?.data ?? {}) as { by?: string; path?: string; branch?: string };
    if (data.by !== "cleanup-wave" || !data.path || !data.branch) throw error;
    return { path: data.path, branch: data.branch };
  }
}

const escapeRegExp = (text: string): string => text.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&");

export async function mergeOne(ctx: Ctx, options: MergeOptions): Promise<WaveResult> {
  const { target: named, ...rest } = options;
  const worktree = await locate(ctx, named);
  const branch = worktree.branch;
  if (!branch) throw usageError("invalid_argument", `${named} is not on a branch: check one out, or remove it with orchard remove`);
  const into = await resolveWaveTarget(ctx, options.into);
  const branchRef = `refs/heads/${branch}`;
  const tip = await resolveCommit(ctx.repo.primary, branchRef);
  // the branch gone too (a finished merge): any commit does, the wave proves the entry done
  const base = tip
    ? ((into.branch ? await readMergeBase(ctx.repo.primary, `refs/heads/${into.branch}`, tip) : null) ?? tip)
    : await resolveCommit(ctx.repo.primary, "HEAD");
  if (!base) throw usageError("invalid_argument", `${branch} has no commits`);
  const entry = { worktree_path: worktree.path, branch, expected_base: base };
  return runWave(ctx, [entry], into, rest, `^${escapeRegExp(branch)}$`);
}
