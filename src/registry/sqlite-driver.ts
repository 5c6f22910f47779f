// One SQLite connection over either driver, chosen when it is opened: Node's built-in `node:sqlite`
// (DatabaseSync, Node ≥ 22.13: nothing native to build) or better-sqlite3 (an optional dependency,
// for Node 20, where the built-in is absent). sqlite.ts talks to this interface only, so pragmas,
// WAL, the busy timeout, BEGIN IMMEDIATE and migrations are one code path on both.
// Invariants, the same on both drivers: rows are plain objects; INTEGER columns read as numbers (the
// registry stores none past 2^53); NULL reads as null; a failure carries better-sqlite3's `code`
// ("SQLITE_BUSY", "SQLITE_CONSTRAINT_UNIQUE", …) and SQLite's own message.
// ORCHARD_SQLITE_DRIVER=node:sqlite|better-sqlite3 forces one (the tests run the registry on both).
import { existsSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { RegistryError } from "./errors.js";
import { sqliteCodeName } from "./sqlite-codes.js";

export type SqliteDriverName = "node:sqlite" | "better-sqlite3";
export type Row = Record<string, unknown>;

export interface SqliteStatement {
  all(params: readonly unknown[]): Row[];
  get(params: readonly unknown[]): Row | undefined;
  /** The number of rows the statement changed. */
  run(params: readonly unknown[]): number;
}

export interface SqliteConnection {
  readonly driver: SqliteDriverName;
  prepare(text: string): SqliteStatement;
  /** A script of statements without parameters. */
  exec(text: string): void;
  /** `PRAGMA <text>`: the first column of its first row (undefined when it returns none). */
  pragma(text: string): unknown;
  /** The first column of every row of a query without parameters. */
  column(text: string): unknown[];
  /** Rolls back the open transaction; nothing when none is open (SQLite may have ended it itself). */
  rollback(): void;
  /** Closes the connection; a second close does nothing. */
  close(): void;
}

export interface OpenOptions {
  busyTimeoutMs: number;
  /** Opens an existing file read-only (never creates one). */
  readonly?: boolean;
  /** The driver to use instead of chooseSqliteDriver()'s (the tests compare both). */
  driver?: SqliteDriverName;
}

const DRIVER_ENV = "ORCHARD_SQLITE_DRIVER";

/** True on a Node whose built-in `node:sqlite` needs no flag: 22.13 and later. */
export function hasBuiltinSqlite(version: string = process.versions.node): boolean {
  const [major = 0, minor = 0] = version.split(".").map(Number);
  return major > 22 || (major === 22 && minor >= 13);
}

/** The driver a connection uses: ORCHARD_SQLITE_DRIVER when set, else the built-in where Node has it. */
export function chooseSqliteDriver(env: NodeJS.ProcessEnv = process.env, version: string = process.versions.node): SqliteDriverName {
  const forced = env[DRIVER_ENV];
  if (forced === undefined || forced === "") return hasBuiltinSqlite(version) ? "node:sqlite" : "better-sqlite3";
  if (forced === "node:sqlite" || forced === "better-sqlite3") return forced;
  throw new RegistryError("registry_failed", `${DRIVER_ENV} must be node:sqlite or better-sqlite3, not ${JSON.stringify(forced)}`);
}

/** Opens `path` (":memory:" for a private database in memory) with the chosen driver. */
export async function openConnection(path: string, options: OpenOptions): Promise<SqliteConnection> {
  return (options.driver ?? chooseSqliteDriver()) === "node:sqlite" ? openBuiltin(path, options) : openBetterSqlite(path, options);
}

const requireHere = createRequire(import.meta.url);

// ---- node:sqlite --------------------------------------------------------------------------------
// @types/node 20 does not know the module: the few members used here, as Node documents them.
interface BuiltinStatement {
  all(...params: unknown[]): Row[];
  get(...params: unknown[]): Row | undefined;
  run(...params: unknown[]): { changes: number | bigint };
}
interface BuiltinDatabase {
  prepare(text: string): BuiltinStatement;
  exec(text: string): void;
  close(): void;
  /** Node ≥ 22.16; absent on 22.13–22.15. */
  readonly isTransaction?: boolean;
}
type BuiltinModule = { DatabaseSync: new (path: string, options?: { readOnly?: boolean }) => BuiltinDatabase };

let builtin: BuiltinModule | undefined;

function loadBuiltin(): BuiltinModule {
  if (builtin) return builtin;
  if (!hasBuiltinSqlite())
    throw new RegistryError(
      "registry_failed",
      `${DRIVER_ENV}=node:sqlite needs Node ≥ 22.13; this is Node ${process.versions.node} (unset it to use better-sqlite3)`,
    );
  return (builtin = withoutSqliteWarning(() => requireHere("node:sqlite") as BuiltinModule));
}

/**
 * Runs `load` with Node 22's ExperimentalWarning about SQLite held back (it announces node:sqlite
 * on stderr as the module loads; a command's stderr stays clean). Every other warning passes.
 */
export function withoutSqliteWarning<T>(load: () => T): T {
  const emit = process.emitWarning;
  process.emitWarning = function (this: unknown, warning: string | Error, ...rest: unknown[]) {
    const message = typeof warning === "string" ? warning : warning.message;
    if (rest[0] === "ExperimentalWarning" && message.startsWith("SQLite is an experimental feature")) return;
    return (emit as (...args: unknown[]) => void).call(process, warning, ...rest);
  } as typeof process.emitWarning;
  try {
    return load();
  } finally {
    process.emitWarning = emit;
  }
}

/** node:sqlite's failure with better-sqlite3's `code`: the SQLite result code's name. */
function asSqliteError(error: unknown): unknown {
  const e = error as { code?: unknown; errcode?: unknown; message?: string };
  if (e.code !== "ERR_SQLITE_ERROR" || typeof e.errcode !== "number") return error;
  return Object.assign(new Error(e.message, { cause: error }), { name: "SqliteError", code: sqliteCodeName(e.errcode) });
}

function guarded<T>(act: () => T): T {
  try {
    return act();
  } catch (error) {
    throw asSqliteError(error);
  }
}

const plain = (row: Row | undefined): Row | undefined => (row === undefined ? undefined : { ...row });

function openBuiltin(path: string, options: OpenOptions): SqliteConnection {
  const { DatabaseSync } = loadBuiltin();
  const db = guarded(() => new DatabaseSync(path, { readOnly: options.readonly === true }));
  let open = true;
  const connection: SqliteConnection = {
    driver: "node:sqlite",
    prepare: (text) => {
      const statement = guarded(() => db.prepare(text));
      return {
        all: (params) => guarded(() => statement.all(...params).map((row) => ({ ...row }))),
        get: (params) => guarded(() => plain(statement.get(...params))),
        run: (params) => guarded(() => Number(statement.run(...params).changes)),
      };
    },
    exec: (text) => guarded(() => db.exec(text)),
    pragma: (text) => {
      const row = guarded(() => db.prepare(`PRAGMA ${text}`).get());
      return row === undefined ? undefined : Object.values(row)[0];
    },
    column: (text) => guarded(() => db.prepare(text).all()).map((row) => Object.values(row)[0]),
    rollback: () => {
      if (db.isTransaction === false) return;
      try {
        db.exec("ROLLBACK");
      } catch (error) {
        // Node 22.13–22.15 cannot say whether a transaction is open: "no transaction is active"
        // (SQLite's message, matched here only) is the answer that none was.
        if (db.isTransaction === undefined && /no transaction is active/.test((error as Error).message)) return;
        throw asSqliteError(error);
      }
    },
    close: () => {
      if (open) db.close();
      open = false;
    },
  };
  try {
    connection.exec(`PRAGMA busy_timeout = ${Math.trunc(options.busyTimeoutMs)}`);
  } catch (error) {
    connection.close();
    throw error;
  }
  return connection;
}

// ---- better-sqlite3 -----------------------------------------------------------------------------
type BetterDatabase = import("better-sqlite3").Database;
type BetterConstructor = typeof import("better-sqlite3");

let better: BetterConstructor | undefined;
let addon: string | object | undefined;

function missingBetterSqlite(cause: unknown): RegistryError {
  return new RegistryError(
    "registry_failed",
    `the registry needs SQLite: Node ${process.versions.node} has no node:sqlite and better-sqlite3 is not installed; ` +
      "install better-sqlite3 or use Node ≥ 22.13 (docs/configuration.md, SQLite drivers)",
    { cause },
  );
}

/**
 * better-sqlite3's addon, handed to it (its `nativeBinding`) so that it never looks for it itself:
 * its finder (the `bindings` package) walks the call stack to find the package it was called from,
 * which in the command line's bundle (scripts/bundle.mjs) is Orchard's, not better-sqlite3's.
 * First a build for this Node's ABI where `bindings` and node-pre-gyp keep one per Node
 * (lib/binding/node-v<abi>-<platform>-<arch>/: one install serving two Nodes, as CI's does);
 * then build/Release by path when neither place that finder tries before it (build/, build/Debug/)
 * holds one (what it finds in an installed package, without its dozen tries at every start); else
 * that finder, run from better-sqlite3's own directory, exactly as better-sqlite3 runs it (an
 * addon object, which better-sqlite3 accepts where its types say only a path).
 */
function nativeBinding(): string | object {
  if (addon !== undefined) return addon;
  let main: string;
  try {
    main = requireHere.resolve("better-sqlite3");
  } catch (error) {
    throw missingBetterSqlite(error);
  }
  const root = join(dirname(main), "..");
  refuseCrashingPair(root);
  const perAbi = join(root, "lib", "binding", `node-v${process.versions.modules}-${process.platform}-${process.arch}`, "better_sqlite3.node");
  if (existsSync(perAbi)) return (addon = perAbi);
  const build = join(root, "build");
  const release = join(build, "Release", "better_sqlite3.node");
  const first = [join(build, "better_sqlite3.node"), join(build, "Debug", "better_sqlite3.node")];
  if (!first.some((p) => existsSync(p)) && existsSync(release)) return (addon = release);
  const bindings = createRequire(main)("bindings") as (opts: { bindings: string; module_root: string }) => object;
  return (addon = bindings({ bindings: "better_sqlite3.node", module_root: root }));
}

/**
 * better-sqlite3 ≤ 12 aborts the whole process on Node ≥ 24.19 (SIGABRT in its statements' finalizer,
 * `RemoveEnvironmentCleanupHook`; 13 fixed it, but 13 needs Node ≥ 22): refused before it can.
 * Only a forced driver gets here on such a Node.
 */
function refuseCrashingPair(root: string): void {
  const [major = 0, minor = 0] = process.versions.node.split(".").map(Number);
  if (major < 24 || (major === 24 && minor < 19)) return;
  const { version } = JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as { version: string };
  if (Number(version.split(".")[0]) < 13)
    throw new RegistryError(
      "registry_failed",
      `better-sqlite3 ${version} aborts the process on Node ${process.versions.node} (fixed in better-sqlite3 13); ` +
        `this Node has node:sqlite: unset ${DRIVER_ENV}`,
    );
}

async function openBetterSqlite(path: string, options: OpenOptions): Promise<SqliteConnection> {
  const binding = nativeBinding();
  // a lazy import: the command line's bundle holds better-sqlite3's JavaScript (no resolution at
  // each start), and evaluates it only when this driver is used
  better ??= (await import("better-sqlite3")).default;
  const db: BetterDatabase = new better(path, {
    timeout: options.busyTimeoutMs,
    readonly: options.readonly === true,
    fileMustExist: options.readonly === true,
    nativeBinding: binding as string,
  });
  return {
    driver: "better-sqlite3",
    prepare: (text) => {
      const statement = db.prepare(text);
      return {
        all: (params) => statement.all(...params) as Row[],
        get: (params) => statement.get(...params) as Row | undefined,
        run: (params) => statement.run(...params).changes,
      };
    },
    exec: (text) => void db.exec(text),
    pragma: (text) => db.pragma(text, { simple: true }),
    column: (text) => db.prepare(text).pluck().all(),
    rollback: () => {
      if (db.inTransaction) db.exec("ROLLBACK");
    },
    close: () => {
      if (db.open) db.close();
    },
  };
}
