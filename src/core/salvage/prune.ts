// `orchard salvage prune` (SPEC v4 §3 new verbs). Salvage refs pile up: every cleanup of work at
// risk makes one. A ref is pruned when its content is preserved elsewhere — the salvage commit is
// reachable from the default branch (same commit, ancestor) or a merge of it adds nothing (its
// blobs are the branch's: byte-equal trees; facts/merged.ts), or it salvaged nothing beyond its
// HEAD and that HEAD is on a remote. Never by patch-id (SPEC v5 §4): a commit of main that only
// re-indents the salvaged file is another program. With `--older-than <d>` a ref older than that goes too, whatever it
// holds: the caller asked by age, and each such ref is marked `uniqueWork` (a note counts them). Never silently: every pruned ref is listed with why (and its
// commit, so `git update-ref <ref> <commit>` brings it back while git keeps the object), every kept
// ref with its reason. Deletes are compare-and-swap, under the repo's mutation lock.
import { countNotOnRemotes, readRefs, resolveCommit, resolveTree } from "../../git/read.js";
import { deleteRef } from "../../git/write.js";
import { distinctTargets, proveMerged } from "../facts/index.js";
import { withMutationLock } from "../ownership/index.js";
import { readDefaultBranch, targetRefs } from "../shared/repo/repo.js";
import { requireDuration } from "../shared/input/validate.js";
import { reason, type Reason } from "../shared/reasons/reasons.js";
import type { MergedHow } from "../shared/types.js";
import type { Ctx } from "../shared/context.js";
import { salvageList, type SalvageEntry } from "./restore.js";

export interface SalvagePruneOptions {
  /** Also prune refs older than this (e.g. 30d), whatever they hold. */
  olderThan?: string | undefined;
  dryRun?: boolean | undefined;
}

export interface PrunedSalvage extends SalvageEntry {
  /** `preserved`: its content is in the default branch (`how`) or on a remote (`how: "pushed"`); `older_than`: asked by age. */
  why: "preserved" | "older_than";
  how?: MergedHow | "pushed";
  /** Pruned by age while its content is preserved nowhere else: the work it holds goes with it. */
  uniqueWork?: true;
}

export interface KeptSalvage extends SalvageEntry {
  reasons: Reason[];
}

export interface SalvagePruneResult {
  ok: true;
  pruned: PrunedSalvage[];
  kept: KeptSalvage[];
  /** `salvage_unique_work` when a ref pruned by age holds work that exists nowhere else. */
  notes: Reason[];
  dryRun?: true;
}

export async function salvagePrune(ctx: Ctx, options: SalvagePruneOptions): Promise<SalvagePruneResult> {
  const olderThanMs = options.olderThan === undefined ? null : requireDuration(options.olderThan, "older-than", 0);
  const { salvages } = await salvageList(ctx);
  const main = await readDefaultBranch(ctx.repo);
  const wanted = main ? targetRefs(ctx.repo, main.name, new Set([`refs/heads/${main.name}`, `refs/remotes/origin/${main.name}`])) : [];
  const refs = new Map((wanted.length > 0 ? await readRefs(ctx.repo.primary, wanted) : []).map((r) => [r.ref, r]));
  const targets = main ? distinctTargets(targetRefs(ctx.repo, main.name, new Set(refs.keys())), refs) : [];
  const pruned: PrunedSalvage[] = [];
  const kept: KeptSalvage[] = [];
  const now = Date.now();
  for (const s of salvages) {
    const how = await preservedHow(ctx, s, targets);
    if (how) pruned.push({ ...s, why: "preserved", how });
    else if (olderThanMs !== null && s.at !== null && Date.parse(s.at) <= now - olderThanMs) pruned.push({ ...s, why: "older_than", uniqueWork: true });
    else kept.push({ ...s, reasons: keptReasons(s, olderThanMs) });
  }
  if (options.dryRun) return { ok: true, pruned, kept, notes: uniqueNotes(pruned), dryRun: true };
  const gone: PrunedSalvage[] = [];
  await withMutationLock(ctx.repo.commonDir, async () => {
    for (const p of pruned) {
      if (await deleteRef(ctx.repo.primary, p.ref, p.commit)) gone.push(p);
      else kept.push({ ...p, reasons: [reason("precondition_changed", { field: "ref", planned: p.commit, now: null })] });
    }
  });
  return { ok: true, pruned: gone, kept, notes: uniqueNotes(gone) };
}

/** Said once in the result: how many of the refs pruned by age took work that exists nowhere else. */
function uniqueNotes(pruned: readonly PrunedSalvage[]): Reason[] {
  const unique = pruned.filter((p) => p.uniqueWork).map((p) => p.ref);
  return unique.length === 0 ? [] : [reason("salvage_unique_work", { count: unique.length, refs: unique })];
}

/** How the salvage's content is preserved elsewhere; null when it is not (or that cannot be proved). */
async function preservedHow(ctx: Ctx, s: SalvageEntry, targets: Parameters<typeof proveMerged>[2]): Promise<MergedHow | "pushed" | null> {
  // further parents are commits a HEAD reflog alone kept (salvage.ts): each must be preserved on its own
  // (the salvage's tree is HEAD's state, so a merge of the salvage would not carry their content)
  for (let n = 2; n <= 256; n++) {
    const parent = await resolveCommit(ctx.repo.primary, `${s.commit}^${n}`);
    if (parent === null) break;
    if (targets.length === 0 || !(await proveMerged(ctx.repo.primary, parent, targets)).how) return null;
  }
  if (targets.length > 0) {
    const merged = await proveMerged(ctx.repo.primary, s.commit, targets, { patches: false });
    if (merged.how) return merged.how;
  }
  if (ctx.repo.remotes.length === 0) return null;
  const [tree, parentTree, second] = await Promise.all([
    resolveTree(ctx.repo.primary, s.commit),
    resolveTree(ctx.repo.primary, `${s.commit}^`),
    resolveTree(ctx.repo.primary, `${s.commit}^2`), // a further parent: commits a HEAD reflog alone kept (salvage.ts), not proven pushed by HEAD
  ]);
  if (tree === null || second !== null || tree !== parentTree || !s.head || !/^[0-9a-f]{40}(?:[0-9a-f]{24})?$/.test(s.head)) return null;
  return (await countNotOnRemotes(ctx.repo.primary, s.head)) === 0 ? "pushed" : null;
}

function keptReasons(s: SalvageEntry, olderThanMs: number | null): Reason[] {
  const why: Reason[] = [reason("work_not_preserved", { unpushed: null, head: s.head })];
  if (olderThanMs === null) return why;
  if (s.at === null || Number.isNaN(Date.parse(s.at))) return [...why, reason("fact_unknown", { fact: "at" }, "the salvage's time")];
  return [...why, reason("too_recent", { lastActivity: s.at })];
}
