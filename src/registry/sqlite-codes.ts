// SQLite's result codes by name, as better-sqlite3 names them in an error's `code` (node:sqlite
// gives the number alone). The primary codes, and the extended codes of the families the registry
// tells apart (busy, locked, corrupt, constraint, read-only, cannot-open); any other extended code
// is named by its primary code.

const PRIMARY = [
  "OK", "ERROR", "INTERNAL", "PERM", "ABORT", "BUSY", "LOCKED", "NOMEM", "READONLY", "INTERRUPT", "IOERR", "CORRUPT", "NOTFOUND", "FULL",
  "CANTOPEN", "PROTOCOL", "EMPTY", "SCHEMA", "TOOBIG", "CONSTRAINT", "MISMATCH", "MISUSE", "NOLFS", "AUTH", "FORMAT", "RANGE", "NOTADB",
  "NOTICE", "WARNING",
] as const; // prettier-ignore

/** Extended names by primary code, indexed by the extended code's high byte (1, 2, …). */
const EXTENDED: Readonly<Record<number, readonly string[]>> = {
  5: ["RECOVERY", "SNAPSHOT", "TIMEOUT"],
  6: ["SHAREDCACHE", "VTAB"],
  8: ["RECOVERY", "CANTLOCK", "ROLLBACK", "DBMOVED", "CANTINIT", "DIRECTORY"],
  11: ["VTAB", "SEQUENCE", "INDEX"],
  14: ["NOTEMPDIR", "ISDIR", "FULLPATH", "CONVPATH", "DIRTYWAL", "SYMLINK"],
  19: ["CHECK", "COMMITHOOK", "FOREIGNKEY", "FUNCTION", "NOTNULL", "PRIMARYKEY", "TRIGGER", "UNIQUE", "VTAB", "ROWID", "PINNED", "DATATYPE"],
};

/** "SQLITE_BUSY", "SQLITE_CONSTRAINT_UNIQUE", … for SQLite's (extended) result code. */
export function sqliteCodeName(code: number): string {
  const primary = code & 0xff;
  const name = PRIMARY[primary] ?? (primary === 100 ? "ROW" : primary === 101 ? "DONE" : `UNKNOWN_${primary}`);
  const extended = EXTENDED[primary]?.[(code >> 8) - 1];
  return `SQLITE_${name}${extended ? `_${extended}` : ""}`;
}
