// What the boundary's checks proved, kept on disk between commands (issue 48 item 3): the vetting
// of a config file (input/programs-vet.ts), the program guard of a repository (programs/read.ts)
// and the submodule paths a `.gitmodules` declares (input/submodules.ts). Each proof is kept with
// the identity of every file it was read from — device, inode, size, and mtime and ctime in
// nanoseconds (a process that writes a file cannot set its ctime back) — or that file's absence,
// and is used again only while all of them are the same: an unchanged repository costs a stat per
// file, a changed or new file is vetted again before it is trusted.
//
// Kept only where nothing can hide a change: a file changed within RACY_MS of the read (the
// clock's granularity: it could change again with the very same times and size) is not, and the
// caller keeps nothing that depends on a file it did not name. The cache lives in the workspace
// (`<home>/cache/proofs-<kind>.json`, set by the library when it opens one: setProofCacheDir); a
// file that cannot be read, is not a plain file of ours that nobody else may write, or does not
// parse is ignored and written anew, never trusted.
import { closeSync, fstatSync, lstatSync, mkdirSync, openSync, readFileSync, realpathSync, renameSync, writeFileSync, constants } from "node:fs";
import { join } from "node:path";
import { RACY_MS, stamp } from "./guard-cache.js";

const MAX_CACHE_BYTES = 4 * 1024 * 1024;
const MAX_ENTRIES = 2_000;
const VERSION = 2;

let dir: string | null = null;

/** Where proofs are kept (`<home>/cache`); null: nowhere (each command proves again). */
export function setProofCacheDir(path: string | null): void {
  if (path === dir) return; // the same cache (the command line's, useExistingHome, then the library's): what is loaded is its newest
  dir = path;
  loaded.clear();
}

/** Whether proofs are kept on disk (a workspace's cache is set). */
export const keepsProofs = (): boolean => dir !== null;

interface Entry {
  /** The files' identities when the proof was made (guard-cache.ts stamp). */
  stamps: string[];
  value: unknown;
}
type Store = Map<string, Entry>;
const loaded = new Map<string, Store>();

const mine = (uid: number, mode: number): boolean => (process.getuid === undefined || uid === process.getuid()) && (mode & 0o022) === 0;

function fileOf(kind: string): string | null {
  return dir === null ? null : join(dir, `proofs-${kind}.json`);
}

function load(kind: string): Store {
  const known = loaded.get(kind);
  if (known) return known;
  const store: Store = new Map();
  loaded.set(kind, store);
  const file = fileOf(kind);
  if (file === null) return store;
  try {
    const d = lstatSync(dir as string);
    if (!d.isDirectory() || !mine(d.uid, d.mode)) return store;
    const fd = openSync(file, constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0) | (constants.O_NONBLOCK ?? 0));
    try {
      const st = fstatSync(fd);
      if (!st.isFile() || !mine(st.uid, st.mode) || st.size > MAX_CACHE_BYTES) return store;
      const parsed = JSON.parse(readFileSync(fd, "utf8")) as { version?: unknown; entries?: unknown };
      if (parsed.version !== VERSION || typeof parsed.entries !== "object" || parsed.entries === null) return store;
      for (const [key, entry] of Object.entries(parsed.entries as Record<string, Entry>))
        if (Array.isArray(entry?.stamps) && entry.stamps.every((s) => typeof s === "string") && "value" in entry) store.set(key, entry);
    } finally {
      closeSync(fd);
    }
  } catch {
    store.clear(); // unreadable or not ours: rebuilt as proofs are made again
  }
  return store;
}

function save(kind: string, store: Store): void {
  const file = fileOf(kind);
  if (file === null) return;
  try {
    // in the workspace, which the library made: never a home of its own
    if (!lstatSync(dir as string, { throwIfNoEntry: false })) mkdirSync(dir as string, { mode: 0o700 });
    const tmp = `${file}.${process.pid}.tmp`;
    writeFileSync(tmp, JSON.stringify({ version: VERSION, entries: Object.fromEntries(store) }), { mode: 0o600 });
    renameSync(tmp, file);
  } catch {
    // a cache that cannot be written costs the next command its proof, nothing else
  }
}

const stampsOf = (files: readonly string[]): string[] => files.map((f) => stamp(f).text);

/** The proof kept under `key` while every file it named is as it was (and it named each of `files`); undefined otherwise. */
export function keptProof<T>(kind: string, key: string, files: readonly string[] = []): T | undefined {
  if (dir === null) return undefined;
  const entry = load(kind).get(key);
  if (!entry) return undefined;
  const named = entry.stamps.map((s) => s.slice(0, s.indexOf("\0")));
  if (files.some((f) => !named.includes(f))) return undefined; // a file it was not read from (a new worktree's config)
  const now = stampsOf(named);
  return now.every((s, i) => s === entry.stamps[i]) ? (entry.value as T) : undefined;
}

/**
 * Keeps `value`, proved from `files` (every file it depends on, present or not) by a read that
 * started at `readAt`, unless one of them changed too close to that read to show a later change.
 */
export function keepProof(kind: string, key: string, files: readonly string[], value: unknown, readAt: number): void {
  if (dir === null) return;
  const unique = [...new Set(files)].sort();
  const stamps = unique.map(stamp);
  if (stamps.some((s) => s.changedMs >= readAt - RACY_MS)) return;
  const store = load(kind);
  if (store.size >= MAX_ENTRIES) store.clear(); // bounded: the proofs in use are made again
  store.set(key, { stamps: stamps.map((s) => s.text), value });
  save(kind, store);
}

/** `compute`'s answer, kept against `files` (see keepProof), or the one kept while they are unchanged. */
export async function provedOnce<T>(kind: string, key: string, files: readonly string[], compute: () => Promise<T>): Promise<T> {
  const kept = keptProof<T>(kind, key, files);
  if (kept !== undefined) return kept;
  const readAt = Date.now();
  const value = await compute();
  keepProof(kind, key, files, value, readAt);
  return value;
}

/**
 * The identities kept under `key` (guard-cache.ts stamp texts), unchecked: for a caller that
 * compares each one itself and trusts only those it finds again (input/admin-pass.ts: a stamp per
 * admin dir found plain). Undefined when nothing is kept.
 */
export function keptStamps(kind: string, key: string): ReadonlySet<string> | undefined {
  if (dir === null) return undefined;
  const entry = load(kind).get(key);
  return entry ? new Set(entry.stamps) : undefined;
}

/** Keeps `stamps` under `key` (each made by the caller before its check, none changed within RACY_MS of it), written at once. */
export function keepStamps(kind: string, key: string, stamps: readonly string[]): void {
  if (dir === null) return;
  const store = load(kind);
  if (store.size >= MAX_ENTRIES) store.clear();
  store.set(key, { stamps: [...stamps], value: null });
  save(kind, store);
}

/**
 * A caller with no workspace opened (GSD's read-only calls, answered without the library:
 * gsd/fast.ts) keeps its proofs in `home`'s cache when the library has made that cache already
 * (`<home>/cache`, a directory): it never makes a home or a cache of its own. Nothing when a
 * workspace's cache is set already.
 */
export function useExistingHome(home: string): void {
  if (dir !== null) return;
  try {
    const cache = join(realpathSync(home), "cache");
    if (lstatSync(cache).isDirectory()) setProofCacheDir(cache); // load() checks it is this user's, written by nobody else
  } catch {
    // no workspace cache there: each call proves again
  }
}
