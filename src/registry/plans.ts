// The plans and plan_items tables: stored cleanup plans (SPEC §3.7). A plan is written once with
// all its items `pending`; apply moves each item pending → applying → done|skipped|failed, every
// transition its own committed write, so a crash leaves at most the items it was acting on in
// `applying` (resume re-checks them). Claiming an item is a compare-and-set on its state.
import type { Db } from "./db.js";

export type PlanStatus = "planned" | "applying" | "completed" | "needs_resume";
export type ItemState = "pending" | "applying" | "done" | "skipped" | "failed";

export interface PlanRow {
  id: string;
  createdAt: string;
  /** A repo identity, or "all" for --all-repos. */
  scope: string;
  digest: string;
  options: Record<string, unknown>;
  status: PlanStatus;
  skipped: unknown[];
}

export interface PlanItemRow {
  planId: string;
  seq: number;
  repo: string | null;
  path: string;
  handle: string | null;
  action: string;
  preconditions: Record<string, unknown>;
  reasons: unknown[];
  bytes: number | null;
  state: ItemState;
  result: Record<string, unknown> | null;
  updatedAt: string;
}

export type NewPlanItem = Omit<PlanItemRow, "planId" | "state" | "result" | "updatedAt">;

interface RawPlan {
  id: string;
  created_at: string;
  scope: string;
  digest: string;
  options: string;
  status: PlanStatus;
  skipped: string;
}
interface RawItem {
  plan_id: string;
  seq: number;
  repo: string | null;
  path: string;
  handle: string | null;
  action: string;
  preconditions: string;
  reasons: string;
  bytes: number | null;
  state: ItemState;
  result: string | null;
  updated_at: string;
}

const toPlan = (r: RawPlan): PlanRow => ({
  id: r.id,
  createdAt: r.created_at,
  scope: r.scope,
  digest: r.digest,
  options: JSON.parse(r.options) as Record<string, unknown>,
  status: r.status,
  skipped: JSON.parse(r.skipped) as unknown[],
});

const toItem = (r: RawItem): PlanItemRow => ({
  planId: r.plan_id,
  seq: r.seq,
  repo: r.repo,
  path: r.path,
  handle: r.handle,
  action: r.action,
  preconditions: JSON.parse(r.preconditions) as Record<string, unknown>,
  reasons: JSON.parse(r.reasons) as unknown[],
  bytes: r.bytes,
  state: r.state,
  result: r.result === null ? null : (JSON.parse(r.result) as Record<string, unknown>),
  updatedAt: r.updated_at,
});

export function insertPlan(db: Db, plan: Omit<PlanRow, "status">, items: readonly NewPlanItem[]): void {
  const now = new Date().toISOString();
  db.prepare("INSERT INTO plans (id, created_at, scope, digest, options, status, skipped) VALUES (?, ?, ?, ?, ?, 'planned', ?)").run(
    plan.id,
    plan.createdAt,
    plan.scope,
    plan.digest,
    JSON.stringify(plan.options),
    JSON.stringify(plan.skipped),
  );
  const insert = db.prepare(
    `INSERT INTO plan_items (plan_id, seq, repo, path, handle, action, preconditions, reasons, bytes, state, result, updated_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, 'pending', NULL, ?)`,
  );
  for (const item of items)
    insert.run(
      plan.id,
      item.seq,
      item.repo,
      item.path,
      item.handle,
      item.action,
      JSON.stringify(item.preconditions),
      JSON.stringify(item.reasons),
      item.bytes,
      now,
    );
}

export function loadPlan(db: Db, id: string): PlanRow | undefined {
  const raw = db.prepare("SELECT * FROM plans WHERE id = ?").get(id) as RawPlan | undefined;
  return raw && toPlan(raw);
}

export function loadPlanItems(db: Db, id: string): PlanItemRow[] {
  return (db.prepare("SELECT * FROM plan_items WHERE plan_id = ? ORDER BY seq").all(id) as RawItem[]).map(toItem);
}

export function setPlanStatus(db: Db, id: string, status: PlanStatus): void {
  db.prepare("UPDATE plans SET status = ? WHERE id = ?").run(status, id);
}

/** Moves an item from one state to another; false when it was not in `from` (someone else has it). */
export function transitionItem(db: Db, key: { planId: string; seq: number }, from: ItemState, to: ItemState, result: Record<string, unknown> | null): boolean {
  const info = db
    .prepare("UPDATE plan_items SET state = ?, result = ?, updated_at = ? WHERE plan_id = ? AND seq = ? AND state = ?")
    .run(to, result === null ? null : JSON.stringify(result), new Date().toISOString(), key.planId, key.seq, from);
  return info.changes === 1;
}

/** Records progress inside an `applying` item (e.g. the salvage ref made before the removal). */
export function noteItemResult(db: Db, key: { planId: string; seq: number }, result: Record<string, unknown>): void {
  db.prepare("UPDATE plan_items SET result = ?, updated_at = ? WHERE plan_id = ? AND seq = ?").run(
    JSON.stringify(result),
    new Date().toISOString(),
    key.planId,
    key.seq,
  );
}
