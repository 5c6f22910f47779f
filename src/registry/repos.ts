// The repos table: one row per repo identity, holding the name handed out once per identity.
import type { Db } from "./db.js";

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

export function loadRepo(db: Db, identity: string): RepoRow | undefined {
  const raw = db.prepare("SELECT * FROM repos WHERE identity = ?").get(identity) as RawRepo | undefined;
  return raw && toRepo(raw);
}

export function loadRepoByName(db: Db, name: string): RepoRow | undefined {
  const raw = db.prepare("SELECT * FROM repos WHERE name = ?").get(name) as RawRepo | undefined;
  return raw && toRepo(raw);
}

export function loadRepos(db: Db): RepoRow[] {
  return (db.prepare("SELECT * FROM repos ORDER BY name").all() as RawRepo[]).map(toRepo);
}

export function saveRepo(db: Db, row: RepoRow): void {
  db.prepare(
    `INSERT INTO repos (identity, name, primary_path, common_dir, created_at, seen_at) VALUES (?, ?, ?, ?, ?, ?)
     ON CONFLICT(identity) DO UPDATE SET primary_path = excluded.primary_path, common_dir = excluded.common_dir, seen_at = excluded.seen_at`,
  ).run(row.identity, row.name, row.primaryPath, row.commonDir, row.createdAt, new Date().toISOString());
}

export function loadRepoByCommonDir(db: Db, commonDir: string): RepoRow | undefined {
  const raw = db.prepare("SELECT * FROM repos WHERE common_dir = ? ORDER BY seen_at DESC LIMIT 1").get(commonDir) as RawRepo | undefined;
  return raw && toRepo(raw);
}

/**
 * Carries a repo's rows over to a new identity (its origin URL changed; same common dir): the repo
 * row (keeping its name, so handles stay valid), its worktrees, plans and trust. Events are
 * append-only and keep the identity they were written under. Callers run it in a transaction.
 */
export function moveRepoIdentity(db: Db, from: string, to: string): void {
  db.pragma("defer_foreign_keys = ON");
  db.prepare("UPDATE repos SET identity = ? WHERE identity = ?").run(to, from);
  db.prepare("UPDATE worktrees SET repo = ? WHERE repo = ?").run(to, from);
  for (const table of ["plans", "plan_items", "trust"])
    if ((db.prepare(`SELECT COUNT(*) AS n FROM pragma_table_info('${table}') WHERE name = 'repo'`).get() as { n: number }).n > 0)
      db.prepare(`UPDATE ${table} SET repo = ? WHERE repo = ?`).run(to, from);
}
