// The repos table: one row per repo identity, holding the name handed out once per identity.
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

export async function loadRepo(sql: Sql, identity: string): Promise<RepoRow | undefined> {
  const raw = await sql.get<RawRepo>("SELECT * FROM repos WHERE identity = ?", [identity]);
  return raw && toRepo(raw);
}

export async function loadRepoByName(sql: Sql, name: string): Promise<RepoRow | undefined> {
  const raw = await sql.get<RawRepo>("SELECT * FROM repos WHERE name = ?", [name]);
  return raw && toRepo(raw);
}

export async function loadRepos(sql: Sql): Promise<RepoRow[]> {
  return (await sql.all<RawRepo>("SELECT * FROM repos ORDER BY name")).map(toRepo);
}

export async function saveRepo(sql: Sql, row: RepoRow): Promise<void> {
  await sql.run(
    `INSERT INTO repos (identity, name, primary_path, common_dir, created_at, seen_at) VALUES (?, ?, ?, ?, ?, ?)
     ON CONFLICT(identity) DO UPDATE SET primary_path = excluded.primary_path, common_dir = excluded.common_dir, seen_at = excluded.seen_at`,
    [row.identity, row.name, row.primaryPath, row.commonDir, row.createdAt, new Date().toISOString()],
  );
}

export async function loadRepoByCommonDir(sql: Sql, commonDir: string): Promise<RepoRow | undefined> {
  const raw = await sql.get<RawRepo>("SELECT * FROM repos WHERE common_dir = ? ORDER BY seen_at DESC LIMIT 1", [commonDir]);
  return raw && toRepo(raw);
}

/**
 * Carries a repo's rows over to a new identity (its origin URL changed; same common dir): the repo
 * row (keeping its name, so handles stay valid), its worktrees, plans and trust. Events are
 * append-only and keep the identity they were written under. Callers run it in a transaction.
 */
export async function moveRepoIdentity(sql: Sql, from: string, to: string): Promise<void> {
  await sql.exec(sql.dialect === "sqlite" ? "PRAGMA defer_foreign_keys = ON" : "SET CONSTRAINTS ALL DEFERRED");
  await sql.run("UPDATE repos SET identity = ? WHERE identity = ?", [to, from]);
  for (const table of ["worktrees", "plan_items", "trust"]) await sql.run(`UPDATE ${table} SET repo = ? WHERE repo = ?`, [to, from]);
}
