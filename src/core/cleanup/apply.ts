// `cleanup apply` and `cleanup resume` (SPEC §3.7): one engine. Items run in seq order, in
// batches of one repo under that repo's mutation lock (released between batches so `orchard add`
// is never starved; a batch that sees another command wait for the lock starts no new item and
// lets it in first, so that command waits for the items in flight only). Each item is claimed pending → applying (committed) before anything is
// read or touched, and ends done|skipped|failed in the same transaction that retires its
// registry row. Invariant: an item seen `applying` while we hold its repo's lock was left by a
// process that died holding that lock (the lock is only ever taken over from a dead owner), so
// it is re-checked and finished (or found already done). Hence resume is safe after kill -9.
import type { KeptReclaim } from "./kept.js";
import { basename } from "node:path";
import { readWorktrees, readRefs, readMergedBranches } from "../../git/read.js";
import { readCheckedOutBranches } from "../shared/repo/checkouts.js";
import { withMutationLock, hasMutationWaiters, yieldToWaiters, HOST } from "../ownership/index.js";
import { pausePoint } from "../shared/fault.js";
import { readDefaultBranch, targetRefs } from "../shared/repo/repo.js";
import { focusedPatterns } from "../shared/repo/default-refs.js";
import { mapLimit } from "../shared/pool.js";
import { OrchardError, usageError } from "../shared/errors.js";
import { reason, type Reason } from "../shared/reasons/reasons.js";
import { applyItem, branchRef, itemTargets, type BatchView, type ItemEnv } from "./actions.js";
import type { Ctx } from "../shared/context.js";
import type { ItemState, PlanItemRow } from "../../registry/index.js";
import { distinctTargets, type MergeTarget } from "../facts/index.js";
import { retireRow } from "../shared/rows.js";
import { reportProgress } from "../shared/progress.js";

const BATCH = 16;
const ITEM_PARALLELISM = 4;

export interface ItemView {
  seq: number;
  repo: string | null;
  path: string;
  handle: string | null;
  action: string;
  /** The item's final (or current) state; `refused`: skipped by a safety rule at the moment of use. */
  state: ItemState | "refused";
  reasons: Reason[];
  salvageRef?: string;
}

/** `ok`: no item failed and none was refused; else `ok: false` with their counts. */
export type ApplyResult = (ApplyFields & { ok: true; refused: 0; failed: 0 }) | (ApplyFields & { ok: false });

export interface ApplyFields {
  planId: string;
  status: "completed" | "needs_resume";
  done: number;
  skipped: number;
  /** Items a safety rule refused at the moment of use (nothing touched): exit 3, not a failure. */
  refused: number;
  failed: number;
  remaining: number;
  items: ItemView[];
  /** Apply and resume: bootstrap.share's kept copies judged once the plan is done, those deleted and how many stay (none judged while items remain). */
  keptCopies?: KeptReclaim;
  notes: Reason[];
}

/** Codes that refuse an item by a safety rule (SPEC §2 exit 3): stored `skipped`, shown `refused`. */
const REFUSALS: ReadonlySet<string> = new Set(["salvage_too_large"]);

const isRefusal = (state: ItemState, reasons: readonly Reason[]): boolean => state === "skipped" && reasons.some((r) => REFUSALS.has(r.code));

/** A salvage too large to keep refuses the item before anything was touched (never a failure). */
function refusalOf(item: PlanItemRow, phase: string | null, error: unknown): Reason | null {
  const tooLarge = error instanceof OrchardError && error.code === "salvage_too_large";
  return tooLarge && item.action === "salvage_remove" && phase !== "acting" ? reason("salvage_too_large", { error: error.message }) : null;
}

export interface Progress {
  planId: string;
  finished: number;
  total: number;
  item: { seq: number; path: string; handle: string | null; action: string; state: ItemState };
}

export interface ApplyRequest {
  planId: string;
  limit: number | null;
  budgetMs: number | null;
  onProgress?: ((progress: Progress) => void) | undefined;
}

/**
 * What a batch reads once, under the lock, for its items only: the default branch's refs (not every
 * ref), and for branch deletes the branches checked out in any worktree (their HEAD files, read
 * in-process) and which of the batch's own branches are merged. Each item reads its admin dir and
 * the rest of its facts at its own moment of use (actions.ts).
 */
async function readBatchView(ctx: Ctx, batch: readonly PlanItemRow[]): Promise<BatchView> {
  const view: BatchView = {
    ctx,
    targets: null,
    defaultBranch: null,
    checkedOut: new Set(),
    merged: new Set(),
    repos: await ctx.registry.repos.all(),
  };
  // the default branch's candidates, origin/HEAD and origin's branches in one read (one process, not a symbolic-ref and a for-each-ref)
  const patterns = focusedPatterns(ctx.repo, [], "refs/remotes/origin");
  const known = patterns ? new Map((await readRefs(ctx.repo.primary, patterns)).map((r) => [r.ref, r])) : null;
  const main = await readDefaultBranch(ctx.repo, known ?? undefined);
  if (main) {
    view.defaultBranch = main.name;
    const wanted = targetRefs(ctx.repo, main.name, new Set([`refs/heads/${main.name}`, `refs/remotes/origin/${main.name}`]));
    const refs = known && wanted.every((ref) => patterns?.some((p) => ref === p || ref.startsWith(`${p}/`))) ? known : null;
    const read = refs ?? new Map((await readRefs(ctx.repo.primary, wanted)).map((r) => [r.ref, r]));
    view.targets = distinctTargets(targetRefs(ctx.repo, main.name, new Set(read.keys())), read);
  }
  const deletes = batch.filter((i) => i.action === "delete_branch" && branchRef(i) !== "refs/heads/");
  if (deletes.length > 0) {
    const read = readCheckedOutBranches(ctx.repo.commonDir);
    view.checkedOut = read !== "unknown" ? read : new Set((await readWorktrees(ctx.repo.primary)).flatMap((e) => (e.branch ? [e.branch] : [])));
    // each branch against its own target (SPEC v4 §3.8), the branches of one target in one read
    const byTarget = new Map<string, { targets: MergeTarget[]; branches: string[] }>();
    for (const item of deletes) {
      const targets = view.targets ? await itemTargets(view, item, view.targets) : [];
      const key = targets.map((t) => t.oid).join(" ");
      const group = byTarget.get(key) ?? { targets, branches: [] };
      group.branches.push(branchRef(item));
      byTarget.set(key, group);
    }
    for (const { targets, branches } of byTarget.values())
      for (const t of targets) for (const ref of await readMergedBranches(ctx.repo.primary, t.oid, branches)) view.merged.add(ref);
  }
  return view;
}

function failureReason(item: PlanItemRow, phase: string | null, error: unknown): Reason {
  const evidence = { error: (error as Error).message };
  if (item.action === "delete_branch") return reason("branch_delete_failed", evidence);
  if (item.action === "salvage_remove" && phase !== "acting") return reason("salvage_failed", evidence);
  return reason("remove_failed", evidence);
}

async function runItem(view: BatchView, item: PlanItemRow, deadline: number): Promise<ItemState | null> {
  const { registry } = view.ctx;
  const key = { planId: item.planId, seq: item.seq };
  if (item.state === "pending") {
    if (Date.now() > deadline) return null;
    if (!(await registry.plans.transition(key, "pending", "applying", { phase: "claimed", applier: { pid: process.pid, host: HOST } }))) return null;
  } else if (item.state !== "applying") return null;
  let phase = item.state === "applying" ? ((item.result?.phase as string | undefined) ?? null) : "claimed";
  let salvageRef = (item.result?.salvageRef as string | undefined) ?? null;
  const env: ItemEnv = {
    recovering: item.state === "applying",
    phase,
    salvageRef,
    note: async (progress) => {
      phase = progress.phase;
      salvageRef = progress.salvageRef ?? salvageRef;
      await registry.plans.noteResult(key, { phase, salvageRef, applier: { pid: process.pid, host: HOST } });
    },
  };
  try {
    const outcome = await applyItem(view, item, env);
    const result = { reasons: outcome.reasons, ...(outcome.salvageRef ? { salvageRef: outcome.salvageRef } : {}), recovered: env.recovering };
    await registry.write(async () => {
      if (outcome.state === "done" && outcome.retire)
        await retireRow(view.ctx, item.path, { action: item.action, planId: item.planId, ...(outcome.salvageRef ? { salvageRef: outcome.salvageRef } : {}) });
      await registry.plans.transition(key, "applying", outcome.state, result);
    });
    return outcome.state;
  } catch (error) {
    const refusal = refusalOf(item, phase, error);
    if (refusal) {
      await registry.plans.transition(key, "applying", "skipped", { reasons: [refusal], ...(salvageRef ? { salvageRef } : {}) });
      return "skipped";
    }
    await registry.plans.transition(key, "applying", "failed", { reasons: [failureReason(item, phase, error)], ...(salvageRef ? { salvageRef } : {}) });
    return "failed";
  }
}

export function itemView(i: PlanItemRow): ItemView {
  const reasons = ((i.result?.reasons as Reason[] | undefined) ?? i.reasons) as Reason[];
  const view: ItemView = {
    seq: i.seq,
    repo: i.repo,
    path: i.path,
    handle: i.handle,
    action: i.action,
    state: isRefusal(i.state, reasons) ? "refused" : i.state,
    reasons,
  };
  const ref = i.result?.salvageRef;
  if (typeof ref === "string") view.salvageRef = ref;
  return view;
}

export async function applyPlan(main: Ctx, open: (repo: string | null) => Promise<Ctx>, request: ApplyRequest): Promise<ApplyResult> {
  const { registry } = main;
  const plan = await registry.plans.load(request.planId);
  if (!plan) throw usageError("plan_not_found", `no cleanup plan ${request.planId} in ${main.workspace.home}`);
  const open_ = (await registry.plans.items(plan.id)).filter((i) => i.state === "pending" || i.state === "applying");
  const deadline = request.budgetMs === null ? Infinity : Date.now() + request.budgetMs;
  const notes: Reason[] = [];
  let finished = 0;
  if (open_.length > 0) await registry.plans.setStatus(plan.id, "applying");
  for (let i = 0; i < open_.length;) {
    if (request.limit !== null && finished >= request.limit) {
      notes.push(reason("limit_reached", { limit: request.limit }));
      break;
    }
    if (Date.now() > deadline) {
      notes.push(reason("budget_exhausted"));
      break;
    }
    // one repo per batch; branch deletes in batches of their own, read after the removals they follow
    const first = open_[i] as PlanItemRow;
    const sameKind = (it: PlanItemRow): boolean => it.repo === first.repo && (it.action === "delete_branch") === (first.action === "delete_branch");
    const size = Math.min(BATCH, request.limit === null ? BATCH : request.limit - finished);
    const batch: PlanItemRow[] = [];
    while (i < open_.length && sameKind(open_[i] as PlanItemRow) && batch.length < size) batch.push(open_[i++] as PlanItemRow);
    const repo = first.repo;
    const ctx = await open(repo);
    let unstarted = 0;
    // a command already waiting goes first, before this batch reads its view under the lock
    if (hasMutationWaiters(ctx.repo.commonDir)) await yieldToWaiters(ctx.repo.commonDir);
    await withMutationLock(ctx.repo.commonDir, async () => {
      const current = new Map(
        (
          await registry.plans.itemsAt(
            plan.id,
            batch.map((it) => it.seq),
          )
        ).map((it) => [it.seq, it]),
      );
      const fresh = batch.map((it) => current.get(it.seq) ?? it);
      const view = await readBatchView(ctx, fresh);
      // branch deletes one at a time: a packed ref's delete rewrites packed-refs under one lock
      const parallelism = first.action === "delete_branch" ? 1 : ITEM_PARALLELISM;
      let yielding = false;
      await mapLimit(fresh, parallelism, async (item) => {
        // another command waits for the lock: start no new item, let it in once those in flight end
        yielding ||= hasMutationWaiters(ctx.repo.commonDir);
        if (yielding) return void unstarted++;
        await pausePoint("cleanup.item");
        const state = await runItem(view, item, deadline);
        if (state === null) return;
        finished++;
        request.onProgress?.({
          planId: plan.id,
          finished,
          total: open_.length,
          item: { seq: item.seq, path: item.path, handle: item.handle, action: item.action, state },
        });
        reportProgress({ phase: "cleanup", done: finished, total: open_.length, label: `${item.action} ${item.handle ?? basename(item.path)}` });
      });
    });
    if (unstarted > 0) {
      i -= unstarted; // items start in order: the unstarted ones are the batch's tail, taken again next
      await yieldToWaiters(ctx.repo.commonDir);
    }
  }
  return await summarizePlan(main, plan.id, notes);
}

export async function summarizePlan(main: Ctx, planId: string, notes: Reason[] = []): Promise<ApplyResult> {
  const items = (await main.registry.plans.items(planId)).map(itemView);
  const counts = countStates(items);
  const status = counts.remaining === 0 ? "completed" : "needs_resume";
  await main.registry.plans.setStatus(planId, status);
  if (counts.failed === 0 && counts.refused === 0) return { ok: true, planId, status, ...counts, refused: 0, failed: 0, items, notes };
  return { ok: false, planId, status, ...counts, items, notes };
}

/** Each item counted once, by the state it shows (done, skipped, refused, failed; the rest remain). */
export function countStates(items: readonly ItemView[]): { done: number; skipped: number; refused: number; failed: number; remaining: number } {
  const count = (...states: ItemView["state"][]): number => items.filter((i) => states.includes(i.state)).length;
  return { done: count("done"), skipped: count("skipped"), refused: count("refused"), failed: count("failed"), remaining: count("pending", "applying") };
}
