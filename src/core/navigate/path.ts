// `orchard path <handle|task>` (SPEC v4 §3 new verbs): where a worktree is, for `cd` (shell-init.ts
// defines `orchard cd` on it). The argument is resolved as every `<handle|path>` is (a handle, a
// path, the branch of a managed worktree); failing that, as a task in any of its spellings: the
// managed worktrees of this repo on this host with that canonical task, active before released,
// the most recently used first. A worktree whose directory is gone is refused (exit 3), never
// printed: a `cd` into it would fail, or land in whatever took its place.
import { existsSync } from "node:fs";
import { resolveTarget, type Target } from "../shared/repo/target.js";
import { canonicalTask } from "../shared/naming/task.js";
import { OrchardError, usageError } from "../shared/errors.js";
import { reason, type Reason } from "../shared/reasons/reasons.js";
import { shellQuote } from "../shared/shell-quote.js";
import { HOST } from "../ownership/index.js";
import type { Ctx } from "../shared/context.js";
import type { WorktreeRow } from "../../registry/index.js";
import type { WorktreeEntry } from "../../git/parse/worktrees.js";

export interface PathOptions {
  /** A handle, a worktree path, the branch of a managed worktree, or a task. */
  target: string;
}

interface PathFields {
  path: string;
  handle: string | null;
  branch: string | null;
  task: string | null;
  /** How the argument was read: as a handle, path or branch, or as a task. */
  via: "target" | "task";
  /** Other worktrees of the same task (task lookup only), most recently used first. */
  others?: string[];
}

export type PathResult = (PathFields & { ok: true }) | (PathFields & { ok: false; action: "refused"; reasons: Reason[]; next: string | null });

export async function worktreePath(ctx: Ctx, options: PathOptions): Promise<PathResult> {
  const found = (await byTarget(ctx, options.target)) ?? (await byTask(ctx, options.target));
  if (!found) throw usageError("not_a_worktree", `${options.target} is not a handle, worktree path, managed branch or task of ${ctx.repo.primary}`);
  if (existsSync(found.path)) return { ok: true, ...found };
  const next = found.branch ? `orchard add ${shellQuote(found.branch)}` : null;
  return { ok: false, action: "refused", ...found, reasons: [reason("missing_directory", { registeredWithGit: true })], next };
}

/**
 * A `<handle|path|task>` argument of a verb that acts on one worktree (release, bootstrap): as
 * resolveTarget reads it, failing that as a task — refused (exit 2) when the task names more than
 * one active worktree, since acting on one of them is a guess.
 */
export async function resolveTargetOrTask(ctx: Ctx, text: string, known?: WorktreeEntry[]): Promise<Target> {
  try {
    return await resolveTarget(ctx, text, known);
  } catch (error) {
    if (!(error instanceof OrchardError && error.code === "not_a_worktree")) throw error;
    const found = await byTask(ctx, text);
    if (!found) throw error;
    const rows = await ctx.registry.worktrees.current(ctx.repo.identity);
    const active = rows.filter((r) => r.task === found.task && r.lifecycle === "active" && (r.host === null || r.host === HOST));
    if (active.length > 1)
      throw usageError("invalid_argument", `the task ${text} names ${active.length} active worktrees (${active.map((r) => r.handle).join(", ")}): name one`);
    return await resolveTarget(ctx, found.path, known);
  }
}

async function byTarget(ctx: Ctx, text: string): Promise<PathFields | null> {
  let target: Target;
  try {
    target = await resolveTarget(ctx, text);
  } catch (error) {
    if (error instanceof OrchardError && error.code === "not_a_worktree") return null; // not a handle, path or branch: a task, perhaps
    throw error;
  }
  const branch = target.row?.branch ?? target.entry?.branch?.replace(/^refs\/heads\//, "") ?? null;
  return { path: target.path, handle: target.row?.handle ?? null, branch, task: target.row?.task ?? null, via: "target" };
}

const RANK: Record<string, number> = { active: 0, terminal: 1 };

async function byTask(ctx: Ctx, text: string): Promise<PathFields | null> {
  if (!text.trim()) return null;
  const task = canonicalTask(text, ctx.repo.identity);
  const rows = (await ctx.registry.worktrees.current(ctx.repo.identity)).filter(
    (r) => r.task === task && (r.host === null || r.host === HOST) && r.lifecycle in RANK,
  );
  const ordered = rows.sort(
    (a: WorktreeRow, b: WorktreeRow) => (RANK[a.lifecycle] ?? 9) - (RANK[b.lifecycle] ?? 9) || b.lastActivityAt.localeCompare(a.lastActivityAt),
  );
  const first = ordered[0];
  if (!first) return null;
  const others = ordered.slice(1).map((r) => r.handle);
  return { path: first.path, handle: first.handle, branch: first.branch, task, via: "task", ...(others.length > 0 ? { others } : {}) };
}
