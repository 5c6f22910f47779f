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

type GroupMember = Pick<HygieneWorktree, "repo" | "handle" | "task" | "managed" | "disposition" | "lastActivity" | "path">;

/** Holds work nobody else has: dirty, or commits neither merged nor pushed. */
function holdsUnpreservedWork(w: GroupMember): boolean {
  return w.disposition === "needs_salvage" || w.disposition === "idle";
}

/** Canonical member: live, else holding unpreserved work, else newest activity; ties by handle. */
export function canonicalOf<T extends GroupMember>(members: readonly T[]): T {
  const rank = (w: T): number => (w.disposition === "live" ? 0 : holdsUnpreservedWork(w) ? 1 : 2);
  return [...members].sort(
    (a, b) => rank(a) - rank(b) || (b.lastActivity ?? "").localeCompare(a.lastActivity ?? "") || (a.handle ?? a.path).localeCompare(b.handle ?? b.path),
  )[0] as T;
}

/** Managed worktrees of one repo sharing a task (missing directories and husks are not allocations). */
export function duplicateTaskGroups(worktrees: readonly GroupMember[]): DuplicateTaskGroup[] {
  const groups = new Map<string, GroupMember[]>();
  for (const w of worktrees) {
    if (!w.managed || !w.task || !w.handle || !w.repo || w.disposition === "missing" || w.disposition === "husk") continue;
    const key = JSON.stringify([w.repo, w.task]);
    groups.set(key, [...(groups.get(key) ?? []), w]);
  }
  const out: DuplicateTaskGroup[] = [];
  for (const members of groups.values()) {
    if (members.length < 2) continue;
    const canonical = canonicalOf(members);
    const handles = members.map((m) => m.handle as string).sort();
    out.push({
      repo: canonical.repo as string,
      task: canonical.task as string,
      handles,
      canonical: canonical.handle as string,
      others: handles.filter((h) => h !== canonical.handle),
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
