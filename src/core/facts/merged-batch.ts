// "Merged" (SPEC §4.5) for many heads at once: the answers proveMerged gives one head at a time,
// for a fixed number of processes. same_commit and ancestor come from the graph of commits the
// heads have and a target lacks (one rev-list per target, or the snapshot's); patch_equivalent is
// decided as `git cherry` decides it, whitespace seen — every non-merge commit of the head has a
// verbatim patch-id among the target's non-merge commits the head lacks — from one `diff-tree |
// patch-id --verbatim` pass over both sides;
// merge_adds_nothing from one `merge-tree --stdin` run. Wherever the batch cannot be sure (a binary
// diff, a commit without a patch-id, heads without a common base, more than UPSTREAM_LIMIT target
// commits to compare with, a git without `merge-tree --stdin`) it asks git for that head alone,
// exactly as proveMerged does. The order of proofs, and of targets within each, is proveMerged's.
import { nonMerge, reachable, type Graph } from "./graph.js";
import { allCommitsEquivalent, readCommitPatchIds, readMergeTree, readMergeTrees, readObjectIds, readOctopusBase, readRevListParents } from "../../git/read.js";
import { mapLimit, DEFAULT_PARALLELISM } from "../shared/pool.js";
import type { MergedHow } from "../shared/types.js";
import type { MergeTarget } from "./merged.js";

export interface MergedFact {
  target: string | null;
  how: MergedHow | null;
}

/** Per head: true, false, or the error that kept it from being established. */
type Answers = Map<string, boolean | Error>;

/** Beyond this many target commits since the heads' common base, `git cherry` per head is cheaper. */
const UPSTREAM_LIMIT = 5_000;

/** Target refs, one per distinct commit (local main and origin/main usually agree: prove once). */
export function distinctTargets(targets: readonly string[], refs: ReadonlyMap<string, { oid: string }>): MergeTarget[] {
  const seen = new Set<string>();
  const out: MergeTarget[] = [];
  for (const ref of targets) {
    const oid = refs.get(ref)?.oid;
    if (oid && !seen.has(oid)) {
      seen.add(oid);
      out.push({ ref, oid });
    }
  }
  return out;
}

/** What readMergedAll needs of a snapshot. */
export interface MergeView {
  repo: { primary: string };
  targets: string[];
  refs: ReadonlyMap<string, { oid: string }>;
  entries: readonly { head: string | null }[];
  unmergedGraph: Graph | null;
}

/** Merged facts of every head against the snapshot's targets, batched; null when there is no known target. */
export async function readMergedAll(view: MergeView, heads: readonly string[]): Promise<Map<string, MergedFact | Error> | null> {
  const targets = distinctTargets(view.targets, view.refs);
  if (targets.length === 0) return null;
  const graph = view.unmergedGraph;
  const tips = new Set(view.entries.map((e) => e.head).filter((h): h is string => !!h));
  return proveMergedMany(view.repo.primary, heads, targets, graph ? { graph, tips } : null);
}

/** Merge proofs by target (targetKey) and head: what readMergedByTarget answers. */
export type MergedBatch = Map<string, Map<string, MergedFact | Error> | null>;

export const targetKey = (targets: readonly string[]): string => targets.join("\0");

/**
 * Merged facts of heads that each have their own targets (facts/merge-target.ts): one batch per
 * distinct target set. The snapshot's unmerged graph was walked against its own targets (the
 * default branch), so only that batch may use it.
 */
export async function readMergedByTarget(view: MergeView, items: readonly { head: string; targets: readonly string[] }[]): Promise<MergedBatch> {
  const groups = new Map<string, { targets: string[]; heads: string[] }>();
  for (const item of items) {
    const key = targetKey(item.targets);
    const group = groups.get(key) ?? { targets: [...item.targets], heads: [] };
    group.heads.push(item.head);
    groups.set(key, group);
  }
  const own = targetKey(view.targets);
  const out: MergedBatch = new Map();
  await Promise.all(
    [...groups].map(async ([key, g]) => {
      out.set(key, await readMergedAll({ ...view, targets: g.targets, unmergedGraph: key === own ? view.unmergedGraph : null }, g.heads));
    }),
  );
  return out;
}

/** One head's proof from readMergedByTarget's answer; null when its targets are unknown. */
export function mergedFrom(batch: MergedBatch | null, head: string, targets: readonly string[]): MergedFact | Error | null {
  return batch?.get(targetKey(targets))?.get(head) ?? null;
}

const asError = (error: unknown): Error => (error instanceof Error ? error : new Error(String(error)));

/**
 * Merged facts of every head against `targets` (distinct commits, in order of preference).
 * `unmerged`: the graph of commits reachable from `tips` and from no target, when already read
 * (used only when every head is one of its tips).
 */
export async function proveMergedMany(
  cwd: string,
  heads: readonly string[],
  targets: readonly MergeTarget[],
  unmerged?: { graph: Graph; tips: ReadonlySet<string> } | null,
): Promise<Map<string, MergedFact | Error>> {
  const out = new Map<string, MergedFact | Error>();
  const unique = [...new Set(heads)];
  if (unique.length === 0 || targets.length === 0) {
    for (const h of unique) out.set(h, { target: null, how: null });
    return out;
  }
  const known = targets.length === 1 && unmerged && unique.every((h) => unmerged.tips.has(h)) ? unmerged.graph : null;
  const graphs: Graph[] = known ? [known] : await Promise.all(targets.map((t) => readRevListParents(cwd, unique, [t.oid])));
  const pending: string[] = [];
  for (const h of unique) {
    const same = targets.find((t) => t.oid === h);
    const ancestor = targets.find((_, i) => !(graphs[i] as Graph).has(h));
    if (same) out.set(h, { target: same.ref, how: "same_commit" });
    else if (ancestor) out.set(h, { target: ancestor.ref, how: "ancestor" });
    else pending.push(h);
  }
  if (pending.length === 0) return out;
  const [equivalent, mergeAddsNothing] = await Promise.all([
    Promise.all(targets.map((t, i) => patchEquivalence(cwd, pending, t, graphs[i] as Graph))),
    mergesAddingNothing(cwd, pending, targets),
  ]);
  for (const h of pending) out.set(h, decide(h, targets, equivalent, mergeAddsNothing));
  return out;
}

/** proveMerged's order: patch_equivalent against each target, then merge_adds_nothing against each; an error on the way is the answer. */
function decide(h: string, targets: readonly MergeTarget[], equivalent: Answers[], adds: Answers[]): MergedFact | Error {
  for (const [proof, answers] of [
    ["patch_equivalent", equivalent],
    ["merge_adds_nothing", adds],
  ] as const) {
    for (let i = 0; i < targets.length; i++) {
      const answer = answers[i]?.get(h);
      if (answer instanceof Error) return answer;
      if (answer === true) return { target: (targets[i] as MergeTarget).ref, how: proof };
    }
  }
  return { target: (targets[0] as MergeTarget).ref, how: null };
}

/** `git cherry target head` for each head alone (the fallback). */
async function cherryEach(cwd: string, heads: readonly string[], target: MergeTarget, into: Answers): Promise<Answers> {
  await mapLimit(heads, DEFAULT_PARALLELISM, async (h) => {
    into.set(h, await allCommitsEquivalent(cwd, target.oid, h).catch(asError));
  });
  return into;
}

async function patchEquivalence(cwd: string, heads: readonly string[], target: MergeTarget, graph: Graph): Promise<Answers> {
  const answers: Answers = new Map();
  try {
    const base = await readOctopusBase(cwd, [target.oid, ...heads]);
    const upstream = base === null ? null : await readRevListParents(cwd, [target.oid], [base]);
    if (upstream === null || upstream.size > UPSTREAM_LIMIT) return cherryEach(cwd, heads, target, answers);
    const own = new Map(heads.map((h) => [h, reachable(graph, [h])]));
    const wanted = new Set<string>();
    for (const commits of own.values()) for (const c of commits) if (nonMerge(graph, c)) wanted.add(c);
    for (const c of upstream.keys()) if (nonMerge(upstream, c)) wanted.add(c);
    const ids = await readCommitPatchIds(cwd, [...wanted]);
    const unsure: string[] = [];
    for (const h of heads) {
      const answer = judgeHead(own.get(h) as Set<string>, graph, upstream, ids);
      if (answer === "unsure") unsure.push(h);
      else answers.set(h, answer);
    }
    return unsure.length > 0 ? cherryEach(cwd, unsure, target, answers) : answers;
  } catch {
    // the batch itself failed: every head is asked alone, and answers (or fails) on its own
    return cherryEach(cwd, heads, target, answers);
  }
}

/**
 * One head's cherry verdict from the batch's patch-ids: true, false, or unsure (git decides). A
 * target commit without a text patch-id (a binary or an empty diff) could only equal a head commit
 * that has none either — and such a head is unsure anyway — so it never decides a verdict.
 */
function judgeHead(own: Set<string>, graph: Graph, upstream: Graph, ids: Map<string, string | null>): boolean | "unsure" {
  const mine = [...own].filter((c) => nonMerge(graph, c));
  if (mine.length === 0) return false; // git cherry lists nothing: not "every commit equivalent"
  const wanted: string[] = [];
  for (const c of mine) {
    const id = ids.get(c);
    if (!id) return "unsure";
    wanted.push(id);
  }
  // the target's commits the head already has: reachable from where the head's own commits end
  const boundary = [...own].flatMap((c) => (graph.get(c) ?? []).filter((p) => !graph.has(p)));
  const shared = reachable(upstream, boundary);
  const theirs = new Set<string>();
  for (const c of upstream.keys()) {
    const id = !shared.has(c) && nonMerge(upstream, c) ? ids.get(c) : null;
    if (id) theirs.add(id);
  }
  return wanted.every((id) => theirs.has(id));
}

/** merge_adds_nothing of every head against every target: one merge-tree run, else one per pair. */
async function mergesAddingNothing(cwd: string, heads: readonly string[], targets: readonly MergeTarget[]): Promise<Answers[]> {
  const answers = targets.map((): Answers => new Map());
  const pairs = targets.flatMap((t, i) => heads.map((h) => ({ i, target: t.oid, branch: h })));
  let trees: (string | null | Error)[];
  let targetTrees: (string | null)[];
  try {
    [trees, targetTrees] = await Promise.all([
      readMergeTrees(cwd, pairs),
      readObjectIds(
        cwd,
        targets.map((t) => `${t.oid}^{tree}`),
      ),
    ]);
  } catch {
    // no `--stdin`, or a pair git refuses (unrelated histories): each pair alone, as proveMerged
    targetTrees = await readObjectIds(
      cwd,
      targets.map((t) => `${t.oid}^{tree}`),
    ).catch(() => targets.map(() => null));
    trees = await mapLimit(pairs, DEFAULT_PARALLELISM, async (p) => {
      try {
        const merged = await readMergeTree(cwd, p.target, p.branch);
        return merged.clean ? merged.tree : null;
      } catch (error) {
        return asError(error);
      }
    });
  }
  pairs.forEach((p, k) => {
    const tree = trees[k];
    (answers[p.i] as Answers).set(p.branch, tree instanceof Error ? tree : tree !== null && tree !== undefined && tree === targetTrees[p.i]);
  });
  return answers;
}
