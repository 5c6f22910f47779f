// `orchard path <handle|task>` (SPEC v4 §3 new verbs): where a worktree is, for `cd` (shell-init.ts
// defines `orchard cd` on it). The argument is resolved as every `<handle|path>` is (a handle, a
// path, the branch of a managed worktree); failing that, as a task in any of its spellings: the
// managed worktrees of this repo on this host with that canonical task, active before released,
// the most recently used first. A worktree whose directory is gone is refused (exit 3), never
// printed: a `cd` into it would fail, or land in whatever took its place. No target, `^`, or the
// name of the default branch answers the primary (SPEC v5 §3), as `cd` alone goes home.
import { existsSync } from "node:fs";
import { resolveTarget, type Target } from "../shared/repo/target.js";
import { canonicalTask } from "../shared/naming/task.js";
import { OrchardError, usageError } from "../shared/errors.js";
import { reason, type Reason } from "../shared/reasons/reasons.js";
import { shellQuote } from "../shared/shell-quote.js";
import { HOST } from "../ownership/index.js";
import type { Ctx } from "../shared/context.js";
import type { WorktreeRow } from "../../registry/index.js";
import { readDefaultBranch } from "../shared/repo/repo.js";

export interface PathOptions {
  /** A handle, a worktree path, the branch of a managed worktree, or a task; none, `^` or the default branch: the primary. */
  target?: string | undefined;
}

interface PathFields {
  path: string;
  handle: string | null;
  branch: string | null;
  task: string | null;
  /** How the argument was read: as a handle, path or branch, as a task, or as the primary (none, `^`, the default branch). */
  via: "target" | "task" | "primary";
  /** Other worktrees of the same task (task lookup only), most recently used first. */
  others?: string[];
}

export type PathResult = (PathFields & { ok: true }) | (PathFields & { ok: false; action: "refused"; reasons: Reason[]; next: string | null });

export async function worktreePath(ctx: Ctx, options: PathOptions): Promise<PathResult> {
  const text = options.target ?? "";
  const found =
    text === "" || text === "^" ? await primary(ctx) : ((await byTarget(ctx, text)) ?? (await byTask(ctx, text)) ?? (await byDefaultBranch(ctx, text)));
  if (!found) throw usageError("not_a_worktree", `${text} is not a handle, worktree path, managed branch or task of ${ctx.repo.primary}`);
  if (existsSync(found.path)) return { ok: true, ...found };
  const next = found.branch ? `orchard add ${shellQuote(found.branch)}` : null;
  return { ok: false, action: "refused", ...found, reasons: [reason("missing_directory", { registeredWithGit: true })], next };
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

async function primary(ctx: Ctx, branch?: string): Promise<PathFields> {
  const name = branch ?? (await readDefaultBranch(ctx.repo))?.name ?? null;
  return { path: ctx.repo.primary, handle: null, branch: name, task: null, via: "primary" };
}

async function byDefaultBranch(ctx: Ctx, text: string): Promise<PathFields | null> {
  const name = (await readDefaultBranch(ctx.repo))?.name;
  return name !== undefined && name === text ? primary(ctx, name) : null;
}
