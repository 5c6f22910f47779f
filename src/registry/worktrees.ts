// The worktrees table: Orchard's intent for each managed worktree (task, owner, lease, base,
// fingerprints, lineage links). Git stays the truth about what exists.
import type { Sql } from "./sql.js";

export type Lifecycle = "creating" | "active" | "terminal" | "recycled" | "removed";
export type Outcome = "done" | "abandoned" | "failed";

export interface WorktreeRow {
  id: number;
  repo: string;
  handle: string;
  path: string;
  /** The branch checked out; null for an adopted detached worktree (stored as '': git refuses an empty branch name). */
  branch: string | null;
  createdBranch: boolean;
  baseRef: string | null;
  baseCommit: string | null;
  task: string | null;
  taskRaw: string | null;
  owner: string | null;
  /** Who held the lease a release ended (never a lease itself: liveness reads `owner`, `pid` and the heartbeat). */
  lastOwner: string | null;
  pid: number | null;
  pidStart: string | null;
  /** The host the worktree lives on (set by the registry on insert, never changed). */
  host: string | null;
  heartbeatAt: string | null;
  ttlMs: number | null;
  lifecycle: Lifecycle;
  outcome: Outcome | null;
  fpBootstrap: string | null;
  fpContext: string | null;
  fpRuntime: string | null;
  recycledFrom: number | null;
  supersededBy: number | null;
  createdAt: string;
  updatedAt: string;
  releasedAt: string | null;
  lastActivityAt: string;
}

/** The full ref of the row's branch; null for a detached worktree (never `refs/heads/null`). */
export const branchRefOf = (row: Pick<WorktreeRow, "branch">): string | null => (row.branch === null ? null : `refs/heads/${row.branch}`);

export type NewWorktreeRow = Omit<WorktreeRow, "id" | "updatedAt">;

const COLUMNS: Record<keyof Omit<WorktreeRow, "id">, string> = {
  repo: "repo",
  handle: "handle",
  path: "path",
  branch: "branch",
  createdBranch: "created_branch",
  baseRef: "base_ref",
  baseCommit: "base_commit",
  task: "task",
  taskRaw: "task_raw",
  owner: "owner",
  lastOwner: "last_owner",
  pid: "pid",
  pidStart: "pid_start",
  host: "host",
  heartbeatAt: "heartbeat_at",
  ttlMs: "ttl_ms",
  lifecycle: "lifecycle",
  outcome: "outcome",
  fpBootstrap: "fp_bootstrap",
  fpContext: "fp_context",
  fpRuntime: "fp_runtime",
  recycledFrom: "recycled_from",
  supersededBy: "superseded_by",
  createdAt: "created_at",
  updatedAt: "updated_at",
  releasedAt: "released_at",
  lastActivityAt: "last_activity_at",
};

const text = (v: unknown): string | null => (v ?? null) as string | null;
const numeric = (v: unknown): number | null => (v === null || v === undefined ? null : Number(v));

/**
 * A row as the table holds it (COLUMNS, in its order): one object literal of one shape (a listing
 * converts every row of a fleet; a row built key by key cost it a dynamic store per column).
 */
function toRow(raw: Record<string, unknown>): WorktreeRow {
  return {
    id: Number(raw.id),
    repo: text(raw.repo) as string,
    handle: text(raw.handle) as string,
    path: text(raw.path) as string,
    branch: raw.branch === "" ? null : text(raw.branch), // '' (NOT NULL since v1): a detached worktree
    createdBranch: Number(raw.created_branch) === 1,
    baseRef: text(raw.base_ref),
    baseCommit: text(raw.base_commit),
    task: text(raw.task),
    taskRaw: text(raw.task_raw),
    owner: text(raw.owner),
    lastOwner: text(raw.last_owner),
    pid: numeric(raw.pid),
    pidStart: text(raw.pid_start),
    host: text(raw.host),
    heartbeatAt: text(raw.heartbeat_at),
    ttlMs: numeric(raw.ttl_ms),
    lifecycle: text(raw.lifecycle) as Lifecycle,
    outcome: text(raw.outcome) as Outcome | null,
    fpBootstrap: text(raw.fp_bootstrap),
    fpContext: text(raw.fp_context),
    fpRuntime: text(raw.fp_runtime),
    recycledFrom: numeric(raw.recycled_from),
    supersededBy: numeric(raw.superseded_by),
    createdAt: text(raw.created_at) as string,
    updatedAt: text(raw.updated_at) as string,
    releasedAt: text(raw.released_at),
    lastActivityAt: text(raw.last_activity_at) as string,
  };
}

function toSql(value: unknown, key?: string): unknown {
  if (key === "branch" && value === null) return DETACHED;
  return typeof value === "boolean" ? (value ? 1 : 0) : value;
}

/** The column's value for a detached worktree: the column is NOT NULL since v1, and no branch is named ''. */
const DETACHED = "";

const LIVE = "lifecycle IN ('creating','active','terminal')";

/** The current (not recycled or removed) row of a handle on this host. */
export async function loadByHandle(sql: Sql, handle: string): Promise<WorktreeRow | undefined> {
  const raw = await sql.get(`SELECT * FROM worktrees WHERE host = ? AND handle = ? AND ${LIVE}`, [sql.host, handle]);
  return raw && toRow(raw);
}

export async function loadById(sql: Sql, id: number): Promise<WorktreeRow | undefined> {
  const raw = await sql.get("SELECT * FROM worktrees WHERE id = ?", [id]);
  return raw && toRow(raw);
}

/** This host's current rows of a repo (or of every repo), newest first. */
export async function loadCurrent(sql: Sql, repo?: string): Promise<WorktreeRow[]> {
  const rows = repo
    ? await sql.all(`SELECT * FROM worktrees WHERE host = ? AND repo = ? AND ${LIVE} ORDER BY id DESC`, [sql.host, repo])
    : await sql.all(`SELECT * FROM worktrees WHERE host = ? AND ${LIVE} ORDER BY id DESC`, [sql.host]);
  return rows.map(toRow);
}

/**
 * This host's current row of a repo at a worktree path (the newest, as loadCurrent's first match):
 * one indexed read (worktrees_path) where a command looks up the row of one worktree at its use.
 */
export async function loadAtPath(sql: Sql, repo: string, path: string): Promise<WorktreeRow | undefined> {
  const raw = await sql.get(`SELECT * FROM worktrees WHERE path = ? AND host = ? AND repo = ? AND ${LIVE} ORDER BY id DESC LIMIT 1`, [path, sql.host, repo]);
  return raw && toRow(raw);
}

/** The path and handle of each of this host's current rows of a repo: what recovering identity files
 * checks against (core/shared/recovered.ts), without reading every row whole. */
export async function loadCurrentKeys(sql: Sql, repo: string): Promise<Pick<WorktreeRow, "path" | "handle">[]> {
  const rows = await sql.all<{ path: string; handle: string }>(`SELECT path, handle FROM worktrees WHERE host = ? AND repo = ? AND ${LIVE}`, [sql.host, repo]);
  return rows.map((r) => ({ path: r.path, handle: r.handle }));
}

/** Current rows of a repo on every host of the fleet (this one included), optionally of one task, newest first. */
export async function loadFleet(sql: Sql, repo: string, task?: string | null): Promise<WorktreeRow[]> {
  const rows =
    task === undefined || task === null
      ? await sql.all(`SELECT * FROM worktrees WHERE repo = ? AND ${LIVE} ORDER BY id DESC`, [repo])
      : await sql.all(`SELECT * FROM worktrees WHERE repo = ? AND task = ? AND ${LIVE} ORDER BY id DESC`, [repo, task]);
  return rows.map(toRow);
}

export async function insertWorktree(sql: Sql, row: NewWorktreeRow): Promise<WorktreeRow> {
  const entries = Object.entries(COLUMNS).filter(([key]) => key !== "updatedAt");
  const now = new Date().toISOString();
  const text = `INSERT INTO worktrees (${entries.map(([, c]) => c).join(", ")}, updated_at) VALUES (${entries.map(() => "?").join(", ")}, ?) RETURNING *`;
  const values = entries.map(([key]) => toSql(key === "host" ? sql.host : (row as unknown as Record<string, unknown>)[key], key));
  return toRow((await sql.get(text, [...values, now])) as Record<string, unknown>);
}

export async function updateWorktree(sql: Sql, id: number, patch: Partial<Omit<WorktreeRow, "id" | "updatedAt">>): Promise<WorktreeRow> {
  const keys = (Object.keys(patch) as (keyof typeof COLUMNS)[]).filter((key) => key !== "host"); // a worktree never changes host
  const sets = keys.map((key) => `${COLUMNS[key]} = ?`);
  const values = keys.map((key) => toSql(patch[key as keyof typeof patch], key));
  const raw = await sql.get(`UPDATE worktrees SET ${[...sets, "updated_at = ?"].join(", ")} WHERE id = ? RETURNING *`, [
    ...values,
    new Date().toISOString(),
    id,
  ]);
  return (raw && toRow(raw)) as WorktreeRow;
}

export async function deleteWorktree(sql: Sql, id: number): Promise<void> {
  await sql.run("DELETE FROM worktrees WHERE id = ?", [id]);
}

/** This host's rows of a repo left (or being) `creating`. */
export async function loadCreating(sql: Sql, repo: string): Promise<WorktreeRow[]> {
  const rows = await sql.all("SELECT * FROM worktrees WHERE host = ? AND repo = ? AND lifecycle = 'creating' ORDER BY id", [sql.host, repo]);
  return rows.map(toRow);
}

// A `creating` row's creator (SPEC v3 §5), on PostgreSQL: the session that inserted the row holds
// a session-level advisory lock keyed by the schema and the row id until the row is active or
// rolled back. A creator whose connection is gone (killed, cut) has lost it, so every host can
// tell an add still creating from a phantom. SQLite has no sessions: the creator is not known.
const CREATION_KEY = "hashtextextended(current_schema() || ':orchard-creating:' || ?, 0)";

/** Marks this connection as the creator of row `id` (call inside the transaction that inserts it). */
export async function holdCreation(sql: Sql, id: number): Promise<void> {
  if (sql.dialect === "postgres") await sql.get(`SELECT pg_try_advisory_lock(${CREATION_KEY}) AS held`, [String(id)]);
}

/** The row is active or gone: its creator lets go. */
export async function releaseCreation(sql: Sql, id: number): Promise<void> {
  if (sql.dialect === "postgres") await sql.get(`SELECT pg_advisory_unlock(${CREATION_KEY}) AS released`, [String(id)]);
}

/** Which of these `creating` rows a live session is still creating; null when the backend cannot tell (SQLite). */
export async function creationsHeld(sql: Sql, ids: readonly number[]): Promise<Set<number> | null> {
  if (sql.dialect !== "postgres") return null;
  if (ids.length === 0) return new Set();
  const rows = await sql.all<{ id: unknown }>(
    `SELECT id FROM unnest(?::bigint[]) AS id WHERE EXISTS (
       SELECT 1 FROM pg_locks l WHERE l.locktype = 'advisory' AND l.granted AND l.objsubid = 1
         AND l.database = (SELECT oid FROM pg_database WHERE datname = current_database())
         AND ((l.classid::bigint << 32) | l.objid::bigint) = hashtextextended(current_schema() || ':orchard-creating:' || id::text, 0))`,
    [ids.map(String)],
  );
  return new Set(rows.map((r) => Number(r.id)));
}
