// The merged proofs of one wave entry (SPEC §3.9 step 3, §4.5) against the target as it is at the
// entry's moment of use: from the batch's facts (batch.ts) where it has them, else alone.
import { allCommitsEquivalent, readMergeBase, readMergeTree } from "../../git/read.js";
import { commitTree } from "../../git/write.js";

/** The identity of commits only a wave reads (a merge preview's stand-in, a dry run's simulated merges), never referenced. */
export const SIMULATION_IDENTITY = {
  GIT_AUTHOR_NAME: "Orchard",
  GIT_AUTHOR_EMAIL: "orchard@localhost",
  GIT_COMMITTER_NAME: "Orchard",
  GIT_COMMITTER_EMAIL: "orchard@localhost",
};

/**
 * The batch's proof (ancestor, cherry, merge base at its start), and merge_adds_nothing from the preview against the target now.
 * The preview merges the branch with a stand-in for the target: a commit of the target's tree whose one parent is the
 * proven merge base. merge-ort reads only the base's, ours' and theirs' trees, so its answer (clean or the conflicting
 * paths, and the tree) is the one it gives against the target; git 2.39's merge-tree takes no --merge-base, and
 * against the target itself it walks every commit the target has since the base (two per merge of a wave: 75 ms an
 * entry at 9,000 merges).
 */
export async function proveFromBatch(
  cwd: string,
  targetNow: { commit: string; tree: string },
  tip: string,
  proof: { merged: string | null; base: string },
): Promise<{ merged: boolean; base: string | null; preview: Preview | null }> {
  if (proof.merged !== null) return { merged: true, base: proof.base, preview: null };
  const ours =
    proof.base === targetNow.commit
      ? targetNow.commit
      : await commitTree(cwd, {
          tree: targetNow.tree,
          parents: [proof.base],
          message: "orchard: the target's tree on the merge base (a merge preview)",
          env: SIMULATION_IDENTITY,
        });
  const preview = await readMergeTree(cwd, ours, tip);
  return { merged: preview.clean && preview.tree === targetNow.tree, base: proof.base, preview };
}

export type Preview = Awaited<ReturnType<typeof readMergeTree>>;

/**
 * proveMerged's four proofs in its order (same commit, ancestor, every patch upstream, a merge that
 * adds nothing), from the facts the entry needs anyway: the merge base (ancestor ⇔ it is the tip)
 * and the merge-tree preview (which step 6 reuses), the target's tree read with its tip.
 */
export async function proveEntryMerged(
  cwd: string,
  targetNow: { commit: string; tree: string },
  tip: string,
): Promise<{ merged: boolean; base: string | null; preview: Preview | null }> {
  if (tip === targetNow.commit) return { merged: true, base: tip, preview: null };
  // each proof reads only these two fixed commits: all three run at once, decided in order
  const [mergeBase, equivalent, mergeTree] = [
    readMergeBase(cwd, targetNow.commit, tip),
    later(allCommitsEquivalent(cwd, targetNow.commit, tip)),
    later(readMergeTree(cwd, targetNow.commit, tip)),
  ];
  const base = await mergeBase;
  if (base === tip) return { merged: true, base, preview: null };
  if (await equivalent) return { merged: true, base, preview: null };
  const preview = await mergeTree;
  return { merged: preview.clean && preview.tree === targetNow.tree, base, preview };
}

/** A promise started before its answer is known to be needed: awaited only if it is, so a failure
 * nobody asks for is not an unhandled rejection (one that is asked for still throws there). */
export function later<T>(promise: Promise<T>): Promise<T> {
  promise.catch(() => undefined); // observed here only; the awaiting step sees the failure
  return promise;
}
