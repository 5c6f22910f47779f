// A wave's facts read once per batch of entries, under the mutation lock right before the batch's
// entries use them, instead of once per entry (SPEC §3.9 steps 1, 3, 4 and the merged proofs of
// §4.5): every entry's branch and the target in one `for-each-ref`; ancestry and merge base from one
// `rev-list` of the commits the target T0 lacks; `git cherry`'s verdict, whitespace seen, from one
// `diff-tree | patch-id --verbatim` pass; the deletions since each expected base from one
// `diff-tree --stdin`.
//
// The batch proves against T0, the target's tip when it was read; an entry is merged against Tk,
// T0 plus the wave's own merges of the entries before it. The answers are the same when no two
// entries of the batch share a commit T0 lacks and no two such commits have one patch-id: then the
// commits Tk has and a branch lacks are T0's plus the other branches' and the wave's merge commits,
// none of which is an ancestor of the branch or equivalent to one of its commits, and a branch's own
// commits are the same set. An entry for which the batch cannot show that (a shared commit, a
// patch-id shared or unknown, several merge bases) has no batch proof: it is proven alone at its
// moment of use, exactly as before. The target's tip is checked at each entry (in-process, from its
// ref file) and after each merge (the new commit's parents must be Tk and the branch's tip): any
// other move of the target ends the batch, and the next one is read against where the target is.
import { readCommitPatchIds, readCommitTrees, readOctopusBase, readRevListParents, resolveCommit } from "../../git/read.js";
import { readDeletedFilesMany, readLooseCommit, readLooseRef } from "../../git/history/wave.js";
import { basename, join } from "node:path";
import { findAdminDir, readAdminWorktreePath } from "../shared/repo/admin.js";
import type { Ctx } from "../shared/context.js";
import { nonMerge, reachable, type Graph } from "../facts/index.js";
import type { WaveEntry } from "./manifest.js";

/** Beyond this many target commits since the entries' common base, the batch proves nothing: each entry asks git alone. */
const UPSTREAM_LIMIT = 50_000;

/** An entry's proofs at the batch's start: merged (how), or not, and the merge base. */
export interface BatchProof {
  merged: "same_commit" | "ancestor" | "patch_equivalent" | null;
  base: string;
}

export interface WaveBatch {
  /** The target's ref and where the batch believes it is: T0, then each merge of the wave's own. */
  targetRef: string;
  tip: string;
  tree: string;
  /** Branch tips (full refs) as read at the batch's start; null: the branch does not exist. */
  tips: Map<string, string | null>;
  /** Proofs of the entries the batch could prove (by branch); an entry without one is proven alone. */
  proofs: Map<string, BatchProof>;
  /** Files deleted since the expected base, by branch (an Error: the check failed for that entry). */
  deletions: Map<string, string[] | Error>;
  /** The target moved other than by the wave: the entries after this one need a new batch. */
  stale: boolean;
}

/** The facts of `entries` (one batch) against the target's tip now; null when the target has no commit. */
/** Patch-ids the wave's batches already read (a commit's never changes): each batch asks only for new commits. */
export type PatchIdCache = Map<string, string | null>;

export async function readBatch(
  ctx: Ctx,
  targetRef: string,
  entries: readonly WaveEntry[],
  options: { allowDeletions: boolean; patchIds: PatchIdCache },
): Promise<WaveBatch | null> {
  const cwd = ctx.repo.primary;
  const refs = await readCommitTrees(cwd, [targetRef, ...entries.map((e) => `refs/heads/${e.branch}`)]);
  const target = refs.get(targetRef);
  if (!target) return null;
  const tips = new Map(entries.map((e) => [e.branch, refs.get(`refs/heads/${e.branch}`)?.commit ?? null]));
  const present = entries.filter((e) => tips.get(e.branch));
  const batch: WaveBatch = { targetRef, tip: target.commit, tree: target.tree, tips, proofs: new Map(), deletions: new Map(), stale: false };
  const wanted = options.allowDeletions ? [] : present.filter((e) => tips.get(e.branch) !== e.expected_base_sha);
  const [, deletions] = await Promise.all([
    proveAll(cwd, batch, present, options.patchIds),
    readDeletedFilesMany(
      cwd,
      wanted.map((e) => ({ from: e.expected_base_sha, to: tips.get(e.branch) as string })),
    ).catch((error: unknown) => (error instanceof Error ? error : new Error(String(error)))),
  ]);
  wanted.forEach((e, i) => batch.deletions.set(e.branch, deletions instanceof Error ? deletions : (deletions[i] as string[])));
  return batch;
}

/** Fills `batch.proofs` for the entries the batch can prove; a failure proves nothing (each entry then asks git alone). */
async function proveAll(cwd: string, batch: WaveBatch, entries: readonly WaveEntry[], patchIds: PatchIdCache): Promise<void> {
  try {
    const t0 = batch.tip;
    const heads = entries.map((e) => [e, batch.tips.get(e.branch) as string] as const);
    const graph = await readRevListParents(cwd, [...new Set(heads.map(([, tip]) => tip))], [t0]);
    // each branch's own commits (those T0 lacks); a commit two branches share makes both unprovable here
    const owner = new Map<string, string>();
    const shared = new Set<string>();
    const own = new Map<string, Set<string>>();
    for (const [e, tip] of heads) {
      const mine = reachable(graph, [tip]);
      own.set(e.branch, mine);
      for (const c of mine) {
        const first = owner.get(c);
        if (first === undefined) owner.set(c, e.branch);
        else (shared.add(first), shared.add(e.branch));
      }
    }
    const pending: (readonly [WaveEntry, string])[] = [];
    for (const [e, tip] of heads) {
      if (tip === t0) batch.proofs.set(e.branch, { merged: "same_commit", base: tip });
      else if (!graph.has(tip)) batch.proofs.set(e.branch, { merged: "ancestor", base: tip });
      else if (!shared.has(e.branch)) pending.push([e, tip]);
    }
    if (pending.length === 0) return;
    // the merge base: the one commit of T0 the branch's own commits start from (several: git decides, alone)
    const bases = new Map<string, string>();
    for (const [e] of pending) {
      const boundary = new Set([...(own.get(e.branch) as Set<string>)].flatMap((c) => (graph.get(c) ?? []).filter((p) => !graph.has(p))));
      if (boundary.size === 1) bases.set(e.branch, [...boundary][0] as string);
    }
    const provable = pending.filter(([e]) => bases.has(e.branch));
    if (provable.length === 0) return;
    // every head the target lacks takes part in the patch-id comparison (a clash with one proven alone counts too)
    const unmerged = heads.filter(([, tip]) => graph.has(tip)).map(([e]) => e.branch);
    const equivalent = await patchEquivalence(cwd, t0, provable, { graph, own, unmerged, patchIds });
    for (const [e] of provable) {
      const answer = equivalent.get(e.branch);
      if (answer === undefined) continue; // unsure: proven alone
      batch.proofs.set(e.branch, { merged: answer ? "patch_equivalent" : null, base: bases.get(e.branch) as string });
    }
  } catch {
    batch.proofs.clear(); // the batch could not prove: every entry asks git alone, as before
  }
}

/**
 * `git cherry T0 <tip>` for each head, decided from one patch-id pass: every non-merge commit of the
 * head has a patch-id among T0's non-merge commits the head lacks. Absent from the answer: unsure
 * (a commit without a text patch-id, one whose patch-id another head of the batch also has).
 */
async function patchEquivalence(
  cwd: string,
  t0: string,
  heads: readonly (readonly [WaveEntry, string])[],
  known: { graph: Graph; own: ReadonlyMap<string, Set<string>>; unmerged: readonly string[]; patchIds: PatchIdCache },
): Promise<Map<string, boolean>> {
  const { graph, own, unmerged, patchIds } = known;
  const answers = new Map<string, boolean>();
  const base = await readOctopusBase(cwd, [t0, ...heads.map(([, tip]) => tip)]);
  if (base === null) return answers;
  const upstream = await readRevListParents(cwd, [t0], [base]);
  if (upstream.size > UPSTREAM_LIMIT) return answers;
  const wanted = new Set<string>();
  for (const branch of unmerged) for (const c of own.get(branch) as Set<string>) if (nonMerge(graph, c)) wanted.add(c);
  for (const c of upstream.keys()) if (nonMerge(upstream, c)) wanted.add(c);
  const missing = [...wanted].filter((c) => !patchIds.has(c));
  for (const [c, id] of await readCommitPatchIds(cwd, missing)) patchIds.set(c, id);
  const ids = patchIds;
  // a patch-id two heads' commits share: a merge of one could make the other equivalent later in the batch
  const seen = new Map<string, string>();
  const clash = new Set<string>();
  for (const branch of unmerged)
    for (const c of own.get(branch) as Set<string>) {
      const id = nonMerge(graph, c) ? ids.get(c) : null;
      if (!id) continue;
      const first = seen.get(id);
      if (first !== undefined && first !== branch) (clash.add(first), clash.add(branch));
      else seen.set(id, branch);
    }
  const upstreamIds = new Map<string, Set<string>>();
  for (const [e] of heads) {
    if (clash.has(e.branch)) continue;
    const mine = [...(own.get(e.branch) as Set<string>)].filter((c) => nonMerge(graph, c));
    if (mine.length === 0) {
      answers.set(e.branch, false); // git cherry lists nothing: not "every commit equivalent"
      continue;
    }
    // heads that start from the same commits of T0 compare with the same commits (usually every head of a wave)
    const boundary = [...(own.get(e.branch) as Set<string>)].flatMap((c) => (graph.get(c) ?? []).filter((p) => !graph.has(p)));
    const key = [...new Set(boundary)].sort().join(" ");
    const theirIds = upstreamIds.get(key) ?? theirs(boundary, upstream, ids);
    upstreamIds.set(key, theirIds);
    const mineIds = mine.map((c) => ids.get(c));
    if (mineIds.some((id) => !id)) continue; // unsure
    answers.set(
      e.branch,
      mineIds.every((id) => theirIds.has(id as string)),
    );
  }
  return answers;
}

/** Patch-ids of T0's non-merge commits the head lacks (those above where the head's own commits start). */
function theirs(boundary: readonly string[], upstream: Graph, ids: ReadonlyMap<string, string | null>): Set<string> {
  const sharedWithHead = new Set<string>();
  for (const b of boundary) for (const c of reachable(upstream, [b])) sharedWithHead.add(c);
  const out = new Set<string>();
  for (const c of upstream.keys()) {
    const id = !sharedWithHead.has(c) && nonMerge(upstream, c) ? ids.get(c) : null;
    if (id) out.add(id);
  }
  return out;
}

/**
 * Whether git still lists the worktree just removed at `path`: the admin dir the removal took
 * (`admin`) names it again, or the one named after its directory does (a worktree added there
 * meanwhile) — read again now, one file each, whatever the fleet. Without a known admin dir (the
 * removal never started) it is looked for among every admin dir, as findAdminDir does.
 */
export function stillListed(commonDir: string, admin: string | undefined, path: string): boolean {
  if (admin === undefined) return findAdminDir(commonDir, path) !== undefined;
  return readAdminWorktreePath(admin) === path || readAdminWorktreePath(join(commonDir, "worktrees", basename(path))) === path;
}

/** The target's tip now, in-process from its ref file when it is loose (else one rev-parse). */
export async function targetTipNow(ctx: Ctx, batch: WaveBatch): Promise<string | null> {
  return readLooseRef(ctx.repo.commonDir, batch.targetRef) ?? (await resolveCommit(ctx.repo.primary, batch.targetRef));
}

/**
 * After the wave merged `tip` into the batch's Tk: the target's new tip must be that merge (its
 * parents Tk and `tip`, read in-process from the loose commit git just wrote); then it is the
 * batch's Tk+1, with that commit's tree. Anything else ends the batch.
 */
export async function advanceBatch(ctx: Ctx, batch: WaveBatch, tip: string): Promise<void> {
  const now = await targetTipNow(ctx, batch);
  const merge = now === null ? null : readLooseCommit(ctx.repo.commonDir, now);
  if (now === null || merge === null || merge.parents.length !== 2 || merge.parents[0] !== batch.tip || merge.parents[1] !== tip) {
    batch.stale = true;
    return;
  }
  batch.tip = now;
  batch.tree = merge.tree;
}
