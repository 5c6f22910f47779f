// The only code that opens SQLite (the embedded default registry). WAL, a busy timeout, foreign
// keys and numbered migrations; a database that is corrupt or locked past the timeout is reported,
// never silently recreated. The driver under it (node:sqlite or better-sqlite3) is sqlite-driver.ts's.
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { RegistryError } from "./errors.js";
import { MIGRATIONS, migrate, type MigrationHooks } from "./migrations.js";
import type { Sql, Store } from "./sql.js";
import { openConnection, type SqliteConnection, type SqliteStatement } from "./sqlite-driver.js";

export const BUSY_TIMEOUT_MS = 5_000;

export function registryPath(home: string): string {
  return join(home, "orchard.db");
}

/** Wraps a SQLite failure in a RegistryError that says what to do about it. */
function sqliteFailure(error: unknown, path: string): RegistryError {
  const code = (error as { code?: string }).code ?? "";
  if (code.startsWith("SQLITE_BUSY") || code.startsWith("SQLITE_LOCKED"))
    return new RegistryError("registry_locked", `the registry ${path} stayed locked past ${BUSY_TIMEOUT_MS} ms; another orchard is writing, retry`, {
      cause: error,
    });
  if (code === "SQLITE_CORRUPT" || code === "SQLITE_NOTADB")
    return new RegistryError(
      "registry_corrupt",
      `the registry ${path} is not a valid database (${code}); move it aside to start over — orchard will not reset it`,
      { cause: error },
    );
  const message = (error as Error).message ?? String(error);
  // better-sqlite3 without its native binding: its install script did not run (held back by npm)
  // or built for another Node. Its own message is a list of a dozen paths; say what to do.
  if (/Could not locate the bindings file|NODE_MODULE_VERSION|better_sqlite3\.node/.test(message))
    return new RegistryError(
      "registry_failed",
      `the registry ${path} cannot be opened: better-sqlite3's native binding is missing or built for another Node. ` +
        "Reinstall with its install script allowed (npm install -g --allow-scripts=better-sqlite3 orchard-worktrees, or npm rebuild better-sqlite3 " +
        "in the package's directory); where no prebuilt binary fits, that build needs python3, make and a C++ compiler; " +
        `Node ≥ 22.13 needs none of it (its built-in node:sqlite). (${message.split("\n")[0]})`,
      { cause: error },
    );
  return new RegistryError("registry_failed", `the registry ${path} failed: ${message}`, { cause: error });
}

const isSqliteError = (error: unknown): boolean =>
  error instanceof Error && "code" in error && typeof error.code === "string" && error.code.startsWith("SQLITE_");

const params = (values: readonly unknown[] | undefined): unknown[] => (values ?? []).map((v) => (typeof v === "boolean" ? (v ? 1 : 0) : v));

function sqlOf(db: SqliteConnection, host: string): Sql {
  // each statement is compiled once per connection (a long-lived MCP server asks the same ones on
  // every call); SQLite recompiles a cached one by itself after a schema change
  const statements = new Map<string, SqliteStatement>();
  const prepare = (text: string): SqliteStatement => {
    let statement = statements.get(text);
    if (!statement) statements.set(text, (statement = db.prepare(text)));
    return statement;
  };
  return {
    dialect: "sqlite",
    host,
    all: async <T>(text: string, values?: readonly unknown[]) => prepare(text).all(params(values)) as T[],
    get: async <T>(text: string, values?: readonly unknown[]) => prepare(text).get(params(values)) as T | undefined,
    run: async (text: string, values?: readonly unknown[]) => prepare(text).run(params(values)),
    exec: async (text: string) => db.exec(text),
  };
}

class SqliteStore implements Store {
  readonly sql: Sql;
  constructor(
    readonly db: SqliteConnection,
    readonly location: string,
    host: string,
  ) {
    this.sql = sqlOf(db, host);
  }
  /** IMMEDIATE: writers serialise at the start, not at the first write. */
  async begin(): Promise<void> {
    this.db.exec("BEGIN IMMEDIATE");
  }
  async commit(): Promise<void> {
    this.db.exec("COMMIT");
  }
  async rollback(): Promise<void> {
    this.db.rollback();
  }
  /** One writer at a time already (BEGIN IMMEDIATE): every key is held. */
  async lock(): Promise<void> {}
  failure(error: unknown): unknown {
    return isSqliteError(error) ? sqliteFailure(error, this.location) : error;
  }
  async close(): Promise<void> {
    this.db.close();
  }
}

async function openOnce(path: string, host: string, hooks: MigrationHooks | null): Promise<SqliteStore> {
  const db = await openConnection(path, { busyTimeoutMs: BUSY_TIMEOUT_MS });
  try {
    db.pragma("journal_mode = WAL");
    db.pragma("foreign_keys = ON");
    db.pragma("synchronous = NORMAL");
    checkLiveTables(db);
    const store = new SqliteStore(db, path, host);
    await migrate(store, hooks, {
      peek: async () => db.pragma("user_version") as number,
      read: async () => db.pragma("user_version") as number,
      write: async (version) => void db.pragma(`user_version = ${version}`),
    });
    return store;
  } catch (error) {
    db.close();
    throw error;
  }
}

/**
 * `quick_check` of every table but `events`, at each open: the live state every command reads and
 * writes (worktrees, repos, plans, trust, …) is proven whole before anything is decided on it. The
 * append-only event log grows with a fleet's history (300,000 events: 120 MB, a whole-file
 * quick_check 150–230 ms at every call, against ≈ 2 ms for the rest); SQLite checks its pages as it
 * reads or appends them, and a corrupt one fails that command as registry_corrupt all the same.
 */
function checkLiveTables(db: SqliteConnection): void {
  const tables = db.column("SELECT name FROM sqlite_master WHERE type = 'table' AND name <> 'events' AND name NOT LIKE 'sqlite_%'") as string[];
  for (const table of tables) {
    const check = db.pragma(`quick_check("${table.replaceAll('"', '""')}")`);
    if (check !== "ok") throw Object.assign(new Error(String(check)), { code: "SQLITE_CORRUPT" });
  }
}

const isBusy = (error: unknown): boolean => /^SQLITE_(BUSY|LOCKED)/.test((error as { code?: string }).code ?? "");

/**
 * Opens the SQLite registry of a workspace. Several processes opening a fresh database at once can
 * meet SQLITE_BUSY while one of them switches it to WAL (SQLite does not always wait for that
 * lock), so a busy open is retried until the busy timeout has passed.
 */
export async function openSqlite(home: string, host: string, hooks: MigrationHooks | null): Promise<Store> {
  mkdirSync(home, { recursive: true });
  return openSqliteFile(registryPath(home), host, hooks);
}

/** What `snapshotSqliteFile` found at a path. */
export type Snapshot = { kind: "registry"; version: number } | { kind: "not_registry"; detail: string };

/**
 * Copies a SQLite registry file to `dest` as one consistent snapshot (VACUUM INTO, through a
 * read-only connection: the source's content is never changed, even by a migration), after
 * checking that it is an Orchard registry this version can read. The copy is what gets migrated.
 */
export async function snapshotSqliteFile(source: string, dest: string): Promise<Snapshot> {
  let db: SqliteConnection | undefined;
  try {
    db = await openConnection(source, { busyTimeoutMs: BUSY_TIMEOUT_MS, readonly: true });
    const version = db.pragma("user_version") as number;
    const tables = new Set(db.column("SELECT name FROM sqlite_master WHERE type = 'table'") as string[]);
    const missing = ["repos", "worktrees", "events", "plans", "plan_items", "trust"].filter((t) => !tables.has(t));
    if (version < 1 || missing.length > 0) return { kind: "not_registry", detail: `no orchard tables (${missing.join(", ") || `schema version ${version}`})` };
    if (version > MIGRATIONS.length)
      return { kind: "not_registry", detail: `schema version ${version} is newer than this orchard (${MIGRATIONS.length}); upgrade orchard` };
    db.prepare("VACUUM INTO ?").run([dest]);
    return { kind: "registry", version };
  } catch (error) {
    const code = (error as { code?: string }).code ?? "";
    if (code === "SQLITE_NOTADB" || code === "SQLITE_CORRUPT") return { kind: "not_registry", detail: `not a SQLite database (${code})` };
    throw error instanceof RegistryError ? error : sqliteFailure(error, source);
  } finally {
    db?.close();
  }
}

/** Opens a SQLite registry file (a workspace's, or the copy `orchard registry migrate` reads). */
export async function openSqliteFile(path: string, host: string, hooks: MigrationHooks | null): Promise<Store> {
  const deadline = Date.now() + BUSY_TIMEOUT_MS;
  for (let attempt = 1; ; attempt++) {
    try {
      return await openOnce(path, host, hooks);
    } catch (error) {
      if (isBusy(error) && Date.now() < deadline) {
        await new Promise((done) => setTimeout(done, Math.min(200, 10 * attempt)));
        continue;
      }
      throw error instanceof RegistryError ? error : sqliteFailure(error, path);
    }
  }
}
