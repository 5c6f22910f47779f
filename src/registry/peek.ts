// A read-only look into a workspace's SQLite registry, for the calls that only find a worktree
// (`orchard path`, `cd`, completion: core/navigate/quick.ts): no write, no migration, no check of
// the whole file. Anything short of a registry this version reads as it is (no file, another
// schema version, a locked or corrupt database, no driver) answers null, and the caller takes the
// full path, which opens the registry as every command does and reports what is wrong.
import { existsSync } from "node:fs";
import { MIGRATIONS } from "./migrations.js";
import { registryPath } from "./sqlite.js";
import { openConnection, type SqliteConnection } from "./sqlite-driver.js";
import type { Sql } from "./sql.js";
import { loadRepoByCommonDir, type RepoRow } from "./repos.js";
import { loadByHandle, loadCreating, loadCurrent, type WorktreeRow } from "./worktrees.js";

export interface RegistryPeek {
  /** The repo this host last recorded at a common dir (realpath). */
  repoAt(commonDir: string): Promise<RepoRow | undefined>;
  /** The current row of a handle on this host. */
  byHandle(handle: string): Promise<WorktreeRow | undefined>;
  /** This host's current rows of a repo, newest first. */
  current(repo: string): Promise<WorktreeRow[]>;
  /** This host's rows of a repo left `creating` (a command of this host settles them: not a peek's work). */
  creating(repo: string): Promise<WorktreeRow[]>;
  close(): void;
}

function sqlOf(db: SqliteConnection, host: string): Sql {
  const refuse = (): never => {
    throw new Error("a registry peek does not write");
  };
  return {
    dialect: "sqlite",
    host,
    all: async <T>(text: string, values?: readonly unknown[]) => db.prepare(text).all(values ?? []) as T[],
    get: async <T>(text: string, values?: readonly unknown[]) => db.prepare(text).get(values ?? []) as T | undefined,
    run: refuse,
    exec: refuse,
  };
}

/** The registry of `home` opened read-only, or null when it cannot be read as this version reads it. */
export async function peekSqlite(home: string, host: string): Promise<RegistryPeek | null> {
  const path = registryPath(home);
  if (!existsSync(path) || existsSync(`${path}.moved`)) return null;
  let db: SqliteConnection;
  try {
    db = await openConnection(path, { busyTimeoutMs: 1_000, readonly: true });
  } catch {
    return null;
  }
  try {
    if (db.pragma("user_version") !== MIGRATIONS.length) {
      db.close();
      return null;
    }
  } catch {
    db.close();
    return null;
  }
  const sql = sqlOf(db, host);
  return {
    repoAt: (commonDir) => loadRepoByCommonDir(sql, commonDir),
    byHandle: (handle) => loadByHandle(sql, handle),
    current: (repo) => loadCurrent(sql, repo),
    creating: (repo) => loadCreating(sql, repo),
    close: () => db.close(),
  };
}
