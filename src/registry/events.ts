// The events table: append-only lineage (created, adopted, reused, recycled, released, reaped,
// removed, salvaged, preventable_duplicate). Triggers refuse updates and deletes.
import type { Db } from "./db.js";

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

export function appendEvent(db: Db, event: Omit<EventRow, "id" | "at"> & { at?: string }): void {
  db.prepare("INSERT INTO events (at, kind, repo, handle, task, owner, data) VALUES (?, ?, ?, ?, ?, ?, ?)").run(
    event.at ?? new Date().toISOString(),
    event.kind,
    event.repo,
    event.handle,
    event.task,
    event.owner,
    JSON.stringify(event.data),
  );
}

type RawEvent = Omit<EventRow, "data"> & { data: string };
const toEvent = (r: RawEvent): EventRow => ({ ...r, data: JSON.parse(r.data) as Record<string, unknown> });

/** Events that name a handle or a task (canonical), oldest first. */
export function loadEventsFor(db: Db, key: { handle?: string; task?: string }): EventRow[] {
  const rows = db
    .prepare(
      "SELECT * FROM events WHERE handle = ? OR task = ? OR json_extract(data, '$.from.handle') = ? OR json_extract(data, '$.to.handle') = ? ORDER BY id",
    )
    .all(key.handle ?? null, key.task ?? null, key.handle ?? null, key.handle ?? null) as RawEvent[];
  return rows.map(toEvent);
}

export function loadEventsOfKind(db: Db, repo: string | null, kind: EventKind, limit?: number): EventRow[] {
  const rows =
    repo === null
      ? db.prepare("SELECT * FROM events WHERE kind = ? ORDER BY id DESC LIMIT ?").all(kind, limit ?? -1)
      : db.prepare("SELECT * FROM events WHERE repo = ? AND kind = ? ORDER BY id DESC LIMIT ?").all(repo, kind, limit ?? -1);
  return (rows as RawEvent[]).map(toEvent);
}

export function countEventsOfKind(db: Db, repo: string | null, kind: EventKind): number {
  const row =
    repo === null
      ? db.prepare("SELECT count(*) AS n FROM events WHERE kind = ?").get(kind)
      : db.prepare("SELECT count(*) AS n FROM events WHERE repo = ? AND kind = ?").get(repo, kind);
  return (row as { n: number }).n;
}
