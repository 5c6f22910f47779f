// The workspace's trash, `<home>/trash`: a worktree proven removable is renamed into it (one atomic
// step on one file system) before git's entry is dropped, and a detached process deletes it after
// the command has answered. Invariant: everything under the trash was proven removable before it
// got there, so deleting it never loses work.
//
// An entry is `<home>/trash/<time>-<pid>-<random>/`: `journal.json` ({orchard: "trash", entry,
// path, admin, commonDir}) written BEFORE the rename, `tree/` (the renamed worktree), `purger` (the
// pid of the process deleting it). The journal is the marker: only an entry holding the journal
// Orchard wrote for it is ever purged (SPEC v3 §4.10); anything else in the trash — a name that
// merely looks like `<x>-<pid>-<y>`, a symbolic link, a file — is left alone and reported by
// hygiene. The trash itself and every entry must be real directories (lstat, no link on the way).
// A crash leaves entries that `finishTrash` (every Orchard.open) completes: it drops the admin dir
// a crash left behind (its gitdir still names the journal's path, which is no longer that
// worktree) and purges them, skipping entries whose owner or purger still runs (and, for an hour,
// entries a purger could not delete: an immutable file gets a `failed` marker with rm's message;
// hygiene reports it, and `cleanup` retries it at once).
import { lstatSync, mkdirSync, readdirSync, realpathSync, rmdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import { basename, join, resolve } from "node:path";
import { randomBytes } from "node:crypto";
import { startBackground } from "../../../git/background.js";
import { dropEarly } from "../../../git/run.js";
import { deleteAdminDir, readAdminWorktreePath } from "../repo/admin.js";
import { whyNotLinkedWorktree } from "../repo/linked.js";
import { pidState } from "../../ownership/index.js";
import { requireWorkspaceDir, trashDir } from "../context.js";
import { readPlainText } from "../files.js";

export { trashDir };

const RETRY_FAILED_MS = 60 * 60_000;

export interface TrashJournal {
  /** The marker: Orchard wrote this journal for the entry named `entry`. */
  orchard?: "trash";
  entry?: string;
  path: string;
  admin: string;
  commonDir: string;
}

interface Pending {
  purge: string[];
}

/** Background work queued by this process, per workspace home, until `flushBackground`. */
const pending = new Map<string, Pending>();

function queue(home: string): Pending {
  let q = pending.get(home);
  if (!q) pending.set(home, (q = { purge: [] }));
  return q;
}

/** A new entry holding the journal of a removal about to happen; the caller renames into `<entry>/tree`. */
export function reserveTrashEntry(home: string, journal: TrashJournal): string {
  const dir = trashDir(home);
  requireWorkspaceDir(dir, { create: true });
  const id = `${Date.now().toString(36)}-${process.pid}-${randomBytes(4).toString("hex")}`;
  const entry = join(dir, id);
  mkdirSync(entry);
  const marked: TrashJournal = { orchard: "trash", entry: id, ...journal };
  writeFileSync(join(entry, "journal.json"), JSON.stringify(marked) + "\n", { flag: "wx" });
  return entry;
}

/** An entry whose rename did not happen: only its journal is in it. */
export function discardTrashEntry(entry: string): void {
  rmSync(entry, { recursive: true, force: true });
}

/** The entry's tree may be deleted once this process flushes its background work. */
export function queuePurge(home: string, entry: string): void {
  queue(home).purge.push(entry);
}

/** Starts one detached process for the work queued for `home` (trash to delete). */
export function flushBackground(home: string): void {
  const q = pending.get(home);
  if (!q || q.purge.length === 0) return;
  pending.delete(home);
  const pid = startBackground(q, home);
  if (pid === null) return; // not started: finishTrash of the next command purges
  for (const entry of q.purge) {
    try {
      writeFileSync(join(entry, "purger"), `${pid}\n`);
    } catch {
      // the purger removed the entry already
    }
  }
}

/** The journal Orchard wrote into `entry`, or null: none, unreadable, or not one of Orchard's (another entry's copy). */
export function readJournal(entry: string): TrashJournal | null {
  try {
    const j = JSON.parse(readPlainText(join(entry, "journal.json"), { max: 1024 * 1024, follow: false }) ?? "null") as Partial<TrashJournal>;
    if (typeof j.path !== "string" || typeof j.admin !== "string" || typeof j.commonDir !== "string") return null;
    // journals written before the marker have neither field; one that names an entry must name this one
    if (j.entry !== undefined && (j.orchard !== "trash" || j.entry !== basename(entry))) return null;
    return j as TrashJournal;
  } catch {
    return null; // not written yet, already deleted by a purger that was killed, or not Orchard's
  }
}

/** A real directory directly in the trash, reached through no symbolic link (the trash's path is a realpath). */
export function isRealEntry(entry: string): boolean {
  const st = lstatSync(entry, { throwIfNoEntry: false });
  if (!st?.isDirectory()) return false;
  try {
    return realpathSync(entry) === entry;
  } catch {
    return false; // vanished or unreadable: not ours to touch
  }
}

function readPid(file: string): number | null {
  return Number(readPlainText(file, { max: 64, follow: false })?.trim()) || null; // null: no purger was started for this entry
}

/** Someone still works on the entry: its purger, or (before any purger) the process removing it,
 * whose pid is in the entry's name (`<time>-<pid>-<random>`) from before the journal exists. */
function owned(entry: string, id: string): boolean {
  const purger = readPid(join(entry, "purger"));
  if (purger !== null) return pidState(purger) !== "dead";
  const owner = Number(id.split("-")[1]);
  if (!Number.isSafeInteger(owner) || owner <= 0) return false; // not a name Orchard gave
  return owner === process.pid || pidState(owner) !== "dead";
}

/** A purge of this entry failed (a file that cannot be deleted) less than RETRY_FAILED_MS ago: not every command retries it. */
function failedRecently(entry: string): boolean {
  const st = statSync(join(entry, "failed"), { throwIfNoEntry: false });
  return st !== undefined && Date.now() - st.mtimeMs < RETRY_FAILED_MS;
}

/** Drops the admin dir a crash left: it still names the journal's path, and that path is no longer its worktree. */
function dropStaleAdmin(journal: TrashJournal): boolean {
  const recorded = readAdminWorktreePath(journal.admin);
  if (recorded === null || resolve(recorded) !== resolve(journal.path)) return false; // gone, or re-used by git for another worktree
  if (whyNotLinkedWorktree(journal.path, journal.admin) === null) return false; // that worktree is there again
  deleteAdminDir(journal.commonDir, journal.admin);
  return true;
}

/**
 * Completes what crashed removals left in the trash of `home`; cheap when the trash is empty.
 * Returns the entries queued again after a failed purge.
 * Purges only entries holding Orchard's journal; an entry a crash left before its journal was
 * written is empty and is removed with rmdir (which deletes nothing else). `retryFailed` (cleanup)
 * retries at once an entry a purger could not delete.
 */
export function finishTrash(home: string, options: { retryFailed?: boolean } = {}): string[] {
  const dir = trashDir(home);
  const retried: string[] = [];
  let dropped = false;
  if (!lstatSync(dir, { throwIfNoEntry: false })) return retried; // no trash yet
  requireWorkspaceDir(dir, { create: false });
  for (const id of readdirSync(dir)) {
    const entry = join(dir, id);
    if (!isRealEntry(entry)) continue; // a link or a file: never Orchard's entry
    const journal = readJournal(entry);
    if (owned(entry, id) || (!options.retryFailed && failedRecently(entry))) continue;
    if (journal === null) {
      dropEmptyEntry(entry);
      continue;
    }
    if (lstatSync(join(entry, "tree"), { throwIfNoEntry: false })) {
      try {
        dropped = dropStaleAdmin(journal) || dropped;
      } catch {
        continue; // the admin dir could not be read or deleted: keep the entry for a later command
      }
    }
    if (lstatSync(join(entry, "failed"), { throwIfNoEntry: false })) retried.push(entry);
    queuePurge(home, entry);
  }
  flushBackground(home);
  // a `git worktree list` the command line started early may have read an admin dir while it was
  // deleted (a HEAD of 0000…): no answer read before now is used (git/early.ts)
  if (dropped) dropEarly();
  return retried;
}

/** An entry without a journal: empty when a crash came between its mkdir and its journal; anything else is not Orchard's. */
function dropEmptyEntry(entry: string): void {
  try {
    rmdirSync(entry);
  } catch {
    // not empty (not Orchard's: left alone, hygiene reports it) or gone already
  }
}
