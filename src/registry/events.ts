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
  /** The host that wrote it (null only in a registry written before hosts existed). */
  host: string | null;
}

export async function appendEvent(sql: Sql, event: Omit<EventRow, "id" | "at" | "host"> & { at?: string }): Promise<void> {
  await sql.run("INSERT INTO events (at, kind, repo, handle, task, owner, data, host) VALUES (?, ?, ?, ?, ?, ?, ?, ?)", [
    event.at ?? new Date().toISOString(),
    event.kind,
    event.repo,
    event.handle,
    event.task,
    event.owner,
    JSON.stringify(event.data),
    sql.host,
  ]);
}

type RawEvent = Omit<EventRow, "data" | "id"> & { id: number | string; data: string };
const toEvent = (r: RawEvent): EventRow => ({ ...r, id: Number(r.id), data: JSON.parse(r.data) as Record<string, unknown> });

/** A handle named inside an event's data (`from`/`to` of a recycle), in the dialect's JSON syntax. */
const dataHandle = (sql: Sql, side: "from" | "to"): string =>
  sql.dialect === "sqlite" ? `json_extract(data, '$.${side}.handle')` : `(data::jsonb #>> '{${side},handle}')`;

/** Events that name a handle or a task (canonical), on every host, oldest first. */
export async function loadEventsFor(sql: Sql, key: { handle?: string; task?: string }): Promise<EventRow[]> {
  const rows = await sql.all<RawEvent>(
    `SELECT * FROM events WHERE handle = ? OR task = ? OR ${dataHandle(sql, "from")} = ? OR ${dataHandle(sql, "to")} = ? ORDER BY id`,
    [key.handle ?? null, key.task ?? null, key.handle ?? null, key.handle ?? null],
  );
  return rows.map(toEvent);
}

/** Which hosts' events a query reads: this host's (the default), or the whole fleet's. */
export type Scope = "host" | "fleet";

function where(sql: Sql, repo: string | null, kind: EventKind, scope: Scope): { text: string; values: unknown[] } {
  const parts = ["kind = ?"];
  const values: unknown[] = [kind];
  if (repo !== null) (parts.push("repo = ?"), values.push(repo));
  if (scope === "host") (parts.push("host = ?"), values.push(sql.host));
  return { text: parts.join(" AND "), values };
}

/** Events of a kind, newest first: this host's, or with scope "fleet" every host's. */
export async function loadEventsOfKind(sql: Sql, repo: string | null, kind: EventKind, limit?: number, scope: Scope = "host"): Promise<EventRow[]> {
  const cap = limit === undefined ? "" : ` LIMIT ${Math.max(0, Math.floor(limit))}`;
  const w = where(sql, repo, kind, scope);
  return (await sql.all<RawEvent>(`SELECT * FROM events WHERE ${w.text} ORDER BY id DESC${cap}`, w.values)).map(toEvent);
}

export async function countEventsOfKind(sql: Sql, repo: string | null, kind: EventKind, scope: Scope = "host"): Promise<number> {
  const w = where(sql, repo, kind, scope);
  const row = await sql.get<{ n: number | string }>(`SELECT count(*) AS n FROM events WHERE ${w.text}`, w.values);
  return Number(row?.n ?? 0);
}

/** Events of a kind on every host, counted by the host that wrote them ("" for a row written before hosts existed). */
export async function countEventsByHost(sql: Sql, repo: string | null, kind: EventKind): Promise<Record<string, number>> {
  const w = where(sql, repo, kind, "fleet");
  const rows = await sql.all<{ host: string; n: number | string }>(
    `SELECT COALESCE(host, '') AS host, count(*) AS n FROM events WHERE ${w.text} GROUP BY COALESCE(host, '') ORDER BY 1`,
    w.values,
  );
  return Object.fromEntries(rows.map((r) => [r.host, Number(r.n)]));
}
