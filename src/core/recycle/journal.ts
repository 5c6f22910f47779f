// The recycle journal (SPEC §4.10: a crash at any step leaves a state that the next command on
// that worktree finishes or undoes). Recycle locks, switches, cleans and moves a worktree before
// one registry transaction records the new row. `orchard-recycle.json` in the worktree's admin dir
// (which `git worktree move` leaves where it is) is written before the first of those steps and
// removed right after the transaction, all under the repo's mutation lock; so a journal that a
// command holding the lock finds belongs to a recycle that died. It is undone from the state it
// finds, not from a list of steps: move back, switch back, delete the new branch when this recycle
// made it and nobody moved it, restore the old lock text and identity file. Every git write
// re-checks that the path is still the linked worktree git registered (§4.10). A marker in one
// directory of the common dir names each journal, so finding them costs no stat per worktree.
import { closeSync, existsSync, mkdirSync, openSync, readdirSync, renameSync, rmSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import { readSymbolicRef, resolveCommit } from "../../git/read.js";
import { deleteRef, moveWorktree, switchDetached, switchToBranch, unlockWorktree } from "../../git/write.js";
import { readAdminWorktreePath, writeIdentityFile, type IdentityFile } from "../shared/repo/admin.js";
import type { Ctx } from "../shared/context.js";
import { failure } from "../shared/errors.js";
import { reason, type Reason } from "../shared/reasons/reasons.js";
import { readPlainText, writeFileAtomic } from "../shared/files.js";
import { writeLock } from "../ownership/index.js";
import { requireInsideWorkspace, requireLinkedWorktree } from "../shared/repo/linked.js";
import { endBootstrapJournal, markBootstrapInterrupted } from "../bootstrap/index.js";

export const RECYCLE_JOURNAL = "orchard-recycle.json";

export interface RecycleJournal {
  from: {
    rowId: number;
    handle: string;
    path: string;
    /** The branch checked out before (null: detached at `head`). */
    branch: string | null;
    head: string | null;
    /** The git lock text before (null: unlocked). */
    lock: string | null;
    identity: IdentityFile | null;
    /** Its bootstrap had run: a clean may have removed what it made. */
    bootstrapped: boolean;
  };
  to: { handle: string; path: string; branch: string; baseCommit: string; createdBranch: boolean };
}

/**
 * Where a journal can be, named in one directory of the common dir (`orchard-recycles/<admin id>`):
 * the marker is made before its journal and removed after it, under the mutation lock, so every
 * journal has one, and a command that looks for journals reads this directory, not every admin dir
 * (a fleet of 1,000 worktrees: one read instead of 1,000 stats on each add).
 */
const MARKERS = "orchard-recycles";

function markerOf(admin: string): string {
  return join(dirname(dirname(admin)), MARKERS, basename(admin)); // <common>/worktrees/<id> → <common>/orchard-recycles/<id>
}

function mark(admin: string): void {
  mkdirSync(dirname(markerOf(admin)), { recursive: true });
  closeSync(openSync(markerOf(admin), "a"));
}

export function writeRecycleJournal(admin: string, journal: RecycleJournal): void {
  mark(admin);
  writeFileAtomic(join(admin, RECYCLE_JOURNAL), JSON.stringify(journal) + "\n");
}

export function removeRecycleJournal(admin: string): void {
  rmSync(join(admin, RECYCLE_JOURNAL), { force: true });
  rmSync(markerOf(admin), { force: true });
}

/**
 * Every journal in the repo's admin dirs (callers hold the mutation lock), found by its marker. A
 * marker whose journal is gone (a kill between the two removals, or the worktree removed since)
 * is dropped. Where the markers' directory is not there yet (no recycle since Orchard wrote
 * markers; a journal an earlier version left has none), every admin dir is read once and the
 * directory made, with a marker for each journal found.
 */
export function readRecycleJournals(commonDir: string): { admin: string; journal: RecycleJournal }[] {
  const root = join(commonDir, "worktrees");
  const markers = join(commonDir, MARKERS);
  let ids: string[];
  let marked = true;
  try {
    ids = readdirSync(markers);
  } catch {
    marked = false;
    try {
      ids = readdirSync(root);
    } catch {
      return []; // no linked worktrees, so no journal: the markers' directory waits for the first recycle
    }
  }
  const found: { admin: string; journal: RecycleJournal }[] = [];
  for (const id of ids) {
    const admin = join(root, id);
    const path = join(admin, RECYCLE_JOURNAL);
    if (!existsSync(path)) {
      if (marked) rmSync(join(markers, id), { force: true });
      continue;
    }
    try {
      found.push({ admin, journal: JSON.parse(readPlainText(path, { max: 16 * 1024 * 1024, follow: false }) ?? "") as RecycleJournal });
    } catch {
      continue; // written by one rename, so unreadable only if someone else wrote it: nothing to undo from
    }
  }
  if (!marked)
    makeMarkers(
      markers,
      found.map((f) => basename(f.admin)),
    );
  return found;
}

/** The markers' directory with these markers, made whole beside it and renamed into place: a kill leaves none or all. */
function makeMarkers(markers: string, ids: readonly string[]): void {
  const building = `${markers}.${process.pid}.tmp`;
  try {
    mkdirSync(building, { recursive: true });
    for (const id of ids) closeSync(openSync(join(building, id), "a"));
    renameSync(building, markers);
  } catch {
    rmSync(building, { recursive: true, force: true }); // the next command reads every admin dir again
  }
}

/** Reverses whatever part of the recycle happened; the journal goes last, so a failed undo is tried again. */
export async function undoRecycle(ctx: Ctx, admin: string, journal: RecycleJournal): Promise<void> {
  const { repo } = ctx;
  const { from, to } = journal;
  const at = (path: string): string => (requireLinkedWorktree(path, admin), path);
  if (from.path !== to.path && readAdminWorktreePath(admin) === to.path) {
    requireInsideWorkspace(ctx.workspace.root, to.path);
    await moveWorktree(repo.primary, at(to.path), from.path);
  }
  const current = await readSymbolicRef(at(from.path), "HEAD");
  const switched = from.branch !== null ? current !== `refs/heads/${from.branch}` : current !== null || (await resolveCommit(from.path, "HEAD")) !== from.head;
  if (switched && from.branch !== null) await switchToBranch(at(from.path), from.branch);
  else if (switched && from.head !== null) await switchDetached(at(from.path), from.head);
  if (to.createdBranch) await deleteRef(repo.primary, `refs/heads/${to.branch}`, to.baseCommit); // compare-and-swap: kept if it moved
  if (from.lock !== null) writeLock(admin, from.lock);
  else if (existsSync(join(admin, "locked"))) await unlockWorktree(repo.primary, at(from.path));
  if (from.identity) writeIdentityFile(admin, from.identity);
  if (switched && from.bootstrapped)
    markBootstrapInterrupted(admin); // the clean may have removed what bootstrap made
  else endBootstrapJournal(admin);
  removeRecycleJournal(admin);
}

/**
 * Settles the journals a dead recycle left (callers hold the mutation lock): a recycle whose
 * registry transaction happened only loses its journal; any other is undone. A failure is thrown
 * when `concerns` says the journal is the caller's business, else left for a command that is.
 * Returns a `recycle_undone` note for each undone journal the caller is concerned with.
 */
export async function repairRecycles(ctx: Ctx, concerns: (journal: RecycleJournal) => boolean): Promise<Reason[]> {
  return (await settleRecycles(ctx, concerns)).notes;
}

/** repairRecycles, also saying how many journals it found (none: nothing in git changed). */
export async function settleRecycles(ctx: Ctx, concerns: (journal: RecycleJournal) => boolean): Promise<{ notes: Reason[]; settled: number }> {
  const notes: Reason[] = [];
  const journals = readRecycleJournals(ctx.repo.commonDir);
  for (const { admin, journal } of journals) {
    try {
      const done = await ctx.registry.worktrees.byHandle(journal.to.handle);
      if (done && done.recycledFrom === journal.from.rowId && done.lifecycle !== "creating") removeRecycleJournal(admin);
      else {
        await undoRecycle(ctx, admin, journal);
        if (concerns(journal)) notes.push(reason("recycle_undone", { from: journal.from.handle, to: journal.to.handle, path: journal.from.path }));
      }
    } catch (error) {
      if (concerns(journal))
        throw failure("recycle_failed", `undoing an interrupted recycle of ${journal.from.path} failed: ${(error as Error).message}`, error);
      // not this command's worktree: its journal stays for the next command that touches it
    }
  }
  return { notes, settled: journals.length };
}
