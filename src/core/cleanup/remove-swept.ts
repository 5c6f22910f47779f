// A harness's hook removing the one worktree its session (or subagent) leaves (Claude Code's
// WorktreeRemove and SubagentStop, SPEC §3.14): cleanup's default sweep — reclaimable, reapable or
// missing, nothing named by hand, no salvage — scoped to that one path, at one worktree's cost (SPEC
// v5 §3). Its facts are read once, under the repo's mutation lock, right before acting: only that
// worktree's status, refs and history (assessFleet's focus), judged by cleanup's own planner with
// the request a `cleanup run` scoped to the path made before. A plain removal (and the delete of
// its merged branch) then runs from those facts through remove-now.ts, with no stored plan and
// nothing read a second time; anything else the planner would do (a reap, a prune, bookkeeping
// salvaged) goes through a stored plan and apply's re-checks, as before. Every refusal is the
// planner's: dirty, unpushed, live, locked by another, resumable, foreign, unknown.
import { existsSync } from "node:fs";
import { assessFleet } from "../hygiene/index.js";
import { heldMutationLock, withMutationLock } from "../ownership/index.js";
import { finishTrash } from "../shared/removal/trash.js";
import { reason, type Reason } from "../shared/reasons/reasons.js";
import type { Ctx } from "../shared/context.js";
import { cleanupRun } from "./cleanup.js";
import { planCleanup, DEFAULT_INCLUDE, type SkippedWorktree } from "./plan.js";
import { actsNow, removeNow, type Judged, type StepOutcome } from "./remove-now.js";

export type SweptRemoval = { removed: true } | { removed: false; disposition?: SkippedWorktree["disposition"]; reasons: Reason[] };

/** The worktree at `path` judged as `cleanup run` scoped to it judges (default include, not named by hand), its facts read now. */
async function judgeSwept(ctx: Ctx, path: string): Promise<Judged> {
  const fleet = await assessFleet([ctx], { verifyShare: false }, path);
  const members = fleet.members.filter((m) => m.view.path === path);
  const defaultBranches = new Map(fleet.gathers.map((g) => [g.ctx.repo.identity, g.summary.defaultBranch]));
  const request = { include: [...DEFAULT_INCLUDE], salvage: false, olderThanMs: null, now: Date.now(), defaultBranches, explicit: false };
  const { items, skipped } = planCleanup(members, request);
  const gather = fleet.gathers[0];
  return { items, skipped, listing: gather?.listing ?? null, admin: gather?.snapshot.admins.get(path) ?? null };
}

/** Removes the worktree at `path` when cleanup's default sweep would (see above); else why it is kept. */
export async function removeSwept(ctx: Ctx, path: string): Promise<SweptRemoval> {
  // what a purger could not delete before (an immutable file since made mutable) is retried now, as cleanup run does
  finishTrash(ctx.workspace.home, { retryFailed: true });
  const locked = <T>(fn: () => Promise<T>): Promise<T> => (heldMutationLock(ctx.repo.commonDir) ? fn() : withMutationLock(ctx.repo.commonDir, fn));
  return await locked(async () => {
    const judged = await judgeSwept(ctx, path);
    if (judged.items.length === 0) {
      const kept = judged.skipped.find((k) => k.path === path);
      return { removed: false, ...(kept ? { disposition: kept.disposition } : {}), reasons: kept?.reasons ?? [] };
    }
    if (!actsNow(judged.items)) return await sweptByPlan(ctx, path);
    let main: StepOutcome;
    try {
      main = (await removeNow(ctx, path, judged))[0] as StepOutcome;
    } catch (error) {
      // removed (its directory and git's entry gone), then its branch could not be deleted: apply counts that remove done too
      if (!existsSync(path) && (judged.admin === null || !existsSync(judged.admin))) return { removed: true };
      return { removed: false, reasons: [reason("remove_failed", { error: (error as Error).message })] };
    }
    return main.state === "done" ? { removed: true } : { removed: false, reasons: main.reasons };
  });
}

/** A reap, a prune, bookkeeping salvaged: a stored plan scoped to the path, applied with its re-checks at the moment of use. */
async function sweptByPlan(ctx: Ctx, path: string): Promise<SweptRemoval> {
  const run = await cleanupRun(ctx, [ctx], () => Promise.resolve(ctx), { paths: [path] });
  if (run.items.some((i) => i.path === path && i.state === "done" && i.action === "remove")) return { removed: true };
  const kept = run.kept.find((k) => k.path === path);
  const reasons = [...run.items.filter((i) => i.path === path).flatMap((i) => i.reasons), ...(kept?.reasons ?? [])];
  return { removed: false, ...(kept ? { disposition: kept.disposition } : {}), reasons };
}
