// The registry's two SQLite drivers (src/registry/sqlite-driver.ts): which one a Node gets, and the
// same answers from both on one real file: value types, plain rows, failures with better-sqlite3's
// codes, BEGIN IMMEDIATE against a second connection, a rollback with nothing open. Each driver this
// process can load is checked (Node 20: better-sqlite3; Node ≥ 22.13: node:sqlite, and better-sqlite3
// where its addon is built for this Node, as CI's Node 22 has it).
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { RegistryError } from "../../src/registry/index.js";
import { chooseSqliteDriver, hasBuiltinSqlite, openConnection, type SqliteConnection, type SqliteDriverName } from "../../src/registry/sqlite-driver.js";
import { sqliteCodeName } from "../../src/registry/sqlite-codes.js";

const FORCED = process.env.ORCHARD_SQLITE_DRIVER;

/** better-sqlite3 is this process's to check where it is the registry's driver (Node 20, or forced). */
function betterSqliteHere(): boolean {
  if (hasBuiltinSqlite() && FORCED !== "better-sqlite3") return false;
  try {
    return Boolean(createRequire(import.meta.url).resolve("better-sqlite3"));
  } catch {
    return false; // not installed (an optional dependency): the registry suite says so loudly
  }
}

const DRIVERS: readonly SqliteDriverName[] = [
  ...(hasBuiltinSqlite() ? (["node:sqlite"] as const) : []),
  ...(betterSqliteHere() ? (["better-sqlite3"] as const) : []),
];

describe("the driver a Node gets", () => {
  it("node:sqlite from 22.13 on, better-sqlite3 before; ORCHARD_SQLITE_DRIVER forces one", () => {
    expect(chooseSqliteDriver({}, "20.20.2")).toBe("better-sqlite3");
    expect(chooseSqliteDriver({}, "22.12.0")).toBe("better-sqlite3");
    expect(chooseSqliteDriver({}, "22.13.0")).toBe("node:sqlite");
    expect(chooseSqliteDriver({}, "23.0.0")).toBe("node:sqlite");
    expect(chooseSqliteDriver({}, "24.21.0")).toBe("node:sqlite");
    expect(chooseSqliteDriver({ ORCHARD_SQLITE_DRIVER: "" }, "24.21.0")).toBe("node:sqlite");
    expect(chooseSqliteDriver({ ORCHARD_SQLITE_DRIVER: "better-sqlite3" }, "24.21.0")).toBe("better-sqlite3");
    expect(chooseSqliteDriver({ ORCHARD_SQLITE_DRIVER: "node:sqlite" }, "20.20.2")).toBe("node:sqlite");
    expect(() => chooseSqliteDriver({ ORCHARD_SQLITE_DRIVER: "sqlite3" })).toThrow(RegistryError);
  });

  it("this process opens with the driver chosen for it", async () => {
    const expected = FORCED || (hasBuiltinSqlite() ? "node:sqlite" : "better-sqlite3");
    const db = await openConnection(":memory:", { busyTimeoutMs: 100 });
    try {
      expect(db.driver).toBe(expected);
    } finally {
      db.close();
    }
  });

  it.skipIf(hasBuiltinSqlite())("node:sqlite forced on a Node without it: a clear error", async () => {
    await expect(openConnection(":memory:", { busyTimeoutMs: 100, driver: "node:sqlite" })).rejects.toThrow(/needs Node ≥ 22\.13/);
  });

  const [major = 0, minor = 0] = process.versions.node.split(".").map(Number);
  it.runIf(major > 24 || (major === 24 && minor >= 19))("better-sqlite3 12 forced on Node ≥ 24.19 (where it aborts the process): refused", async () => {
    await expect(openConnection(":memory:", { busyTimeoutMs: 100, driver: "better-sqlite3" })).rejects.toThrow(
      /aborts the process on Node .*unset ORCHARD_SQLITE_DRIVER/,
    );
  });

  it.runIf(DRIVERS.length === 2)("one file serves both drivers: what one wrote, the other reads", async () => {
    const dir = mkdtempSync(join(tmpdir(), "orchard-driver-"));
    try {
      const path = join(dir, "shared.db");
      const [first, second] = DRIVERS as [SqliteDriverName, SqliteDriverName];
      const writer = await openConnection(path, { busyTimeoutMs: 100, driver: first });
      writer.pragma("journal_mode = WAL");
      writer.exec("CREATE TABLE t (n INTEGER, s TEXT); INSERT INTO t VALUES (2592000000, 'written')");
      writer.close();
      const reader = await openConnection(path, { busyTimeoutMs: 100, driver: second });
      try {
        expect(reader.prepare("SELECT n, s FROM t").all([])).toEqual([{ n: 2_592_000_000, s: "written" }]);
      } finally {
        reader.close();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("names SQLite's result codes as better-sqlite3 does", () => {
    expect([5, 6, 11, 19, 26, 517, 2067, 1811, 787, 266, 100, 101].map(sqliteCodeName)).toEqual([
      "SQLITE_BUSY",
      "SQLITE_LOCKED",
      "SQLITE_CORRUPT",
      "SQLITE_CONSTRAINT",
      "SQLITE_NOTADB",
      "SQLITE_BUSY_SNAPSHOT",
      "SQLITE_CONSTRAINT_UNIQUE",
      "SQLITE_CONSTRAINT_TRIGGER",
      "SQLITE_CONSTRAINT_FOREIGNKEY",
      "SQLITE_IOERR",
      "SQLITE_ROW",
      "SQLITE_DONE",
    ]);
  });
});

for (const driver of DRIVERS) {
  describe(`SQLite through ${driver}`, () => {
    let dir: string;
    let db: SqliteConnection;
    const open = (options: { busyTimeoutMs?: number; readonly?: boolean } = {}) =>
      openConnection(join(dir, "t.db"), { busyTimeoutMs: 2_000, ...options, driver });

    beforeEach(async () => {
      dir = mkdtempSync(join(tmpdir(), "orchard-driver-"));
      db = await open();
      db.exec(`CREATE TABLE t (id INTEGER PRIMARY KEY, n INTEGER, r REAL, s TEXT UNIQUE, b BLOB);
        CREATE TRIGGER t_no_delete BEFORE DELETE ON t BEGIN SELECT RAISE(ABORT, 't is append-only'); END;`);
    });
    afterEach(() => {
      db.close();
      rmSync(dir, { recursive: true, force: true });
    });

    it("reads integers as numbers, reals, text, NULL and blobs; rows are plain objects", () => {
      const insert = db.prepare("INSERT INTO t (n, r, s, b) VALUES (?, ?, ?, ?)");
      expect(insert.run([4_194_303, 2.5, "x", new Uint8Array([1, 2])])).toBe(1);
      expect(insert.run([2_592_000_000, null, null, null])).toBe(1);
      const rows = db.prepare("SELECT id, n, r, s, b, typeof(n) AS tn FROM t ORDER BY id").all([]);
      expect(rows.map((r) => ({ ...r, b: r.b === null ? null : [...(r.b as Uint8Array)] }))).toEqual([
        { id: 1, n: 4_194_303, r: 2.5, s: "x", b: [1, 2], tn: "integer" },
        { id: 2, n: 2_592_000_000, r: null, s: null, b: null, tn: "integer" },
      ]);
      expect(rows[0]!.b).toBeInstanceOf(Uint8Array);
      for (const row of rows) expect(Object.getPrototypeOf(row)).toBe(Object.prototype);
      expect(db.prepare("SELECT s FROM t WHERE id = ?").get([99])).toBeUndefined();
      expect(db.column("SELECT id FROM t ORDER BY id")).toEqual([1, 2]);
      expect(db.pragma("foreign_keys = ON")).toBeUndefined();
      expect(db.pragma("journal_mode = WAL")).toBe("wal");
      expect(db.pragma("user_version")).toBe(0);
    });

    it("fails with better-sqlite3's codes and SQLite's messages", () => {
      db.prepare("INSERT INTO t (s) VALUES (?)").run(["same"]);
      expect(() => db.prepare("INSERT INTO t (s) VALUES (?)").run(["same"])).toThrow(
        expect.objectContaining({ code: "SQLITE_CONSTRAINT_UNIQUE", message: "UNIQUE constraint failed: t.s" }),
      );
      expect(() => db.exec("DELETE FROM t")).toThrow(expect.objectContaining({ code: "SQLITE_CONSTRAINT_TRIGGER", message: "t is append-only" }));
      expect(() => db.prepare("SELECT nope FROM t")).toThrow(expect.objectContaining({ code: "SQLITE_ERROR", message: "no such column: nope" }));
    });

    it("a file that is not a database is SQLITE_NOTADB; a missing one opened read-only, SQLITE_CANTOPEN", async () => {
      writeFileSync(join(dir, "junk.db"), "not a database ".repeat(100));
      const error = await (async () => {
        const junk = await openConnection(join(dir, "junk.db"), { busyTimeoutMs: 100, driver });
        try {
          junk.column("SELECT name FROM sqlite_master");
        } finally {
          junk.close();
        }
      })().catch((e: unknown) => e);
      expect(error).toMatchObject({ code: "SQLITE_NOTADB" });
      await expect(openConnection(join(dir, "missing.db"), { busyTimeoutMs: 100, readonly: true, driver })).rejects.toMatchObject({
        code: "SQLITE_CANTOPEN",
      });
    });

    it("BEGIN IMMEDIATE holds out a second connection's writer (SQLITE_BUSY past its busy timeout); rollback with nothing open does nothing", async () => {
      const other = await open({ busyTimeoutMs: 50 });
      try {
        db.rollback();
        db.exec("BEGIN IMMEDIATE");
        db.prepare("INSERT INTO t (s) VALUES (?)").run(["held"]);
        expect(() => other.exec("BEGIN IMMEDIATE")).toThrow(expect.objectContaining({ code: "SQLITE_BUSY" }));
        expect(other.column("SELECT s FROM t")).toEqual([]);
        db.rollback();
        db.rollback();
        other.exec("BEGIN IMMEDIATE");
        other.exec("COMMIT");
        expect(db.column("SELECT s FROM t")).toEqual([]);
      } finally {
        other.close();
        other.close();
      }
    });
  });
}
