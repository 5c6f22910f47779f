// GSD's read-only calls answered on the caller's thread, as GSD's own module answers them (issue 48
// item 4: at GSD's cost, no worker started, no assessment): the context from one `rev-parse`; the
// linked paths from the `gitdir` records git builds its listing from (listing.ts: no git run, where
// that is provably git's answer), else from one `git worktree list` after the admin files' vetting
// (src/git's synchronous readers, read-sync.ts, with the hardened env every git call of Orchard's
// gets); the inventory and health from those paths and a stat of each directory. Whatever neither
// answers (a repository with a config include or an admin file that is not plain, a path outside
// any repository, git failing) answers null here, and api.ts asks the worker, whose readers handle
// and word every case; the entries and findings are built here for both (inventory.ts too).
import { existsSync, realpathSync, statSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";
import { readGitDirsSync, readWorktreesSync } from "../git/read-sync.js";
import { useExistingHome } from "../git/warm/proof-cache.js";
import { configuredHome } from "./bridge.js";
import { linkedPathsByHand } from "./listing.js";
import type { WorktreeEntry } from "../git/parse/worktrees.js";
import type { HealthFinding, InventoryEntry, WorktreeContext } from "./types.js";

export interface InventoryOptions {
  staleAfterMs?: number;
  nowMs?: number;
  /** Orchard: add hygiene's disposition and reasons to each entry (a full assessment: a status of every worktree). */
  assess?: boolean;
}

/** The main worktree as git's own listing names it (worktree.c get_main_worktree): the common dir's real path without "/.git". */
export const mainWorktreeOf = (commonDir: string): string => (commonDir.endsWith("/.git") ? commonDir.slice(0, -"/.git".length) : commonDir);

/** GSD's entry of one linked worktree: whether its directory exists, its age from the directory's mtime. */
export function inventoryEntry(path: string, options: InventoryOptions, now: number): InventoryEntry {
  const staleAfterMs = options.staleAfterMs ?? 60 * 60 * 1000;
  const nowMs = options.nowMs ?? now;
  // one stat where GSD makes two (existsSync, then statSync): any failure is what existsSync says false for
  // (access(2) fails where stat(2) does: no entry, no search permission on the way, a loop of links)
  let st;
  try {
    st = statSync(path, { throwIfNoEntry: false });
  } catch {
    st = undefined;
  }
  if (st === undefined) return { path, exists: false, isStale: false, ageMinutes: null };
  const ageMs = nowMs - st.mtimeMs;
  return { path, exists: true, isStale: ageMs > staleAfterMs, ageMinutes: Math.round(ageMs / 60000) };
}

/** GSD's findings: a directory gone is an orphan, an old one stale (with Orchard's view, when assessed). */
export function findingsOf(entries: readonly InventoryEntry[]): HealthFinding[] {
  const findings: HealthFinding[] = [];
  for (const { path, exists, isStale, ageMinutes, disposition, reasons } of entries) {
    const view = disposition === undefined ? {} : { disposition, reasons: reasons ?? [] };
    if (!exists) findings.push({ kind: "orphan", path, ...view });
    else if (isStale) findings.push({ kind: "stale", path, ageMinutes, ...view });
  }
  return findings;
}

const plainNumber = (v: unknown): boolean => v === undefined || typeof v === "number";

/** Whether this thread can answer: a path given as text, GSD's options as numbers, no assessment asked. */
function answerable(repoRoot: unknown, options: unknown): repoRoot is string {
  if (typeof repoRoot !== "string" || !existsSync(repoRoot)) return false;
  if (options !== undefined && (typeof options !== "object" || options === null)) return false;
  const o = (options ?? {}) as Record<string, unknown>;
  return plainNumber(o.staleAfterMs) && plainNumber(o.nowMs) && !o.assess;
}

/** git's listing (answerable() said yes): the admin files vetted first, then one `git worktree list`. */
function listingHere(repoRoot: string): WorktreeEntry[] | null {
  // the admin dirs' vetting kept in the workspace's cache, when the library made one: an unchanged fleet costs a stat a worktree
  useExistingHome(configuredHome() ?? (process.env.ORCHARD_HOME || join(homedir(), ".orchard")));
  return readWorktreesSync(repoRoot);
}

export function contextHere(cwd: unknown): WorktreeContext | null {
  if (typeof cwd !== "string" || !existsSync(cwd)) return null;
  const dirs = readGitDirsSync(cwd);
  if (dirs === null) return null;
  const commonDir = realpathSync(dirs.commonDir);
  const primary = mainWorktreeOf(commonDir);
  if (realpathSync(dirs.gitDir) === commonDir) return { effectiveRoot: cwd, mode: "current_directory", reason: "main_worktree", primary };
  return { effectiveRoot: primary, mode: "linked_worktree_root", reason: "linked_worktree", primary };
}

/** The linked worktrees' paths: read from their `gitdir` records where that is provably git's listing (listing.ts), else git's. */
function pathsHere(repoRoot: unknown, options: unknown = {}): string[] | null {
  if (!answerable(repoRoot, options)) return null;
  return (
    linkedPathsByHand(repoRoot) ??
    listingHere(repoRoot)
      ?.slice(1)
      .map((e) => e.path) ??
    null
  );
}

export function linkedPathsHere(repoRoot: unknown): string[] | null {
  return pathsHere(repoRoot);
}

export function inventoryHere(repoRoot: unknown, options: InventoryOptions = {}): InventoryEntry[] | null {
  const now = Date.now();
  return pathsHere(repoRoot, options)?.map((path) => inventoryEntry(path, options, now)) ?? null;
}
