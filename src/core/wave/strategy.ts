// How a wave entry's branch lands on the target (SPEC v4 §3: `--strategy merge|squash|rebase`),
// after the entry passed every proof of §3.9 and merge-tree previewed a clean result:
//   merge   a merge commit (what `merge --no-ff` makes: parents the target's tip and the branch's,
//           the wave's message) of the previewed tree, made without touching any checkout, then a
//           fast-forward of the target to it: a killed run leaves at most an unreferenced commit, and
//           no three-way merge is run again for what the preview already merged (`git merge --no-ff`
//           took 125 ms an entry at 9,000 merges; the fast-forward's own ancestry check, which git
//           2.39 also makes by walking the target's history, 82 ms). A merge in
//           progress that an earlier version left (MERGE_HEAD = an entry's tip, MERGE_MSG = the
//           wave's message) is still aborted by the next run (wave.ts);
//   squash  one commit of the previewed tree on the target's tip, made without touching any
//           checkout, then a fast-forward of the target: a killed run leaves at most an
//           unreferenced commit;
//   rebase  the branch's commits replayed onto the target in the entry's own (clean) worktree, then
//           a fast-forward of the target. A commit that conflicts aborts the rebase (the branch as
//           it was) and blocks `merge_conflict`. A branch already on the target's tip needs no
//           replay (so no worktree); one without its worktree blocks `rebase_needs_worktree`.
// Each leaves the branch provably merged (ancestor, or a merge that adds nothing), so a rerun finds
// it done and goes on to removal and the branch delete.
import { resolveCommit } from "../../git/read.js";
import { commitTree, fastForward, rebaseOnto } from "../../git/write.js";
import { faultPoint } from "../shared/fault.js";
import type { Strategy } from "../shared/input/inputs.js";
import type { Ctx } from "../shared/context.js";
import type { WaveEntry } from "./manifest.js";
import { blocked, stderrOf, type WaveOutcome } from "./outcome.js";
import { mergeMessage, squashMessage, type Wording } from "./messages.js";

export interface Landing {
  strategy: Strategy;
  wording: Wording;
  target: { path: string; gitDir: string; branch: string };
  entry: WaveEntry;
  targetTip: string;
  tip: string;
  /** merge-base(target, branch). */
  base: string | null;
  /** The previewed (clean) merge result. */
  tree: string;
  /** The entry's worktree (checked clean and free), null when it is gone. */
  worktree: string | null;
}

/** Lands the branch; resolves to its tip afterwards (a rebase moves it), or to the block. */
export async function land(ctx: Ctx, l: Landing): Promise<{ tip: string } | { outcome: WaveOutcome }> {
  try {
    if (l.strategy === "merge") {
      // the commit the proofs were made for, not the ref: a branch moved since is not merged unproven (its delete then fails, compare-and-swap)
      const merge = await commitTree(ctx.repo.primary, {
        tree: l.tree,
        parents: [l.targetTip, l.tip],
        message: mergeMessage(l.wording, l.entry.branch, l.target.branch),
        asConfigured: true,
      });
      faultPoint("wave.merge");
      await fastForward(l.target.path, merge);
      faultPoint("wave.merged");
      return { tip: l.tip };
    }
    if (l.strategy === "squash") {
      const commit = await commitTree(ctx.repo.primary, {
        tree: l.tree,
        parents: [l.targetTip],
        message: await squashMessage(ctx.repo.primary, l.wording, { branch: l.entry.branch, targetTip: l.targetTip, tip: l.tip }),
      });
      await fastForward(l.target.path, commit);
      return { tip: l.tip };
    }
    return await rebase(ctx, l);
  } catch (error) {
    // no strategy leaves a merge in progress: the commit is made first, the fast-forward moves nothing it cannot
    return { outcome: blocked("merge_failed", stderrOf(error)) };
  }
}

async function rebase(ctx: Ctx, l: Landing): Promise<{ tip: string } | { outcome: WaveOutcome }> {
  let tip = l.tip;
  if (l.base !== l.targetTip) {
    if (!l.worktree || l.base === null)
      return { outcome: blocked("rebase_needs_worktree", `${l.entry.branch} must be replayed onto the target, and its worktree is gone`) };
    if (!(await rebaseOnto(l.worktree, l.targetTip, l.base)))
      return { outcome: blocked("merge_conflict", `a commit of ${l.entry.branch} conflicts when replayed onto the target; the rebase was aborted`) };
    tip = (await resolveCommit(ctx.repo.primary, `refs/heads/${l.entry.branch}`)) ?? tip;
  }
  await fastForward(l.target.path, tip);
  return { tip };
}
