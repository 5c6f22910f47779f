// The worktrees table: Orchard's intent for each managed worktree (task, owner, lease, base,
// fingerprints, lineage links). Git stays the truth about what exists.
import type { Db } from "./db.js";

export type Lifecycle = "creating" | "active" | "terminal" | "recycled" | "removed";
export type Outcome = "done" | "abandoned" | "failed";

export interface WorktreeRow {
  id: number;
  repo: string;
  handle: string;
  path: string;
  branch: string;
  createdBranch: boolean;
  baseRef: string | null;
  baseCommit: string | null;
  task: string | null;
  taskRaw: string | null;
  owner: string | null;
  pid: number | null;
  pidStart: string | null;
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

function toRow(raw: Record<string, unknown>): WorktreeRow {
  const row: Record<string, unknown> = { id: raw.id };
  for (const [key, column] of Object.entries(COLUMNS)) row[key] = raw[column] ?? null;
  row.createdBranch = raw.created_branch === 1;
  return row as unknown as WorktreeRow;
}

function toSql(value: unknown): unknown {
  return typeof value === "boolean" ? (value ? 1 : 0) : value;
}

const LIVE = "lifecycle IN ('creating','active','terminal')";

/** The current (not recycled or removed) row of a handle. */
export function loadByHandle(db: Db, handle: string): WorktreeRow | undefined {
  const raw = db.prepare(`SELECT * FROM worktrees WHERE handle = ? AND ${LIVE}`).get(handle) as Record<string, unknown> | undefined;
  return raw && toRow(raw);
}

export function loadById(db: Db, id: number): WorktreeRow | undefined {
  const raw = db.prepare("SELECT * FROM worktrees WHERE id = ?").get(id) as Record<string, unknown> | undefined;
  return raw && toRow(raw);
}

/** Current rows of a repo (or of every repo), newest first. */
export function loadCurrent(db: Db, repo?: string): WorktreeRow[] {
  const rows = repo
    ? db.prepare(`SELECT * FROM worktrees WHERE repo = ? AND ${LIVE} ORDER BY id DESC`).all(repo)
    : db.prepare(`SELECT * FROM worktrees WHERE ${LIVE} ORDER BY id DESC`).all();
  return (rows as Record<string, unknown>[]).map(toRow);
}

export function insertWorktree(db: Db, row: NewWorktreeRow): WorktreeRow {
  const entries = Object.entries(COLUMNS).filter(([key]) => key !== "updatedAt");
  const now = new Date().toISOString();
  const sql = `INSERT INTO worktrees (${entries.map(([, c]) => c).join(", ")}, updated_at) VALUES (${entries.map(() => "?").join(", ")}, ?)`;
  const values = entries.map(([key]) => toSql((row as unknown as Record<string, unknown>)[key]));
  const info = db.prepare(sql).run(...values, now);
  return loadById(db, Number(info.lastInsertRowid)) as WorktreeRow;
}

export function updateWorktree(db: Db, id: number, patch: Partial<Omit<WorktreeRow, "id" | "updatedAt">>): WorktreeRow {
  const keys = Object.keys(patch) as (keyof typeof COLUMNS)[];
  const sets = keys.map((key) => `${COLUMNS[key]} = ?`);
  const values = keys.map((key) => toSql(patch[key as keyof typeof patch]));
  db.prepare(`UPDATE worktrees SET ${[...sets, "updated_at = ?"].join(", ")} WHERE id = ?`).run(...values, new Date().toISOString(), id);
  return loadById(db, id) as WorktreeRow;
}

export function deleteWorktree(db: Db, id: number): void {
  db.prepare("DELETE FROM worktrees WHERE id = ?").run(id);
}
