// The repos table: one row per repo identity, holding the name handed out once per identity
// (fleet-wide); primaries: where each host keeps that repo's primary. A RepoRow is the repo as
// this host sees it.
import type { Sql } from "./sql.js";

export interface RepoRow {
  identity: string;
  name: string;
  primaryPath: string;
  commonDir: string;
  createdAt: string;
}

interface RawRepo {
  identity: string;
  name: string;
  primary_path: string;
  common_dir: string;
  created_at: string;
}
const toRepo = (r: RawRepo): RepoRow => ({ identity: r.identity, name: r.name, primaryPath: r.primary_path, commonDir: r.common_dir, createdAt: r.created_at });

// This host's view: the name from repos, the paths from this host's primaries row (or, for a repo
// another host recorded first, that host's paths until this one records its own).
const VIEW = `SELECT r.identity, r.name, r.created_at, COALESCE(p.primary_path, r.primary_path) AS primary_path,
  COALESCE(p.common_dir, r.common_dir) AS common_dir, COALESCE(p.seen_at, r.seen_at) AS seen_at
  FROM repos r LEFT JOIN primaries p ON p.identity = r.identity AND p.host = ?`;

export async function loadRepo(sql: Sql, identity: string): Promise<RepoRow | undefined> {
  const raw = await sql.get<RawRepo>(`${VIEW} WHERE r.identity = ?`, [sql.host, identity]);
  return raw && toRepo(raw);
}

export async function loadRepoByName(sql: Sql, name: string): Promise<RepoRow | undefined> {
  const raw = await sql.get<RawRepo>(`${VIEW} WHERE r.name = ?`, [sql.host, name]);
  return raw && toRepo(raw);
}

/** The repos this host has a primary of, by name. */
export async function loadRepos(sql: Sql): Promise<RepoRow[]> {
  return (await sql.all<RawRepo>(`${VIEW} WHERE p.host IS NOT NULL ORDER BY r.name`, [sql.host])).map(toRepo);
}

/** Records the repo (its name once, fleet-wide) and where this host keeps its primary. */
export async function saveRepo(sql: Sql, row: RepoRow): Promise<void> {
  const now = new Date().toISOString();
  await sql.run(
    `INSERT INTO repos (identity, name, primary_path, common_dir, created_at, seen_at) VALUES (?, ?, ?, ?, ?, ?)
     ON CONFLICT(identity) DO UPDATE SET seen_at = excluded.seen_at`,
    [row.identity, row.name, row.primaryPath, row.commonDir, row.createdAt, now],
  );
  await sql.run(
    `INSERT INTO primaries (identity, host, primary_path, common_dir, seen_at) VALUES (?, ?, ?, ?, ?)
     ON CONFLICT(identity, host) DO UPDATE SET primary_path = excluded.primary_path, common_dir = excluded.common_dir, seen_at = excluded.seen_at`,
    [row.identity, sql.host, row.primaryPath, row.commonDir, now],
  );
}

/** The repo this host last recorded at a common dir. */
export async function loadRepoByCommonDir(sql: Sql, commonDir: string): Promise<RepoRow | undefined> {
  const raw = await sql.get<RawRepo>(`${VIEW} WHERE p.host IS NOT NULL AND p.common_dir = ? ORDER BY p.seen_at DESC LIMIT 1`, [sql.host, commonDir]);
  return raw && toRepo(raw);
}

/**
 * Carries a repo's rows over to a new identity (its origin URL changed; same common dir): the repo
 * row (keeping its name, so handles stay valid), its primaries, worktrees, plan items and trust.
 * Events are append-only and keep the identity they were written under. Callers run it in a
 * transaction.
 */
export async function moveRepoIdentity(sql: Sql, from: string, to: string): Promise<void> {
  await sql.exec(sql.dialect === "sqlite" ? "PRAGMA defer_foreign_keys = ON" : "SET CONSTRAINTS ALL DEFERRED");
  await sql.run("UPDATE repos SET identity = ? WHERE identity = ?", [to, from]);
  await sql.run("UPDATE primaries SET identity = ? WHERE identity = ?", [to, from]);
  for (const table of ["worktrees", "plan_items", "trust"]) await sql.run(`UPDATE ${table} SET repo = ? WHERE repo = ?`, [to, from]);
}
