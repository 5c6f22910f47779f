// Harness bookkeeping is not work (issue 22 item 8): files a coding harness writes into every
// worktree it works in, whatever the task — Claude Code writes `.claude/settings.local.json` when a
// tool permission is approved there. A worktree whose only changes are such files (a named list;
// nothing else counts, not even another file beside them) is removed by cleanup and reap with
// those files saved in its salvage ref: nothing is lost, and cleanup converges. Pure.
import type { StatusSummary } from "../../git/parse/status.js";
import type { IgnoredFile } from "./ignored.js";

/** The harness bookkeeping files, relative to the worktree root. */
export const HARNESS_BOOKKEEPING: readonly string[] = [".claude/settings.local.json"];

/** The bookkeeping files when they are every change there is (tracked, untracked, unique ignored), else null. */
export function onlyBookkeeping(status: StatusSummary, ignored: readonly IgnoredFile[]): string[] | null {
  if (status.conflicted > 0) return null;
  const paths: string[] = ignored.map((f) => f.path);
  for (const p of status.paths) if (p.kind !== "ignored") paths.push(p.path, ...(p.origPath === undefined ? [] : [p.origPath]));
  if (paths.length === 0 || !paths.every((p) => HARNESS_BOOKKEEPING.includes(p))) return null;
  return [...new Set(paths)].sort();
}
