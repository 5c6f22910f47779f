// The plans and plan_items tables: stored cleanup plans (SPEC §3.7). A plan is written once with
// all its items `pending`; apply moves each item pending → applying → done|skipped|failed, every
// transition its own committed write, so a crash leaves at most the items it was acting on in
// `applying` (resume re-checks them). Claiming an item is a compare-and-set on its state.
import type { Sql } from "./sql.js";

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
  bytes: number | string | null;
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
  bytes: r.bytes === null ? null : Number(r.bytes),
  state: r.state,
  result: r.result === null ? null : (JSON.parse(r.result) as Record<string, unknown>),
  updatedAt: r.updated_at,
});

export async function insertPlan(sql: Sql, plan: Omit<PlanRow, "status">, items: readonly NewPlanItem[]): Promise<void> {
  const now = new Date().toISOString();
  await sql.run("INSERT INTO plans (id, created_at, scope, digest, options, status, skipped, host) VALUES (?, ?, ?, ?, ?, 'planned', ?, ?)", [
    plan.id,
    plan.createdAt,
    plan.scope,
    plan.digest,
    JSON.stringify(plan.options),
    JSON.stringify(plan.skipped),
    sql.host,
  ]);
  for (const item of items)
    await sql.run(
      `INSERT INTO plan_items (plan_id, seq, repo, path, handle, action, preconditions, reasons, bytes, state, result, updated_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, 'pending', NULL, ?)`,
      [plan.id, item.seq, item.repo, item.path, item.handle, item.action, JSON.stringify(item.preconditions), JSON.stringify(item.reasons), item.bytes, now],
    );
}

/** A plan of this host (another host's plan names paths on that machine: never applied here). */
export async function loadPlan(sql: Sql, id: string): Promise<PlanRow | undefined> {
  const raw = await sql.get<RawPlan>("SELECT * FROM plans WHERE id = ? AND (host = ? OR host IS NULL)", [id, sql.host]);
  return raw && toPlan(raw);
}

/** Ids of this host's plans not yet completed, newest first (shell completion of a plan id). */
export async function loadOpenPlanIds(sql: Sql, limit = 50): Promise<string[]> {
  const rows = await sql.all<{ id: string }>(
    "SELECT id FROM plans WHERE status <> 'completed' AND (host = ? OR host IS NULL) ORDER BY created_at DESC LIMIT ?",
    [sql.host, limit],
  );
  return rows.map((r) => r.id);
}

export async function loadPlanItems(sql: Sql, id: string): Promise<PlanItemRow[]> {
  return (await sql.all<RawItem>("SELECT * FROM plan_items WHERE plan_id = ? ORDER BY seq", [id])).map(toItem);
}

/** The plan's items of these seqs (a batch's, read again under its lock), not the whole plan. */
export async function loadPlanItemsAt(sql: Sql, id: string, seqs: readonly number[]): Promise<PlanItemRow[]> {
  if (seqs.length === 0) return [];
  const marks = seqs.map(() => "?").join(", ");
  return (await sql.all<RawItem>(`SELECT * FROM plan_items WHERE plan_id = ? AND seq IN (${marks}) ORDER BY seq`, [id, ...seqs])).map(toItem);
}

export async function setPlanStatus(sql: Sql, id: string, status: PlanStatus): Promise<void> {
  await sql.run("UPDATE plans SET status = ? WHERE id = ?", [status, id]);
}

/** Moves an item from one state to another; false when it was not in `from` (someone else has it). */
export async function transitionItem(
  sql: Sql,
  key: { planId: string; seq: number },
  from: ItemState,
  to: ItemState,
  result: Record<string, unknown> | null,
): Promise<boolean> {
  const changed = await sql.run("UPDATE plan_items SET state = ?, result = ?, updated_at = ? WHERE plan_id = ? AND seq = ? AND state = ?", [
    to,
    result === null ? null : JSON.stringify(result),
    new Date().toISOString(),
    key.planId,
    key.seq,
    from,
  ]);
  return changed === 1;
}

/** Records progress inside an `applying` item (e.g. the salvage ref made before the removal). */
export async function noteItemResult(sql: Sql, key: { planId: string; seq: number }, result: Record<string, unknown>): Promise<void> {
  await sql.run("UPDATE plan_items SET result = ?, updated_at = ? WHERE plan_id = ? AND seq = ?", [
    JSON.stringify(result),
    new Date().toISOString(),
    key.planId,
    key.seq,
  ]);
}
