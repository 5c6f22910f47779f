// The kept copies of bootstrap.share in hygiene and cleanup (SPEC v4 §6: "managed like
// worktrees"): each copy of a repo in scope with the worktrees of its fingerprint, its verdict
// (share/reclaim.ts) and, when measured, its disk. Copies of repos out of scope are left alone.
import { assessKept, listKept, readKeptChange, sharedDirsOf, usesCopy, type KeptCopy, type KeptVerdict } from "../share/index.js";
import { parseSize } from "../shared/config.js";
import type { Ctx } from "../shared/context.js";
import type { HygieneWorktree, KeptCopyView } from "./types.js";

export interface KeptAssessment {
  ctx: Ctx;
  copy: KeptCopy;
  view: KeptCopyView;
  worktrees: number;
  /** Why the copy changed since it was kept (share_modified), when checked. */
  modified: string | null;
}

/** The copies of the repos in scope, with the worktrees that use each (reads only: builds under way or left by a crash are not copies; `add` and `cleanup run` sweep those). */
export function gatherKept(ctxs: readonly Ctx[], worktrees: readonly HygieneWorktree[], options: { verify?: boolean } = {}): KeptAssessment[] {
  const first = ctxs[0];
  if (!first) return [];
  const byName = new Map(ctxs.map((c) => [c.repo.name, c]));
  const out: KeptAssessment[] = [];
  for (const copy of listKept(first.workspace.home)) {
    const ctx = byName.get(copy.repo);
    if (!ctx) continue;
    const dirs = sharedDirsOf(ctx.repo.config.config);
    const users = worktrees.filter((w) => w.repo === ctx.repo.identity && w.managed && !w.missing && usesCopy(copy, w.fingerprints, dirs)).length;
    const view: KeptCopyView = {
      repo: ctx.repo.identity,
      key: copy.key,
      path: copy.path,
      dirs: [...(copy.marker?.dirs ?? [])],
      method: copy.marker?.method ?? null,
      createdAt: copy.marker?.createdAt ?? null,
      lastUsed: copy.lastUsed,
      worktrees: users,
      disposition: "kept",
      reasons: [],
    };
    // `hygiene --disk` and cleanup read every entry's stat data: a changed copy is share_modified
    out.push({ ctx, copy, view, worktrees: users, modified: options.verify ? readKeptChange(copy) : null });
  }
  judgeKept(out);
  return out;
}

/** Sets each view's disposition: per repo, with its `disk.shareBudget` over the measured bytes. */
export function judgeKept(kept: readonly KeptAssessment[]): KeptVerdict[] {
  const verdicts: KeptVerdict[] = [];
  for (const ctx of new Set(kept.map((k) => k.ctx))) {
    const mine = kept.filter((k) => k.ctx === ctx);
    const budgetText = ctx.repo.config.config.disk?.shareBudget;
    const budget = budgetText === undefined ? null : parseSize(budgetText);
    const judged = assessKept(
      mine.map((k) => ({ copy: k.copy, worktrees: k.worktrees, bytes: k.view.disk ? k.view.disk.allocatedBytes : null, modified: k.modified })),
      budget,
    );
    judged.forEach((v, i) => {
      const view = (mine[i] as KeptAssessment).view;
      view.disposition = v.reclaim ? "reclaimable" : "kept";
      view.reasons = v.reasons;
    });
    verdicts.push(...judged);
  }
  return verdicts;
}

/** Some repo in scope has a share budget: its copies must be measured to be judged. */
export const needsKeptBytes = (kept: readonly KeptAssessment[]): boolean => kept.some((k) => k.ctx.repo.config.config.disk?.shareBudget !== undefined);
