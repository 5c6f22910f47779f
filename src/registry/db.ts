// The only code that opens SQLite. WAL, a busy timeout, foreign keys and numbered migrations; a
// database that is corrupt or locked past the timeout is reported, never silently recreated.
import Database from "better-sqlite3";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { MIGRATIONS, type MigrationHooks } from "./migrations.js";

export type Db = Database.Database;

export class RegistryError extends Error {
  constructor(
    readonly code: "registry_locked" | "registry_corrupt" | "registry_failed",
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = "RegistryError";
  }
}

export const BUSY_TIMEOUT_MS = 5_000;

export function registryPath(home: string): string {
  return join(home, "orchard.db");
}

/** Wraps a SQLite failure in a RegistryError that says what to do about it. */
export function registryFailure(error: unknown, path: string): RegistryError {
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
  return new RegistryError("registry_failed", `the registry ${path} failed: ${(error as Error).message}`, { cause: error });
}

function openOnce(path: string, hooks: MigrationHooks | null): Db {
  const db = new Database(path, { timeout: BUSY_TIMEOUT_MS });
  try {
    db.pragma("journal_mode = WAL");
    db.pragma("foreign_keys = ON");
    db.pragma("synchronous = NORMAL");
    const check = db.pragma("quick_check", { simple: true });
    if (check !== "ok") throw Object.assign(new Error(String(check)), { code: "SQLITE_CORRUPT" });
    migrate(db, hooks);
    return db;
  } catch (error) {
    db.close();
    throw error;
  }
}

const isBusy = (error: unknown): boolean => /^SQLITE_(BUSY|LOCKED)/.test((error as { code?: string }).code ?? "");

/**
 * Opens the registry. Several processes opening a fresh database at once can meet SQLITE_BUSY
 * while one of them switches it to WAL (SQLite does not always wait for that lock), so a busy open
 * is retried until the busy timeout has passed.
 */
export function openDb(home: string, hooks: MigrationHooks | null = null): Db {
  mkdirSync(home, { recursive: true });
  const path = registryPath(home);
  const deadline = Date.now() + BUSY_TIMEOUT_MS;
  for (let attempt = 1; ; attempt++) {
    try {
      return openOnce(path, hooks);
    } catch (error) {
      if (isBusy(error) && Date.now() < deadline) {
        Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, Math.min(200, 10 * attempt)); // a synchronous pause
        continue;
      }
      throw error instanceof RegistryError ? error : registryFailure(error, path);
    }
  }
}

/** Migrates in one IMMEDIATE transaction that also reads the version, so two processes opening a
 * fresh database at once cannot both run the same migration. */
function migrate(db: Db, hooks: MigrationHooks | null): void {
  db.transaction(() => {
    const current = db.pragma("user_version", { simple: true }) as number;
    if (current > MIGRATIONS.length)
      throw new RegistryError("registry_failed", `the registry schema is version ${current}, newer than this orchard (${MIGRATIONS.length}); upgrade orchard`);
    for (let version = current; version < MIGRATIONS.length; version++) {
      const step = MIGRATIONS[version] as (typeof MIGRATIONS)[number];
      if (typeof step === "string") db.exec(step);
      else if (hooks) step.run(db, hooks);
      else
        throw new RegistryError(
          "registry_failed",
          `the registry needs migration ${version + 1}, which only orchard itself can run; run any orchard command first`,
        );
    }
    if (current < MIGRATIONS.length) db.pragma(`user_version = ${MIGRATIONS.length}`);
  }).immediate();
}

/** Runs `fn` in an IMMEDIATE transaction (writers serialise at the start, not at the first write). */
export function inTransaction<T>(db: Db, fn: () => T): T {
  return db.transaction(fn).immediate();
}
