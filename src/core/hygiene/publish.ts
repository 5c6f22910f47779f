// What `hygiene` publishes for the fleet (SPEC §5): per repo, this host's compact summary — counts
// by disposition, the backlog, disk if measured, group counts — replacing the host's previous one.
// `hygiene --fleet` reads every host's last summary beside the registry's rows: a host's backlog
// and disk are facts only that host can read. Every `hygiene` run publishes (it reads every
// worktree of each repo in scope, so its summary is whole); `cleanup plan` and the rest do not.
import { BACKLOG, type Disposition, type HygieneReport, type HygieneWorktree, type PublishedSummary } from "./types.js";
import { summarize } from "./groups.js";
import type { Ctx } from "../shared/context.js";

/** Backlog dispositions that hold work nobody else has: salvaged before anything is removed. */
const NEEDS_ACTION: readonly Disposition[] = ["needs_salvage"];

/** The summary of one repo's part of a report (pure). */
export function summaryOf(
  worktrees: readonly HygieneWorktree[],
  context: { generatedAt: string; duplicateTaskGroups: number; preventableDuplicates: number; diskMeasured: boolean },
): PublishedSummary {
  const s = summarize(worktrees);
  const backlog = worktrees.filter((w) => BACKLOG.includes(w.disposition));
  const needsAction = backlog.filter((w) => NEEDS_ACTION.includes(w.disposition)).length;
  const measured = worktrees.filter((w) => w.disk);
  return {
    generatedAt: context.generatedAt,
    worktrees: s.worktrees,
    managed: s.managed,
    foreign: s.foreign,
    byDisposition: s.byDisposition,
    backlog: {
      count: backlog.length,
      reclaimable: backlog.length - needsAction,
      needsAction,
      bytes: context.diskMeasured && backlog.every((w) => w.disk) ? backlog.reduce((n, w) => n + (w.disk?.uniqueBytes ?? 0), 0) : null,
    },
    disk: context.diskMeasured
      ? {
          bytes: measured.reduce((n, w) => n + (w.disk?.bytes ?? 0), 0),
          apparentBytes: measured.reduce((n, w) => n + (w.disk?.apparentBytes ?? 0), 0),
          allocatedBytes: measured.reduce((n, w) => n + (w.disk?.allocatedBytes ?? 0), 0),
          measured: measured.length,
          unmeasured: worktrees.length - measured.length,
        }
      : null,
    duplicateTaskGroups: context.duplicateTaskGroups,
    preventableDuplicates: context.preventableDuplicates,
  };
}

/** Publishes this host's summary of every repo the report covers, in one transaction. */
export async function publishSummaries(ctxs: readonly Ctx[], report: HygieneReport): Promise<void> {
  const registry = (ctxs[0] as Ctx).registry;
  const summaries: [string, PublishedSummary][] = [];
  for (const ctx of ctxs) {
    const repo = ctx.repo.identity;
    summaries.push([
      repo,
      summaryOf(
        report.worktrees.filter((w) => w.repo === repo),
        {
          generatedAt: report.generatedAt,
          duplicateTaskGroups: report.duplicateTaskGroups.filter((g) => g.repo === repo).length,
          preventableDuplicates: await registry.events.count(repo, "preventable_duplicate"),
          diskMeasured: report.summary.disk !== undefined,
        },
      ),
    ]);
  }
  await registry.write(async () => {
    for (const [repo, summary] of summaries) await registry.summaries.publish(repo, { ...summary });
  });
}
