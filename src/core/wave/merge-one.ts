// `orchard merge <handle>` (SPEC v4 §3): cleanup-wave's one-entry form. The worktree is named by
// the caller (a handle, a path, or its branch), so the wave's branch allowlist does not apply; the
// expected base is the merge-base the branch has with the target now (the caller names no other),
// and every other proof of §3.9 holds as in a wave: clean, nobody inside, no deletions unless
// allowed, a conflict touches nothing, the removal is verified, the branch deleted compare-and-swap.
// A rerun after a partial run finishes it (an entry already merged goes on to removal).
import { readMergeBase, resolveCommit } from "../../git/read.js";
import { resolveTarget } from "../shared/repo/target.js";
import { usageError } from "../shared/errors.js";
import type { Ctx } from "../shared/context.js";
import { resolveWaveTarget, runWave, type WaveOptions, type WaveResult } from "./wave.js";

export interface MergeOptions extends Omit<WaveOptions, "manifest" | "continueOnBlock"> {
  /** The worktree to merge back and remove: a handle, a path, or its branch. */
  target: string;
}

const escapeRegExp = (text: string): string => text.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&");

export async function mergeOne(ctx: Ctx, options: MergeOptions): Promise<WaveResult> {
  const { target: named, ...rest } = options;
  const worktree = await resolveTarget(ctx, named);
  const branch = worktree.entry?.branch?.replace(/^refs\/heads\//, "") ?? (worktree.entry ? null : (worktree.row?.branch ?? null));
  if (!branch) throw usageError("invalid_argument", `${named} is not on a branch: check one out, or remove it with orchard remove`);
  const into = await resolveWaveTarget(ctx, options.into);
  const branchRef = `refs/heads/${branch}`;
  const base =
    (into.branch ? await readMergeBase(ctx.repo.primary, `refs/heads/${into.branch}`, branchRef) : null) ?? (await resolveCommit(ctx.repo.primary, branchRef));
  if (!base) throw usageError("invalid_argument", `${branch} has no commits`);
  const entry = { worktree_path: worktree.path, branch, expected_base: base };
  return runWave(ctx, [entry], into, rest, `^${escapeRegExp(branch)}$`);
}
