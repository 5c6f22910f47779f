// Fleet-level views of the hygiene report (pure): duplicate-task groups, patch-equivalent
// groups, the cleanup backlog and the summary. Every count is per worktree: a worktree is in
// exactly one disposition bucket, so no total counts it twice.
import {
  BACKLOG,
  DISPOSITIONS,
  type BacklogBucket,
  type Disposition,
  type DuplicateTaskGroup,
  type HygieneReport,
  type HygieneSummary,
  type HygieneWorktree,
  type PatchEquivalentGroup,
} from "./types.js";
import { assessPreservation } from "./assess.js";
import { isClean } from "../facts/index.js";

export type GroupMember = Pick<
  HygieneWorktree,
  "repo" | "handle" | "task" | "managed" | "disposition" | "path" | "createdAt" | "liveness" | "dirty" | "unpushed" | "merged"
>;

/** Holds work nobody else has (SPEC §3.6): dirty, work not preserved, or either one unknown. */
export function holdsUnpreservedWork(w: GroupMember): boolean {
  if (w.disposition === "needs_salvage") return true;
  if (!w.dirty || !isClean(w.dirty)) return true;
  return assessPreservation(w).state !== "yes";
}

/**
 * Canonical member (SPEC §3.6): the one holding the most work — unpreserved work or dirty first,
 * then live, then most commits ahead of its base (`ahead`, by path), then oldest `createdAt`;
 * ties by handle. An empty new worktree never outranks one with (pushed) commits.
 */
export function canonicalOf<T extends GroupMember>(members: readonly T[], ahead: ReadonlyMap<string, number | null> = new Map()): T {
  const key = (w: T) => [holdsUnpreservedWork(w) ? 0 : 1, w.liveness.state === "live" ? 0 : 1, -(ahead.get(w.path) ?? 0)];
  const byKey = (a: T, b: T): number => {
    const [ka, kb] = [key(a), key(b)];
    for (let i = 0; i < ka.length; i++) if (ka[i] !== kb[i]) return (ka[i] as number) - (kb[i] as number);
    return compareText(a.createdAt ?? "", b.createdAt ?? "") || compareText(a.handle ?? a.path, b.handle ?? b.path);
  };
  return [...members].sort(byKey)[0] as T;
}

const compareText = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/** Managed worktrees of one repo sharing a task, two or more (missing directories and husks are not allocations). */
export function taskGroups<T extends GroupMember>(worktrees: readonly T[]): T[][] {
  const groups = new Map<string, T[]>();
  for (const w of worktrees) {
    if (!w.managed || !w.task || !w.handle || !w.repo || w.disposition === "missing" || w.disposition === "husk") continue;
    const key = JSON.stringify([w.repo, w.task]);
    groups.set(key, [...(groups.get(key) ?? []), w]);
  }
  return [...groups.values()].filter((members) => members.length > 1);
}

/** The duplicate-task groups; `conflict` when two or more members hold unpreserved work (then nothing is to be removed). */
export function duplicateTaskGroups(worktrees: readonly GroupMember[], ahead: ReadonlyMap<string, number | null> = new Map()): DuplicateTaskGroup[] {
  const out: DuplicateTaskGroup[] = [];
  for (const members of taskGroups(worktrees)) {
    const canonical = canonicalOf(members, ahead);
    const handles = members.map((m) => m.handle as string).sort();
    out.push({
      repo: canonical.repo as string,
      task: canonical.task as string,
      handles,
      canonical: canonical.handle as string,
      others: handles.filter((h) => h !== canonical.handle),
      conflict: members.filter(holdsUnpreservedWork).length > 1,
    });
  }
  return out.sort((a, b) => a.repo.localeCompare(b.repo) || a.task.localeCompare(b.task));
}

export function patchEquivalentGroups(members: readonly { repo: string; path: string; handle: string | null; patchId: string }[]): PatchEquivalentGroup[] {
  const groups = new Map<string, (typeof members)[number][]>();
  for (const m of members) {
    const key = JSON.stringify([m.repo, m.patchId]);
    groups.set(key, [...(groups.get(key) ?? []), m]);
  }
  return [...groups.values()]
    .filter((g) => g.length > 1)
    .map((g) => {
      const sorted = [...g].sort((a, b) => a.path.localeCompare(b.path));
      const first = sorted[0] as (typeof members)[number];
      return { repo: first.repo, patchId: first.patchId, handles: sorted.map((m) => m.handle ?? m.path), paths: sorted.map((m) => m.path) };
    })
    .sort((a, b) => a.repo.localeCompare(b.repo) || a.patchId.localeCompare(b.patchId));
}

export function zeroCounts(): Record<Disposition, number> {
  return Object.fromEntries(DISPOSITIONS.map((d) => [d, 0])) as Record<Disposition, number>;
}

/** Backlog buckets: bytes are what each worktree frees alone (null when a member was not measured). */
export function cleanupBacklog(
  worktrees: readonly Pick<HygieneWorktree, "disposition" | "disk">[],
  totalBytes: number | null,
): HygieneReport["cleanupBacklog"] {
  const byDisposition: Partial<Record<Disposition, BacklogBucket>> = {};
  let count = 0;
  for (const w of worktrees) {
    if (!BACKLOG.includes(w.disposition)) continue;
    count++;
    const bucket = (byDisposition[w.disposition] ??= { count: 0, bytes: w.disk === undefined ? null : 0 });
    bucket.count++;
    if (bucket.bytes !== null) bucket.bytes = w.disk ? bucket.bytes + w.disk.uniqueBytes : null; // one unmeasured member: unknown
  }
  return { count, bytes: totalBytes, byDisposition };
}

export function summarize(worktrees: readonly Pick<HygieneWorktree, "disposition" | "managed">[]): HygieneSummary {
  const byDisposition = zeroCounts();
  for (const w of worktrees) byDisposition[w.disposition]++;
  const managed = worktrees.filter((w) => w.managed).length;
  const foreign = worktrees.filter((w) => !w.managed && w.disposition !== "husk").length;
  return { worktrees: worktrees.length, managed, foreign, byDisposition };
}
