// The navigation snapshot (issue 48 item 1): what `orchard path` and a TAB read from the registry
// (this host's repos by common dir and their current rows: registry/peek.ts navigation), kept in
// the workspace's cache (`<home>/cache/nav.json`) with a token of the registry files' identity,
// so that an unchanged registry is answered without loading the SQLite driver (its native load is
// most of what a quick `orchard cd` costs over a node start). It is a cache for those lookups
// only: nothing that allows a destructive step reads it, and every answer from it is checked
// against the filesystem as the registry's are (core/navigate/quick.ts: the directory exists).
//
// Why the token changes whenever the registry's content can have changed. The registry's content
// is the bytes of `orchard.db` and the committed frames of `orchard.db-wal` (the registry is in WAL
// mode, sqlite.ts; `-shm` is an index of the WAL that readers write too and SQLite may rebuild
// from it: not content). SQLite changes those two files only by write() and ftruncate() (no
// writable mmap: neither driver is built with SQLITE_MMAP_READWRITE and mmap_size is 0), and each
// sets the file's mtime (and ctime) to the clock's current tick; a file put in their place by
// rename has another inode (both existed at once), one made anew has its creation time. The token
// is, for the database, device, inode, size, mtime and ctime in nanoseconds; for the WAL, the same
// but its ctime (a read-only connection of root fchowns it at every open), or "empty" when it is
// absent or has no byte (then the content is the database's alone: SQLite reads a WAL shorter than
// its header as no frames, and deletes it, or writes it from offset 0 again after a checkpoint
// copied its frames into the database, which changes the database's times). A rollback journal
// (`-journal`, a rollback-mode transaction or a hot journal to roll back) gives no token at all.
//
// The stats are taken before the rows are read, and again after: a snapshot is written only when
// both agree and no time in them is within RACY_MS of the clock when the first was taken. A write
// after that sets a time at least the clock's tick then, which is later than every time in the
// token: the same token can never be seen again with other content, even where a filesystem keeps
// times in whole seconds (two: FAT's; the margin is the proof cache's, git/warm/guard-cache.ts) or
// a WAL reset leaves the same size. A clock set back could in principle land on a recorded tick
// again: a snapshot read while the clock is before the time it was taken is ignored.
//
// A snapshot that cannot be read, is not a plain file of this user that nobody else may write, does
// not parse or has another shape, version, schema, host, registry path or token is ignored (the
// registry is read, and the snapshot written anew). Where it cannot be written (a read-only home),
// nothing is: every call reads the registry, as before.
import { closeSync, constants, fstatSync, lstatSync, mkdirSync, openSync, readFileSync, renameSync, statSync, unlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { RepoRow } from "./repos.js";
import type { WorktreeRow } from "./worktrees.js";

/** How close to the clock a recorded time may be: the coarsest timestamp granularity (FAT's 2 s). */
export const RACY_MS = 2_000;
export const NAV_VERSION = 1;
const MAX_BYTES = 8 * 1024 * 1024;

/** What a lookup reads of a worktree row (core/navigate/quick.ts, fields.ts). */
export type NavRow = Pick<WorktreeRow, "handle" | "path" | "branch" | "task" | "lifecycle" | "host" | "lastActivityAt">;
/** A repo this host recorded at a common dir, with this host's current rows of it (`creating` ones too), newest first. */
export interface NavRepo {
  repo: RepoRow;
  rows: NavRow[];
}

/** The snapshot file's content. */
export interface NavSnapshot {
  version: number;
  /** The registry's schema version (its migrations) this was read at. */
  schema: number;
  host: string;
  db: string;
  token: string;
  takenAt: number;
  repos: NavRepo[];
}

export const snapshotPath = (home: string): string => join(home, "cache", "nav.json");

/** The registry files' identity, taken now: its token (null: there is none to trust) and whether a time in it is too recent to be kept. */
export interface RegistryStamp {
  token: string | null;
  /** Date.now() before the stats. */
  takenAt: number;
  /** Why no snapshot may be written under this token (a time within RACY_MS of takenAt), or null. */
  racy: string | null;
}

export function stampRegistry(db: string): RegistryStamp {
  const takenAt = Date.now();
  const main = statSync(db, { bigint: true, throwIfNoEntry: false });
  const wal = statSync(`${db}-wal`, { bigint: true, throwIfNoEntry: false });
  if (!main?.isFile() || statSync(`${db}-journal`, { throwIfNoEntry: false }) !== undefined || (wal && !wal.isFile()))
    return { token: null, takenAt, racy: "no registry file, or a rollback journal" };
  const walEmpty = wal === undefined || wal.size === 0n;
  const token = [
    `${main.dev}:${main.ino}:${main.size}:${main.mtimeNs}:${main.ctimeNs}`,
    walEmpty ? "empty" : `${wal.dev}:${wal.ino}:${wal.size}:${wal.mtimeNs}`,
  ].join("/");
  const times = [main.mtimeNs, main.ctimeNs, ...(walEmpty ? [] : [wal.mtimeNs])].map((ns) => Number(ns / 1_000_000n));
  const newest = Math.max(...times);
  const racy = newest > takenAt - RACY_MS ? `the registry changed ${Math.max(0, takenAt - newest)} ms ago` : null;
  return { token, takenAt, racy };
}

const mine = (uid: number, mode: number): boolean => (process.getuid === undefined || uid === process.getuid()) && (mode & 0o022) === 0;
const isText = (v: unknown): v is string => typeof v === "string";
const isTextOrNull = (v: unknown): boolean => v === null || typeof v === "string";

function isRow(v: unknown): v is NavRow {
  const r = v as Record<string, unknown>;
  return (
    typeof r === "object" &&
    r !== null &&
    isText(r.handle) &&
    isText(r.path) &&
    isTextOrNull(r.branch) &&
    isTextOrNull(r.task) &&
    isText(r.lifecycle) &&
    isTextOrNull(r.host) &&
    isText(r.lastActivityAt)
  );
}

function isRepo(v: unknown): v is NavRepo {
  const e = v as { repo?: Record<string, unknown>; rows?: unknown };
  const r = e?.repo;
  return (
    typeof r === "object" &&
    r !== null &&
    isText(r.identity) &&
    isText(r.name) &&
    isText(r.primaryPath) &&
    isText(r.commonDir) &&
    isText(r.createdAt) &&
    Array.isArray(e.rows) &&
    e.rows.every(isRow)
  );
}

/** What the snapshot must match to be used. */
export interface Expected {
  schema: number;
  host: string;
  db: string;
  token: string;
}

/** The snapshot at `file` when it is ours, whole and matches `expected`; else why not. */
export function readSnapshot(file: string, expected: Expected): NavSnapshot | string {
  let text: string;
  try {
    const fd = openSync(file, constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0) | (constants.O_NONBLOCK ?? 0));
    try {
      const st = fstatSync(fd);
      if (!st.isFile() || !mine(st.uid, st.mode) || st.size > MAX_BYTES) return "not a plain file of this user that only it may write";
      const dir = lstatSync(join(file, ".."));
      if (!dir.isDirectory() || !mine(dir.uid, dir.mode)) return "its directory is not this user's alone";
      text = readFileSync(fd, "utf8");
    } finally {
      closeSync(fd);
    }
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "ENOENT" ? "none yet" : "unreadable";
  }
  let parsed: Partial<NavSnapshot>;
  try {
    parsed = JSON.parse(text) as Partial<NavSnapshot>;
  } catch {
    return "does not parse";
  }
  if (typeof parsed !== "object" || parsed === null || parsed.version !== NAV_VERSION) return "another version";
  if (parsed.schema !== expected.schema || parsed.host !== expected.host || parsed.db !== expected.db) return "another schema, host or registry";
  if (parsed.token !== expected.token) return "stale (the registry changed)";
  if (typeof parsed.takenAt !== "number" || !(parsed.takenAt <= Date.now())) return "taken later than the clock says now";
  if (!Array.isArray(parsed.repos) || !parsed.repos.every(isRepo)) return "another shape";
  return parsed as NavSnapshot;
}

/** Writes the snapshot (temporary file, then rename); null, or why it was not written. */
export function writeSnapshot(file: string, snapshot: NavSnapshot): string | null {
  const dir = join(file, "..");
  const tmp = `${file}.${process.pid}.tmp`;
  try {
    // the workspace's cache (the library makes it mode 0700): made here too when it is not yet
    if (!lstatSync(dir, { throwIfNoEntry: false })) mkdirSync(dir, { mode: 0o700 });
    const st = lstatSync(dir);
    if (!st.isDirectory() || !mine(st.uid, st.mode)) return "the cache is not a directory of this user's alone";
    try {
      unlinkSync(tmp); // a leftover of a process of the same id: never written through
    } catch {
      // none
    }
    writeFileSync(tmp, JSON.stringify(snapshot), { mode: 0o600, flag: "wx" });
    renameSync(tmp, file);
    return null;
  } catch (error) {
    try {
      unlinkSync(tmp);
    } catch {
      // nothing to clean
    }
    return `cannot be written (${(error as NodeJS.ErrnoException).code ?? "error"})`;
  }
}
