// The events table: append-only lineage (created, adopted, reused, recycled, released, reaped,
// removed, salvaged, preventable_duplicate). Triggers refuse updates and deletes.
import type { Sql } from "./sql.js";

export type EventKind = "created" | "adopted" | "reused" | "recycled" | "released" | "reaped" | "removed" | "salvaged" | "preventable_duplicate";

export interface EventRow {
  id: number;
  at: string;
  kind: EventKind;
  repo: string;
  handle: string | null;
  task: string | null;
  owner: string | null;
  data: Record<string, unknown>;
}

export async function appendEvent(sql: Sql, event: Omit<EventRow, "id" | "at"> & { at?: string }): Promise<void> {
  await sql.run("INSERT INTO events (at, kind, repo, handle, task, owner, data) VALUES (?, ?, ?, ?, ?, ?, ?)", [
    event.at ?? new Date().toISOString(),
    event.kind,
    event.repo,
    event.handle,
    event.task,
    event.owner,
    JSON.stringify(event.data),
  ]);
}

type RawEvent = Omit<EventRow, "data" | "id"> & { id: number | string; data: string };
const toEvent = (r: RawEvent): EventRow => ({ ...r, id: Number(r.id), data: JSON.parse(r.data) as Record<string, unknown> });

/** A handle named inside an event's data (`from`/`to` of a recycle), in the dialect's JSON syntax. */
const dataHandle = (sql: Sql, side: "from" | "to"): string =>
  sql.dialect === "sqlite" ? `json_extract(data, '$.${side}.handle')` : `(data::jsonb #>> '{${side},handle}')`;

/** Events that name a handle or a task (canonical), oldest first. */
export async function loadEventsFor(sql: Sql, key: { handle?: string; task?: string }): Promise<EventRow[]> {
  const rows = await sql.all<RawEvent>(
    `SELECT * FROM events WHERE handle = ? OR task = ? OR ${dataHandle(sql, "from")} = ? OR ${dataHandle(sql, "to")} = ? ORDER BY id`,
    [key.handle ?? null, key.task ?? null, key.handle ?? null, key.handle ?? null],
  );
  return rows.map(toEvent);
}

export async function loadEventsOfKind(sql: Sql, repo: string | null, kind: EventKind, limit?: number): Promise<EventRow[]> {
  const cap = limit === undefined ? "" : ` LIMIT ${Math.max(0, Math.floor(limit))}`;
  const rows =
    repo === null
      ? await sql.all<RawEvent>(`SELECT * FROM events WHERE kind = ? ORDER BY id DESC${cap}`, [kind])
      : await sql.all<RawEvent>(`SELECT * FROM events WHERE repo = ? AND kind = ? ORDER BY id DESC${cap}`, [repo, kind]);
  return rows.map(toEvent);
}

export async function countEventsOfKind(sql: Sql, repo: string | null, kind: EventKind): Promise<number> {
  const row =
    repo === null
      ? await sql.get<{ n: number | string }>("SELECT count(*) AS n FROM events WHERE kind = ?", [kind])
      : await sql.get<{ n: number | string }>("SELECT count(*) AS n FROM events WHERE repo = ? AND kind = ?", [repo, kind]);
  return Number(row?.n ?? 0);
}
