// `orchard path <handle|task>` (SPEC v4 §3 new verbs): where a worktree is, for `cd` (shell-init.ts
// defines `orchard cd` on it). The argument is resolved as every `<handle|path>` is (a handle, a
// path, the branch of a managed worktree); failing that, as a task in any of its spellings: the
// managed worktrees of this repo on this host with that canonical task, active before released,
// the most recently used first. No target, `^` or the default branch is the primary (SPEC v5 §3).
// A worktree whose directory is gone is refused (exit 3), never printed: a `cd` into it would
// fail, or land in whatever took its place. The command line answers from quick.ts first.
import { existsSync } from "node:fs";
import { resolveTarget, type Target } from "../shared/repo/target.js";
import { canonicalTask } from "../shared/naming/task.js";
import { OrchardError, usageError } from "../shared/errors.js";
import { reason, type Reason } from "../shared/reasons/reasons.js";
import { shellQuote } from "../shared/shell-quote.js";
import { realOrAbsolute } from "../shared/repo/paths.js";
import { readDefaultBranch, takeListing } from "../shared/repo/repo.js";
import { readWorktrees } from "../../git/read.js";
import { HOST } from "../ownership/index.js";
import type { Ctx } from "../shared/context.js";
import type { WorktreeRow } from "../../registry/index.js";
import type { WorktreeEntry } from "../../git/parse/worktrees.js";
import { pathFields, RANK, type PathFields } from "./fields.js";

export interface PathOptions {
  /** A handle, a worktree path, the branch of a managed worktree, or a task; none (or `^`, or the default branch): the primary. */
  target?: string | undefined;
}

export type PathResult = (PathFields & { ok: true }) | (PathFields & { ok: false; action: "refused"; reasons: Reason[]; next: string | null });

/**
 * The registry first (a handle, a row's path, a managed branch): no git process. git's listing is
 * read only when the registry has no row for the argument (an unmanaged worktree, an identity file
 * to recover, the default branch), as SPEC v5 §3 says: `path` assesses nothing.
 */
export async function worktreePath(ctx: Ctx, options: PathOptions): Promise<PathResult> {
  const text = options.target;
  const found =
    text === undefined || text === "^"
      ? await primary(ctx)
      : ((await fromRegistry(ctx, text)) ?? (await byTarget(ctx, text)) ?? (await byDefaultBranch(ctx, text)) ?? (await byTask(ctx, text)));
  if (!found) throw usageError("not_a_worktree", `${text ?? ""} is not a handle, worktree path, managed branch or task of ${ctx.repo.primary}`);
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

/** A handle of this repo, the path of a row, or the branch of one (when no directory is at that path). */
async function fromRegistry(ctx: Ctx, text: string): Promise<PathFields | null> {
  if (!text || text.startsWith("-")) return null; // resolveTarget refuses it
  const row = text.includes("@") ? await ctx.registry.worktrees.byHandle(text) : undefined;
  if (row && row.repo === ctx.repo.identity) return pathFields(row, "target");
  const rows = await ctx.registry.worktrees.current(ctx.repo.identity);
  const wanted = realOrAbsolute(text);
  const atPath = rows.find((r) => r.path === wanted);
  if (atPath) return pathFields(atPath, "target");
  if (existsSync(wanted)) return null; // a directory git may list without a row
  const byBranch = rows.find((r) => r.branch === text && r.lifecycle !== "removed");
  return byBranch ? pathFields(byBranch, "target") : null;
}

async function primary(ctx: Ctx): Promise<PathFields> {
  const listing = takeListing(ctx.repo) ?? (await readWorktrees(ctx.repo.primary));
  const branch = listing[0]?.branch?.replace(/^refs\/heads\//, "") ?? null;
  return { path: ctx.repo.primary, handle: null, branch, task: null, via: "primary" };
}

async function byDefaultBranch(ctx: Ctx, text: string): Promise<PathFields | null> {
  const main = await readDefaultBranch(ctx.repo);
  return main && main.name === text ? primary(ctx) : null;
}

async function byTarget(ctx: Ctx, text: string): Promise<PathFields | null> {
  let target: Target;
  try {
    target = await resolveTarget(ctx, text, takeListing(ctx.repo));
  } catch (error) {
    if (error instanceof OrchardError && error.code === "not_a_worktree") return null; // not a handle, path or branch: a task, perhaps
    throw error;
  }
  const branch = target.row?.branch ?? target.entry?.branch?.replace(/^refs\/heads\//, "") ?? null;
  return { path: target.path, handle: target.row?.handle ?? null, branch, task: target.row?.task ?? null, via: "target" };
}

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
