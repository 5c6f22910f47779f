// The workspace's trash, `<home>/trash`: a worktree proven removable is renamed into it (one atomic
// step on one file system) before git's entry is dropped, and a detached process deletes it after
// the command has answered. Invariant: everything under the trash was proven removable before it
// got there, so deleting it never loses work.
//
// An entry is `<home>/trash/<time>-<pid>-<random>/`: `journal.json` ({path, admin, commonDir})
// written BEFORE the rename, `tree/` (the renamed worktree), `purger` (the pid of the process deleting it). A
// crash leaves entries that `finishTrash` (every Orchard.open) completes: it drops the admin dir a
// crash left behind (its gitdir still names the journal's path, which is no longer that worktree)
// and purges them, skipping entries whose owner or purger still runs (and, for an hour, entries a
// purger could not delete: an immutable file is reported by `failed`, not retried by every command).
import { lstatSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { randomBytes } from "node:crypto";
import { startBackground, type IndexRefresh } from "../../git/background.js";
import { deleteAdminDir, readAdminWorktreePath } from "./admin.js";
import { whyNotLinkedWorktree } from "./linked.js";
import { pidState } from "../ownership/index.js";

const RETRY_FAILED_MS = 60 * 60_000;

export interface TrashJournal {
  path: string;
  admin: string;
  commonDir: string;
}

interface Pending {
  purge: string[];
  refresh: IndexRefresh[];
}

/** Background work queued by this process, per workspace home, until `flushBackground`. */
const pending = new Map<string, Pending>();

function queue(home: string): Pending {
  let q = pending.get(home);
  if (!q) pending.set(home, (q = { purge: [], refresh: [] }));
  return q;
}

export function trashDir(home: string): string {
  return join(home, "trash");
}

/** A new entry holding the journal of a removal about to happen; the caller renames into `<entry>/tree`. */
export function reserveTrashEntry(home: string, journal: TrashJournal): string {
  const dir = trashDir(home);
  mkdirSync(dir, { recursive: true });
  const entry = join(dir, `${Date.now().toString(36)}-${process.pid}-${randomBytes(4).toString("hex")}`);
  mkdirSync(entry);
  writeFileSync(join(entry, "journal.json"), JSON.stringify(journal) + "\n", { flag: "wx" });
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

export function queueIndexRefresh(home: string, refresh: IndexRefresh): void {
  queue(home).refresh.push(refresh);
}

/** Starts one detached process for the work queued for `home` (trash to delete, indexes to refresh). */
export function flushBackground(home: string): void {
  const q = pending.get(home);
  if (!q || (q.purge.length === 0 && q.refresh.length === 0)) return;
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

function readJournal(entry: string): TrashJournal | null {
  try {
    const j = JSON.parse(readFileSync(join(entry, "journal.json"), "utf8")) as Partial<TrashJournal>;
    return typeof j.path === "string" && typeof j.admin === "string" && typeof j.commonDir === "string" ? (j as TrashJournal) : null;
  } catch {
    return null; // not written yet, or already deleted by a purger that was killed
  }
}

function readPid(file: string): number | null {
  try {
    return Number(readFileSync(file, "utf8").trim()) || null;
  } catch {
    return null; // no purger was started for this entry
  }
}

/** Someone still works on the entry: its purger, or (before any purger) the process removing it,
 * whose pid is in the entry's name (`<time>-<pid>-<random>`) from before the journal exists. */
function owned(entry: string, id: string): boolean {
  const purger = readPid(join(entry, "purger"));
  if (purger !== null) return pidState(purger) !== "dead";
  const owner = Number(id.split("-")[1]);
  return owner === process.pid || pidState(owner) !== "dead";
}

/** A purge of this entry failed (a file that cannot be deleted) less than RETRY_FAILED_MS ago: not every command retries it. */
function failedRecently(entry: string): boolean {
  const st = statSync(join(entry, "failed"), { throwIfNoEntry: false });
  return st !== undefined && Date.now() - st.mtimeMs < RETRY_FAILED_MS;
}

/** Drops the admin dir a crash left: it still names the journal's path, and that path is no longer its worktree. */
function dropStaleAdmin(journal: TrashJournal): void {
  const recorded = readAdminWorktreePath(journal.admin);
  if (recorded === null || resolve(recorded) !== resolve(journal.path)) return; // gone, or re-used by git for another worktree
  if (whyNotLinkedWorktree(journal.path, journal.admin) === null) return; // that worktree is there again
  deleteAdminDir(journal.commonDir, journal.admin);
}

/** Completes what crashed removals left in the trash of `home`; cheap when the trash is empty. */
export function finishTrash(home: string): void {
  let ids: string[];
  try {
    ids = readdirSync(trashDir(home));
  } catch {
    return; // no trash yet
  }
  for (const id of ids) {
    const entry = join(trashDir(home), id);
    if (owned(entry, id) || failedRecently(entry)) continue;
    const journal = readJournal(entry);
    if (journal && lstatSync(join(entry, "tree"), { throwIfNoEntry: false })) {
      try {
        dropStaleAdmin(journal);
      } catch {
        continue; // the admin dir could not be read or deleted: keep the entry for a later command
      }
    }
    queuePurge(home, entry);
  }
  flushBackground(home);
}
