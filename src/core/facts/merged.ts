// "Merged" (SPEC §4.5), cheapest proof first: same_commit, ancestor, patch_equivalent (every commit
// has one with the same verbatim patch in the target: git cherry's question, whitespace seen, SPEC
// v5 §4), merge_adds_nothing (merge-tree yields the target's own tree, which catches squash merges).
// The proof is reported as `how`; null = no proof found. A salvage is preserved only by reach
// (`patches: false`): same commit, ancestor, or a merge that adds nothing (byte-equal trees).
import { allCommitsEquivalent, isAncestor, readMergeTree, resolveTree } from "../../git/read.js";
import type { MergedHow } from "../shared/types.js";

export interface MergeTarget {
  ref: string;
  oid: string;
}

export async function proveMerged(
  cwd: string,
  head: string,
  targets: readonly MergeTarget[],
  options: { knownUnmerged?: boolean; patches?: false } = {},
): Promise<{ target: string | null; how: MergedHow | null }> {
  for (const t of targets) if (t.oid === head) return { target: t.ref, how: "same_commit" };
  // each proof depends on the target's commit alone: a second ref at the same commit (local main and
  // origin/main usually agree) would ask git the same question again, and get the same answer
  const distinct = targets.filter((t, i) => targets.findIndex((u) => u.oid === t.oid) === i);
  if (!options.knownUnmerged) for (const t of distinct) if (await isAncestor(cwd, head, t.oid)) return { target: t.ref, how: "ancestor" };
  if (options.patches !== false) for (const t of distinct) if (await allCommitsEquivalent(cwd, t.oid, head)) return { target: t.ref, how: "patch_equivalent" };
  for (const t of distinct) {
    const merged = await readMergeTree(cwd, t.oid, head);
    if (merged.clean && merged.tree === (await resolveTree(cwd, t.oid))) return { target: t.ref, how: "merge_adds_nothing" };
  }
  return { target: targets[0]?.ref ?? null, how: null };
}

/** Merged facts of a head against `targets` (default: the snapshot's, the default branch); null when there is no known target. */
export async function readMerged(
  snapshot: {
    repo: { primary: string };
    targets: string[];
    refs: ReadonlyMap<string, { oid: string }>;
    unmergedGraph: ReadonlyMap<string, readonly string[]> | null;
  },
  head: string,
  refs: readonly string[] = snapshot.targets,
): Promise<{ target: string | null; how: MergedHow | null } | null> {
  const targets = refs.flatMap((ref) => {
    const oid = snapshot.refs.get(ref)?.oid;
    return oid ? [{ ref, oid }] : [];
  });
  if (targets.length === 0) return null;
  // the snapshot's unmerged graph was walked against the default branch: it answers for those targets only
  const known = refs === snapshot.targets || refs.join("\0") === snapshot.targets.join("\0");
  return proveMerged(snapshot.repo.primary, head, targets, { knownUnmerged: known && (snapshot.unmergedGraph?.has(head) ?? false) });
}
