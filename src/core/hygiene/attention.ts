// The order a person deals with worktrees in, and what to run about them, for every human rendering
// of a hygiene report (the terminal table and the HTML page read these, so both agree): work at
// risk first (needs_salvage, unknown), then what cleanup converges (reapable, reclaimable, missing,
// husk), then what is kept (idle, live).
import type { Disposition, HygieneReport, HygieneWorktree } from "./types.js";

export const ATTENTION_ORDER: readonly Disposition[] = ["needs_salvage", "unknown", "reapable", "reclaimable", "missing", "husk", "idle", "live"];

export function attentionRank(d: string): number {
  const i = ATTENTION_ORDER.indexOf(d as Disposition);
  return i < 0 ? ATTENTION_ORDER.length : i;
}

/** Disposition by attention, then handle (or path, for a worktree without one). */
export function byAttention(a: Pick<HygieneWorktree, "disposition" | "handle" | "path">, b: Pick<HygieneWorktree, "disposition" | "handle" | "path">): number {
  return attentionRank(a.disposition) - attentionRank(b.disposition) || (a.handle ?? a.path).localeCompare(b.handle ?? b.path);
}

/** A live worktree nobody has touched for a day (no heartbeat, commit or change): its holder may be stuck. */
export const STUCK_AFTER_MS = 24 * 3600 * 1000;

export function looksStuck(w: Pick<HygieneWorktree, "disposition" | "lastActivity">, now: number): boolean {
  return w.disposition === "live" && w.lastActivity !== null && now - Date.parse(w.lastActivity) > STUCK_AFTER_MS;
}

/** What a person must look at row by row even in a fleet: work at risk, unknown, and live worktrees that look stuck. */
export function needsPerson(w: Pick<HygieneWorktree, "disposition" | "lastActivity">, now: number): boolean {
  return AT_RISK.has(w.disposition) || looksStuck(w, now);
}

/** Dispositions whose suggestions concern work at risk: never dropped from a human rendering. */
const AT_RISK: ReadonlySet<string> = new Set(["needs_salvage", "unknown"]);

export interface Todo {
  command: string;
  /** How many worktrees suggest it. */
  count: number;
  /** It concerns work at risk (needs_salvage, unknown, or a salvage): never dropped. */
  atRisk: boolean;
  /** Merged branches Orchard made that `cleanup run` deletes along with these worktrees. */
  branches: number;
}

/** The suggested commands, each once with its count: those about work at risk first, then the most common. */
export function whatToRun(r: Pick<HygieneReport, "worktrees">): Todo[] {
  const todo = new Map<string, Todo>();
  for (const w of r.worktrees) {
    if (!w.suggestion.command) continue;
    const entry = todo.get(w.suggestion.command) ?? { command: w.suggestion.command, count: 0, atRisk: false, branches: 0 };
    entry.count++;
    entry.atRisk ||= AT_RISK.has(w.disposition) || w.suggestion.action.includes("salvage");
    if (deletesBranch(w)) entry.branches++;
    todo.set(w.suggestion.command, entry);
  }
  return [...todo.values()].sort((a, b) => Number(b.atRisk) - Number(a.atRisk) || b.count - a.count);
}

/** `cleanup run` deletes the merged branch Orchard made for a worktree it removes (not a salvaged one: cleanup/plan.ts, deletableBranch). */
function deletesBranch(w: HygieneWorktree): boolean {
  return (
    /^orchard cleanup run\b/.test(w.suggestion.command ?? "") &&
    w.disposition !== "needs_salvage" &&
    w.managed &&
    Boolean(w.branch) &&
    (w.merged?.how === "same_commit" || w.merged?.how === "ancestor")
  );
}

/** " (also deletes 2 merged branches)" after a `cleanup run` suggestion, or "". */
export function branchNote(t: Pick<Todo, "branches">): string {
  return t.branches ? ` (also deletes ${t.branches} merged branch${t.branches === 1 ? "" : "es"})` : "";
}
