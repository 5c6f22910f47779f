// What a cleanup run acts on, in words: said once before it acts (on a terminal, with its progress)
// and again, counted, as the first line of its result.
import type { ProgressEvent } from "../../core/shared/progress.js";
import type { KeptReclaim } from "../../core/cleanup/index.js";
import { formatBytes } from "../../core/shared/format.js";

const n = (counts: Readonly<Record<string, number>>, action: string): number => counts[action] ?? 0;

function countsOf(items: readonly { action: string }[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const i of items) counts[i.action] = (counts[i.action] ?? 0) + 1;
  return counts;
}

/** "2 worktree(s) removed, 1 reaped, 1 merged branch(es) deleted": what a run acted on, by action. */
export function actingOn(items: readonly { action: string }[]): string {
  const c = countsOf(items);
  const parts = [
    [n(c, "remove") + n(c, "salvage_remove"), "worktree(s) removed"],
    [n(c, "salvage_remove"), "of them salvaged first"],
    [n(c, "reap"), "reaped"],
    [n(c, "prune"), "entries pruned"],
    [n(c, "delete_branch"), "merged branch(es) deleted"],
  ] as const;
  return parts.flatMap(([k, what]) => (k ? [`${k} ${what}`] : [])).join(", ") || "nothing";
}

/** "cleanup run will remove 40 worktree(s), salvage 2 of them first, delete 40 merged branch(es)": before it acts. */
export function willDo(command: string, event: ProgressEvent): string | null {
  const intent = event.intent;
  if (!intent) return null;
  const c = intent.actions;
  const parts = [
    [n(c, "remove") + n(c, "salvage_remove"), (k: number) => `remove ${k} worktree(s)`],
    [n(c, "salvage_remove"), (k: number) => `salvage ${k} of them first`],
    [n(c, "reap"), (k: number) => `reap ${k} orphan(s)`],
    [n(c, "prune"), (k: number) => `prune ${k} ${k === 1 ? "entry" : "entries"}`],
    [n(c, "delete_branch"), (k: number) => `delete ${k} merged branch(es)`],
  ] as const;
  const what = parts.flatMap(([k, say]) => (k ? [say(k)] : [])).join(", ");
  if (!what) return null;
  const round = intent.round > 1 ? ` (round ${intent.round})` : "";
  return `${command}${round} will ${intent.bounded ? "take, until the floor is met, at most: " : ""}${what}`;
}

/** "kept copies (bootstrap.share): 1 removed (12 MiB), 2 kept": what a run or an apply did with them, or nothing. */
export function keptCopiesLine(k: KeptReclaim): string[] {
  const copies = k.removed;
  if (!copies.length && !k.kept) return [];
  const freed = copies.length ? ` (${formatBytes(copies.reduce((n, c) => n + (c.disk?.uniqueBytes ?? 0), 0))})` : "";
  return [`kept copies (bootstrap.share): ${copies.length} removed${freed}, ${k.kept} kept`];
}
