// A read-only look into a workspace's SQLite registry, for the calls that only find a worktree
// (`orchard path`, `cd`, completion: core/navigate/quick.ts): no write, no migration, no check of
// the whole file. Anything short of a registry this version reads as it is (no file, another
// schema version, a locked or corrupt database, no driver) answers null, and the caller takes the
// full path, which opens the registry as every command does and reports what is wrong.
// `navigation` answers those lookups from the navigation snapshot while the registry's files are
// unchanged (peek-snapshot.ts), and reads the registry, then writes the snapshot, when they are not:
// the SQLite driver (a native module) is loaded only then.
import { existsSync } from "node:fs";
import { MIGRATIONS } from "./migrations.js";
import { registryPath } from "./sqlite.js";
import { openConnection, type SqliteConnection } from "./sqlite-driver.js";
import type { Sql } from "./sql.js";
import { loadRepoByCommonDir, loadRepos, type RepoRow } from "./repos.js";
import { loadByHandle, loadCreating, loadCurrent, type WorktreeRow } from "./worktrees.js";
import { NAV_VERSION, readSnapshot, snapshotPath, stampRegistry, writeSnapshot, type NavRepo, type NavRow, type NavSnapshot } from "./peek-snapshot.js";

export type { NavRepo, NavRow } from "./peek-snapshot.js";

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
  return (await openPeek(home, host))?.peek ?? null;
}

async function openPeek(home: string, host: string): Promise<{ peek: RegistryPeek; db: SqliteConnection } | null> {
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
  const peek: RegistryPeek = {
    repoAt: (commonDir) => loadRepoByCommonDir(sql, commonDir),
    byHandle: (handle) => loadByHandle(sql, handle),
    current: (repo) => loadCurrent(sql, repo),
    creating: (repo) => loadCreating(sql, repo),
    close: () => db.close(),
  };
  return { peek, db };
}

/** What the lookups of `orchard path` and a TAB read of the registry, and where it came from. */
export interface Navigation {
  /** The repo this host last recorded at a common dir (realpath), with this host's current rows of it (`creating` ones too), newest first. */
  repoAt(commonDir: string): NavRepo | undefined;
  source: "snapshot" | "registry";
  /** Why the snapshot was not used (registry), and whether it was written. */
  note: string;
}

const navRow = (r: WorktreeRow): NavRow => ({
  handle: r.handle,
  path: r.path,
  branch: r.branch,
  task: r.task,
  lifecycle: r.lifecycle,
  host: r.host,
  lastActivityAt: r.lastActivityAt,
});

/** Every repo this host recorded, by common dir as repoAt finds it, with its current rows: one read transaction. */
async function readAll(peek: RegistryPeek, db: SqliteConnection, host: string): Promise<NavRepo[]> {
  db.exec("BEGIN"); // one snapshot of the database for every read below (a read-only connection may)
  try {
    // the version openPeek checked, again inside the transaction: a migration between the two is not read as this version reads it
    if (db.pragma("user_version") !== MIGRATIONS.length) throw new Error("the registry was migrated meanwhile");
    const sql = sqlOf(db, host);
    const commonDirs = new Set((await loadRepos(sql)).map((r) => r.commonDir));
    const rows = await loadCurrent(sql);
    const out: NavRepo[] = [];
    for (const commonDir of commonDirs) {
      const repo = await peek.repoAt(commonDir);
      if (repo) out.push({ repo, rows: rows.filter((r) => r.repo === repo.identity).map(navRow) });
    }
    return out;
  } finally {
    db.rollback();
  }
}

function navigationOf(repos: readonly NavRepo[], source: Navigation["source"], note: string): Navigation {
  const byDir = new Map(repos.map((e) => [e.repo.commonDir, e]));
  return { repoAt: (commonDir) => byDir.get(commonDir), source, note };
}

/**
 * The lookups of `orchard path` and a TAB for `home`'s registry (a realpath): from the navigation
 * snapshot when the registry's files are the ones it was read from, else from the registry (then
 * the snapshot is written again); null when the registry cannot be peeked (peekSqlite).
 */
export async function navigation(home: string, host: string): Promise<Navigation | null> {
  const db = registryPath(home);
  if (!existsSync(db) || existsSync(`${db}.moved`)) return null;
  const file = snapshotPath(home);
  const before = stampRegistry(db);
  let why = "the registry gives no token";
  if (before.token !== null) {
    const found = readSnapshot(file, { schema: MIGRATIONS.length, host, db, token: before.token });
    if (typeof found !== "string") return navigationOf(found.repos, "snapshot", "");
    why = found;
  }
  const opened = await openPeek(home, host);
  if (!opened) return null;
  let repos: NavRepo[];
  try {
    repos = await readAll(opened.peek, opened.db, host);
  } finally {
    opened.peek.close();
  }
  const after = stampRegistry(db);
  let wrote: string;
  if (before.token === null || before.racy !== null) wrote = `not written: ${before.racy ?? "no token"}`;
  else if (after.token !== before.token) wrote = "not written: the registry changed while it was read";
  else {
    const snapshot: NavSnapshot = { version: NAV_VERSION, schema: MIGRATIONS.length, host, db, token: before.token, takenAt: before.takenAt, repos };
    const failed = writeSnapshot(file, snapshot);
    wrote = failed === null ? "written" : `not written: ${failed}`;
  }
  return navigationOf(repos, "registry", `the snapshot: ${why}; ${wrote}`);
}
