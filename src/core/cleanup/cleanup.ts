// `cleanup plan` and `cleanup run` (SPEC §3.7). A plan is computed from the same fleet verdicts
// as `hygiene`, stored (plans / plan_items) and returned; `run` plans and applies until a fixed
// point: a plan with no items, or a round in which nothing could be done.
import { createHash, randomBytes } from "node:crypto";
import { assessFleet, floorBytes, readFreeSpace, requireFloor, type Fleet, type KeptCopyView } from "../hygiene/index.js";
import { reclaimKeptCopies, type KeptReclaim } from "./kept.js";
import { planCleanup, DEFAULT_INCLUDE, INCLUDABLE, type Includable, type PlannedItem, type SkippedWorktree } from "./plan.js";
import { applyPlan, countStates, type ApplyResult, type ItemView, type Progress } from "./apply.js";
import { treeDigest } from "../facts/index.js";
import { salvageStamp } from "../salvage/index.js";
import { requireDuration } from "../shared/input/validate.js";
import { usageError } from "../shared/errors.js";
import { reason, type Reason } from "../shared/reasons/reasons.js";
import { reportProgress } from "../shared/progress.js";
import { finishTrash } from "../shared/removal/trash.js";
import type { Ctx } from "../shared/context.js";

export interface CleanupPlanOptions {
  allRepos?: boolean | undefined;
  include?: string | string[] | undefined;
  salvage?: boolean | undefined;
  olderThan?: string | undefined;
  /** Also plan worktrees whose Claude Code session can still be resumed (by default they are `idle`: session_resumable). */
  includeResumable?: boolean | undefined;
  /** Plan only the worktrees at these paths (as git lists them); the library's single-worktree removal. */
  paths?: readonly string[] | undefined;
  /** `orchard remove`: the caller named the worktree (plan.ts PlanRequest.explicit). */
  explicit?: boolean | undefined;
  /** `run`: stop once the workspace's filesystem has this much free (a size, or a percentage). */
  untilFree?: string | undefined;
}

export interface PlanResult {
  ok: true;
  planId: string;
  digest: string;
  items: PlannedItem[];
  skipped: SkippedWorktree[];
  /**
   * bootstrap.share's kept copies that are reclaimable now (no worktree of their fingerprint, or
   * over disk.shareBudget). Apply judges the copies again once its items are done, and reclaims
   * those reclaimable then: these, and any whose last worktree the plan removed.
   */
  keptCopies: KeptCopyView[];
  notes: Reason[];
}

/** `ok`: no item failed and none was refused; else `ok: false` with their counts. */
export type RunResult = (RunFields & { ok: true; refused: 0; failed: 0 }) | (RunFields & { ok: false });

export interface RunFields {
  status: "completed" | "needs_resume";
  planIds: string[];
  rounds: number;
  done: number;
  skipped: number;
  refused: number;
  failed: number;
  remaining: number;
  /** One per worktree action, with its final state (a later round's attempt replaces an earlier one). */
  items: ItemView[];
  /** What the last plan left alone, and why (the fixed point). */
  kept: SkippedWorktree[];
  /** bootstrap.share's kept copies: those deleted (with why) and how many stay. */
  keptCopies: KeptReclaim;
  /** With --until-free: the floor, the free space (measured before, plus what this run removed) and whether it is met. */
  untilFree?: { floor: number; free: number; met: boolean };
  notes: Reason[];
}

export function parseInclude(value: string | string[] | undefined): Includable[] {
  if (value === undefined) return [...DEFAULT_INCLUDE];
  const words = (Array.isArray(value) ? value : [value])
    .flatMap((v) => v.split(","))
    .map((w) => w.trim())
    .filter(Boolean);
  for (const w of words)
    if (!(INCLUDABLE as readonly string[]).includes(w))
      throw usageError("invalid_argument", `--include: ${JSON.stringify(w)} is not one of ${INCLUDABLE.join(", ")}`);
  return [...new Set(words)] as Includable[];
}

function digestOf(items: readonly PlannedItem[]): string {
  const canonical = items.map((i) => [i.seq, i.repo, i.path, i.action, i.preconditions]);
  return createHash("sha256").update(JSON.stringify(canonical)).digest("hex");
}

/** Husks that may be planned need the digest of their tree (apply compares it at the moment of use). */
function addHuskDigests(fleet: Fleet, include: readonly Includable[]): void {
  if (!include.includes("husk")) return;
  for (const m of fleet.members)
    if (m.view.disposition === "husk" && m.subject.husk && !m.subject.husk.symlink) {
      try {
        m.digest = treeDigest(m.view.path);
      } catch {
        m.digest = null; // unreadable: the planner skips it as an unknown fact
      }
    }
}

/** The one worktree a plan scoped to one path judges: only it is assessed (hygiene.ts assessFleet's focus). */
function focusOf(options: CleanupPlanOptions): string | undefined {
  return options.paths?.length === 1 ? options.paths[0] : undefined;
}

export async function cleanupPlan(main: Ctx, ctxs: Ctx[], options: CleanupPlanOptions, notes: Reason[] = []): Promise<PlanResult> {
  return (await planWithFleet(main, ctxs, options, notes)).plan;
}

/** The plan and the fleet it was made from; `measure`: items carry the bytes removing them frees (--until-free). */
async function planWithFleet(
  main: Ctx,
  ctxs: Ctx[],
  options: CleanupPlanOptions & { measure?: boolean },
  notes: Reason[] = [],
): Promise<{ plan: PlanResult; fleet: Fleet }> {
  const include = parseInclude(options.include);
  const olderThanMs = options.olderThan === undefined ? null : requireDuration(options.olderThan, "older-than", 0);
  const fleet = await assessFleet(
    ctxs,
    { includeResumable: options.includeResumable, disk: options.measure ?? false, verifyShare: !options.paths },
    focusOf(options),
  );
  addHuskDigests(fleet, include);
  const defaultBranches = new Map(fleet.gathers.map((g) => [g.ctx.repo.identity, g.summary.defaultBranch]));
  const members = options.paths ? fleet.members.filter((m) => options.paths?.includes(m.view.path)) : fleet.members;
  const request = { include, salvage: options.salvage ?? false, olderThanMs, now: Date.now(), defaultBranches, explicit: options.explicit ?? false };
  const { items, skipped } = planCleanup(members, request);
  const digest = digestOf(items);
  const planId = `${salvageStamp(new Date())}-${randomBytes(4).toString("hex")}`;
  const stored = { include, salvage: options.salvage ?? false, olderThan: options.olderThan ?? null, allRepos: options.allRepos ?? false };
  await main.registry.write(
    async () =>
      await main.registry.plans.insert(
        { id: planId, createdAt: fleet.generatedAt, scope: options.allRepos ? "all" : main.repo.identity, digest, options: stored, skipped },
        items.map((i) => ({
          seq: i.seq,
          repo: i.repo,
          path: i.path,
          handle: i.handle,
          action: i.action,
          preconditions: { ...i.preconditions },
          reasons: i.reasons,
          bytes: i.bytes ?? null,
        })),
      ),
  );
  const keptCopies = fleet.kept.filter((k) => k.view.disposition === "reclaimable").map((k) => k.view);
  return { plan: { ok: true, planId, digest, items, skipped, keptCopies, notes: [...notes, ...fleet.notes] }, fleet };
}

const MAX_ROUNDS = 10;

/** How many items of each action a plan holds: what a run says it will do before it acts. */
function countActions(items: readonly { action: string }[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const i of items) counts[i.action] = (counts[i.action] ?? 0) + 1;
  return counts;
}

interface FloorTracker {
  met: () => boolean;
  freed: (bytes: number) => void;
  state: () => { floor: number; free: number; met: boolean };
}

/**
 * `--until-free`: the free space measured once, before any removal, plus the bytes each removal
 * frees (a removed worktree's tree is deleted from the trash right after the command answers, so
 * statfs would not see it yet). Invalid text is exit 2 before any work.
 */
function untilFreeOf(main: Ctx, text: string | undefined): FloorTracker | null {
  if (text === undefined) return null;
  const parsed = requireFloor(text, "--until-free");
  const space = readFreeSpace(main.workspace.home);
  const floor = floorBytes(parsed, space.total);
  let freed = 0;
  const met = (): boolean => space.free + freed >= floor;
  return { met, freed: (n) => void (freed += n), state: () => ({ floor, free: space.free + freed, met: met() }) };
}

export async function cleanupRun(
  main: Ctx,
  ctxs: Ctx[],
  open: (repo: string | null) => Promise<Ctx>,
  options: CleanupPlanOptions & { onProgress?: (p: Progress) => void },
  notes: Reason[] = [],
): Promise<RunResult> {
  // what a purger could not delete before (an immutable file since made mutable) is retried now, not in an hour
  const retried = finishTrash(main.workspace.home, { retryFailed: true });
  const trashNotes = retried.length > 0 ? [reason("trash_retried", { entries: retried })] : [];
  const result: RunFields & { ok: boolean } = {
    ok: true,
    status: "completed",
    planIds: [],
    rounds: 0,
    done: 0,
    skipped: 0,
    refused: 0,
    failed: 0,
    remaining: 0,
    items: [],
    kept: [],
    keptCopies: { removed: [], kept: 0 },
    notes: [...notes, ...trashNotes],
  };
  const latest = new Map<string, ItemView>(); // a worktree planned again in a later round counts once
  const floor = untilFreeOf(main, options.untilFree);
  let fleet: Fleet | null = null;
  for (let round = 0; round < MAX_ROUNDS && !floor?.met(); round++) {
    const planned = await planWithFleet(main, ctxs, { ...options, measure: floor !== null });
    const plan = planned.plan;
    result.kept = plan.skipped;
    fleet = planned.fleet;
    if (plan.items.length === 0) break;
    fleet = null; // the removals below change it
    result.planIds.push(plan.planId);
    result.rounds++;
    const bytes = new Map(plan.items.map((i) => [i.seq, i.bytes ?? 0]));
    reportProgress({
      phase: "planned",
      done: 0,
      total: plan.items.length,
      intent: { round: result.rounds, actions: countActions(plan.items), bounded: floor !== null },
    });
    let applied: ApplyResult;
    do {
      // with a floor, one item at a time in the plan's order, until the floor is met
      applied = await applyPlan(main, open, { planId: plan.planId, limit: floor ? 1 : null, budgetMs: null, onProgress: options.onProgress });
      for (const item of applied.items) {
        const key = JSON.stringify([item.repo, item.path, item.action]);
        if (item.state === "done" && latest.get(key)?.state !== "done") floor?.freed(bytes.get(item.seq) ?? 0);
        latest.set(key, item);
      }
    } while (floor && applied.remaining > 0 && !floor.met() && applied.notes.some((n) => n.code === "limit_reached"));
    if (applied.status !== "completed" && !floor?.met()) result.status = "needs_resume";
    if (applied.done === 0 || applied.status !== "completed") break; // nothing changed: a fixed point (or a crash to resume)
    // one worktree's plan holds all its steps: what it did leaves nothing else of it to plan (and no kept copy goes with it)
    if (focusOf(options) !== undefined) fleet = { generatedAt: new Date().toISOString(), gathers: [], members: [], notes: [], kept: [] };
    if (fleet) break;
  }
  fleet ??= await assessFleet(ctxs, { includeResumable: options.includeResumable, verifyShare: !options.paths }, focusOf(options));
  // `orchard remove <worktree>` (paths given) removes that worktree and nothing else: no kept copy goes with it
  result.keptCopies = await reclaimKeptCopies(main.workspace.home, fleet, {
    more: () => !options.paths && !floor?.met(),
    freed: (n) => floor?.freed(n),
    measure: floor !== null,
  });
  if (floor) {
    result.untilFree = floor.state();
    if (!result.untilFree.met) result.notes.push(reason("until_free_unmet", { free: result.untilFree.free, floor: result.untilFree.floor }));
  }
  result.items = [...latest.values()];
  Object.assign(result, countStates(result.items));
  // the keys keep their order (`ok` first), as the JSON always had them
  return result.failed === 0 && result.refused === 0 ? { ...result, ok: true, refused: 0, failed: 0 } : { ...result, ok: false };
}
