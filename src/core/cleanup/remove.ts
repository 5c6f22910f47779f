// `orchard remove <handle|path>` (SPEC v4 §3 new verbs): one worktree, under cleanup's own proofs.
// It is cleanup's planner scoped to that one path, asked for by name (plan.ts `explicit`): an item
// exists only when the worktree's facts prove the action safe. Those facts are read once, under
// the repo's mutation lock, right before acting (remove-now.ts): a plain removal acts on them with
// no stored plan; a salvage first (or a husk, a reap, a prune) goes through a stored plan whose
// apply re-checks every precondition at the moment of use. So remove refuses exactly what cleanup would keep (live,
// dirty, unpushed, unknown, nested, foreign), names every reason, and says the next step; with
// `--salvage` the work is saved to a salvage ref first. The branch goes with it only when cleanup
// would delete it (orchard made it, merged by reachability).
import { lstatSync } from "node:fs";
import { join } from "node:path";
import { readStatus } from "../../git/read.js";
import { resolveTarget } from "../shared/repo/target.js";
import { realOrAbsolute } from "../shared/repo/paths.js";
import { registeredAdmin } from "../facts/index.js";
import type { WorktreeRow } from "../../registry/index.js";
import { peekListing } from "../shared/repo/repo.js";
import { usageError, failure } from "../shared/errors.js";
import { shellQuote } from "../shared/shell-quote.js";
import { findReason, hasCode, type Reason } from "../shared/reasons/reasons.js";
import type { Ctx } from "../shared/context.js";
import { cleanupRun, type CleanupPlanOptions } from "./cleanup.js";
import { INCLUDABLE, type CleanupAction } from "./plan.js";
import { actsNow, judgeOne, removeNow, type StepOutcome } from "./remove-now.js";
import { heldMutationLock, withMutationLock } from "../ownership/index.js";
import { finishTrash } from "../shared/removal/trash.js";

export interface RemoveOptions {
  /** A handle, a worktree path, or the branch of a managed worktree. */
  target: string;
  /** Salvage uncommitted or unpreserved work to a salvage ref first, then remove. */
  salvage?: boolean | undefined;
  /** Prove and report, change nothing. */
  dryRun?: boolean | undefined;
}

interface RemoveFields {
  path: string;
  handle: string | null;
  /** Why it was kept, or how it was proved safe. */
  reasons: Reason[];
  /** The command that moves a refusal on; null when done or when nothing but waiting helps. */
  next: string | null;
}

export type RemoveResult =
  | (RemoveFields & { ok: true; action: "removed"; steps: CleanupAction[]; salvageRef?: string })
  | (RemoveFields & { ok: true; action: "planned"; dryRun: true; steps: CleanupAction[] })
  | (RemoveFields & { ok: false; action: "refused"; disposition: string | null; dryRun?: true });

export async function removeWorktree(ctx: Ctx, options: RemoveOptions): Promise<RemoveResult> {
  // a handle of this repo is its row (as resolveTarget reads it first), and so is the path of a row whose worktree
  // git registers there (its admin dir and `.git` name each other): no listing; the worktree's own entry is read
  // under the lock (hygiene/gather.ts readFocused). Anything else resolves on git's listing (resolveTarget).
  const target = (await knownTarget(ctx, options.target)) ?? (await resolveTarget(ctx, options.target, peekListing(ctx.repo)));
  const { path } = target;
  const handle = target.row?.handle ?? null;
  const scope: CleanupPlanOptions = { paths: [path], include: [...INCLUDABLE], salvage: options.salvage ?? false, includeResumable: true, explicit: true };
  const base = { path, handle };
  // listed by git, yet in no plan and kept by none: nothing cleanup can judge (a primary, a bare entry)
  const unjudged = () => usageError("not_a_worktree", `${options.target} is not a worktree orchard can judge in ${ctx.repo.primary}`);
  const next = (reasons: Reason[]): string | null => nextStep(ctx, options, { path }, reasons);
  if (options.dryRun) {
    const judged = await judgeOne(ctx, path, options.salvage ?? false);
    const items = judged.items.filter((i) => i.path === path);
    const kept = judged.skipped.find((k) => k.path === path);
    if (items.length > 0) {
      const reasons = items.flatMap((i) => i.reasons);
      return { ok: true, action: "planned", dryRun: true, ...base, steps: items.map((i) => i.action), reasons, next: null };
    }
    if (!kept) throw unjudged();
    return {
      ok: false,
      action: "refused",
      dryRun: true,
      ...base,
      disposition: kept.disposition,
      reasons: await blocking(kept.reasons, path),
      next: next(kept.reasons),
    };
  }
  // what a purger could not delete before (an immutable file since made mutable) is retried now, as cleanup run does
  finishTrash(ctx.workspace.home, { retryFailed: true });
  // under the lock the command line took (the listing git gave under it is the gather's), else waiting for it
  const locked = <T>(fn: () => Promise<T>): Promise<T> => (heldMutationLock(ctx.repo.commonDir) ? fn() : withMutationLock(ctx.repo.commonDir, fn));
  return await locked(async () => {
    // its facts read once, under the lock, right before it acts (remove-now.ts): no stored plan for a plain removal
    const judged = await judgeOne(ctx, path, options.salvage ?? false);
    if (judged.items.length === 0) {
      const kept = judged.skipped.find((k) => k.path === path);
      if (!kept) throw unjudged();
      return { ok: false, action: "refused", ...base, disposition: kept.disposition, reasons: await blocking(kept.reasons, path), next: next(kept.reasons) };
    }
    if (actsNow(judged.items)) {
      const outcome = await removeNow(ctx, path, judged);
      const main = outcome[0] as StepOutcome;
      if (main.state !== "done")
        return { ok: false, action: "refused", ...base, disposition: null, reasons: await blocking(main.reasons, path), next: next(main.reasons) };
      const steps = outcome.filter((o) => o.state === "done").map((o) => o.action);
      const reasons = outcome.flatMap((o) => o.reasons); // what acting said (apply's outcome reasons), as a stored plan's items report
      return { ok: true, action: "removed", ...base, steps, reasons, next: null };
    }
    return await removeByPlan(ctx, options, { path, handle, scope });
  });
}

/** The row `target` names without a listing: a handle of this repo, or the path of a row git registers there. */
async function knownTarget(ctx: Ctx, target: string): Promise<{ path: string; row: WorktreeRow } | null> {
  if (!target || target.startsWith("-")) return null; // resolveTarget's own error
  const { worktrees } = ctx.registry;
  const byHandle = target.includes("@") ? await worktrees.byHandle(target) : undefined;
  if (byHandle) return byHandle.repo === ctx.repo.identity ? { path: byHandle.path, row: byHandle } : null;
  const wanted = realOrAbsolute(target);
  const row = await worktrees.atPath(ctx.repo.identity, wanted);
  return row && row.path === wanted && registeredAdmin(ctx.repo.commonDir, wanted) !== null ? { path: wanted, row } : null;
}

/** A salvage first, a husk, a reap, a prune: through a stored plan and apply's re-checks at the moment of use, as `cleanup run`. */
async function removeByPlan(
  ctx: Ctx,
  options: RemoveOptions,
  { path, handle, scope }: { path: string; handle: string | null; scope: CleanupPlanOptions },
): Promise<RemoveResult> {
  const base = { path, handle };
  const run = await cleanupRun(ctx, [ctx], () => Promise.resolve(ctx), scope);
  const items = run.items.filter((i) => i.path === path);
  const failed = items.find((i) => i.state === "failed");
  if (failed) throw failure("remove_failed", `removing ${path} failed: ${failed.reasons.map((r) => r.message).join("; ") || "see orchard status"}`);
  const main = items.find((i) => i.action !== "delete_branch");
  if (main?.state === "done") {
    const steps = items.filter((i) => i.state === "done").map((i) => i.action as CleanupAction);
    const reasons = items.flatMap((i) => i.reasons);
    return { ok: true, action: "removed", ...base, steps, ...(main.salvageRef ? { salvageRef: main.salvageRef } : {}), reasons, next: null };
  }
  const kept = run.kept.find((k) => k.path === path);
  const reasons = [...(main?.reasons ?? []), ...(kept?.reasons ?? [])];
  if (!main && !kept) throw usageError("not_a_worktree", `${options.target} is not a worktree orchard can judge in ${ctx.repo.primary}`);
  const blockers = await blocking(reasons, path);
  return { ok: false, action: "refused", ...base, disposition: kept?.disposition ?? null, reasons: blockers, next: nextStep(ctx, options, { path }, reasons) };
}

/** Facts in the worktree's favour, which cleanup records beside its blockers: a refusal lists only what blocks. */
const IN_FAVOUR = new Set<Reason["code"]>(["not_live", "clean", "work_preserved", "dead_owner", "merged", "terminal"]);

/** The reasons that block, the dirty files named as git names them, the caller's own shell named as that. */
async function blocking(reasons: readonly Reason[], path: string): Promise<Reason[]> {
  const out: Reason[] = [];
  for (const r of reasons) {
    if (IN_FAVOUR.has(r.code)) continue;
    if (r.code === "dirty" && "tracked" in r) out.push({ ...r, files: await changedFiles(path) });
    else if (r.code === "live_owner" && callerInside(path) && (r.signals ?? []).every((s) => s.code === "process_in_worktree"))
      out.push({ ...r, message: `the shell you run orchard from works inside the worktree (${process.cwd()})` });
    else out.push(r);
  }
  return out;
}

const callerInside = (path: string): boolean => process.cwd() === path || process.cwd().startsWith(`${path}/`);

const SHOWN = 20;

/** `git status --short`'s lines for the worktree's changes: its two status letters and git's quoting of the path. */
async function changedFiles(path: string): Promise<string[]> {
  try {
    const status = await readStatus(path);
    const lines = status.paths
      .filter((p) => p.kind !== "ignored")
      .map((p) => `${p.kind === "untracked" ? "??" : ("xy" in p ? p.xy : "  ").replace(/\./g, " ")} ${gitQuoted(p.path)}`);
    return lines.length > SHOWN ? [...lines.slice(0, SHOWN), `… and ${lines.length - SHOWN} more`] : lines;
  } catch {
    return []; // the status could not be read again: the counts stand alone
  }
}

/** A path as git prints it (core.quotePath): in double quotes, C-escaped, when it holds a space, a quote, a backslash, a control or non-ASCII byte. */
export function gitQuoted(path: string): string {
  if (!/[\s"\\\x00-\x1f\x7f-\uffff]/.test(path)) return path;
  const named: Record<number, string> = { 7: "\\a", 8: "\\b", 9: "\\t", 10: "\\n", 11: "\\v", 12: "\\f", 13: "\\r", 34: '\\"', 92: "\\\\" };
  let out = "";
  for (const byte of Buffer.from(path, "utf8"))
    out += named[byte] ?? (byte < 0x20 || byte >= 0x7f ? `\\${byte.toString(8).padStart(3, "0")}` : String.fromCharCode(byte));
  return `"${out}"`;
}

/** The one command a person (or agent) would type next about a refused removal. */
function nextStep(ctx: Ctx, options: RemoveOptions, { path }: { path: string }, reasons: readonly Reason[]): string | null {
  const again = `orchard remove ${shellQuote(options.target)}`;
  const nested = findReason([...reasons], "held_by_nested") ?? findReason([...reasons], "nested_worktree");
  if (nested && "paths" in nested && nested.paths[0]) {
    // a nested worktree is removed by its path (from anywhere); a nested repository (its `.git` a
    // directory: a clone, a `git init`, an embedded gitlink) is not Orchard's to remove
    const inner = join(path, nested.paths[0]);
    return lstatSync(join(inner, ".git"), { throwIfNoEntry: false })?.isFile() ? `orchard remove ${shellQuote(inner)}` : null;
  }
  if (hasCode(reasons, "salvage_not_requested")) return `${again} --salvage`;
  if (hasCode(reasons, "not_managed") || hasCode(reasons, "foreign_lock")) return `orchard adopt ${shellQuote(path)}`;
  const live = findReason([...reasons], "live_owner");
  if (live) {
    const signals = "signals" in live ? (live.signals ?? []) : [];
    const here = process.cwd() === path || process.cwd().startsWith(`${path}/`);
    // from the primary, a relative path would name something else: the path itself
    if (here && signals.some((s) => s.code === "process_in_worktree"))
      return `cd ${shellQuote(ctx.repo.primary)} && orchard remove ${shellQuote(options.target.includes("/") ? path : options.target)}`;
    // who holds it, never how to take it (SPEC v5): a release by its owner's name is the holder's own act
    if (signals.some((s) => s.code === "lease_live" || s.code === "pid_alive")) return `orchard status ${shellQuote(options.target)}`;
    return null; // a process works inside: only its end moves this on
  }
  if (hasCode(reasons, "precondition_changed")) return again;
  if (hasCode(reasons, "fact_unknown") || hasCode(reasons, "liveness_unknown")) return `orchard status ${shellQuote(options.target)}`;
  return null;
}
