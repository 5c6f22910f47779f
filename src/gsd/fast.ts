// GSD's read-only calls answered on the caller's thread, as GSD's own module answers them: the
// context from one `rev-parse`, the linked paths from one `git worktree list`, the inventory and
// health from that listing and a stat of each directory (issue 48 item 4: at GSD's cost, no
// worker started, no assessment). Through src/git's synchronous readers (read-sync.ts), with the
// hardened env and the vetting every git call of Orchard's gets. Whatever they do not answer (a
// repository with a config include or an admin file that is not plain, a path outside any
// repository, git failing) answers null here, and api.ts asks the worker, whose readers handle
// and word every case; the entries and findings are built here for both (inventory.ts too).
import { existsSync, realpathSync, statSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";
import { readGitDirsSync, readWorktreesSync } from "../git/read-sync.js";
import { useExistingHome } from "../git/warm/proof-cache.js";
import { configuredHome } from "./bridge.js";
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
  if (!existsSync(path)) return { path, exists: false, isStale: false, ageMinutes: null };
  let ageMinutes: number | null = null;
  let isStale = false;
  try {
    const ageMs = nowMs - statSync(path).mtimeMs;
    ageMinutes = Math.round(ageMs / 60000);
    isStale = ageMs > staleAfterMs;
  } catch {
    // unreadable: its age is unknown (null), as GSD reports it
  }
  return { path, exists: true, isStale, ageMinutes };
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

/** The listing, when this thread can answer: a path given as text, GSD's options as numbers, no assessment asked. */
function listingHere(repoRoot: unknown, options: unknown = {}): WorktreeEntry[] | null {
  if (typeof repoRoot !== "string" || !existsSync(repoRoot)) return null;
  if (options !== undefined && (typeof options !== "object" || options === null)) return null;
  const o = (options ?? {}) as Record<string, unknown>;
  if (!plainNumber(o.staleAfterMs) || !plainNumber(o.nowMs) || o.assess) return null;
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

export function linkedPathsHere(repoRoot: unknown): string[] | null {
  return (
    listingHere(repoRoot)
      ?.slice(1)
      .map((e) => e.path) ?? null
  );
}

export function inventoryHere(repoRoot: unknown, options: InventoryOptions = {}): InventoryEntry[] | null {
  const now = Date.now();
  return (
    listingHere(repoRoot, options)
      ?.slice(1)
      .map((e) => inventoryEntry(e.path, options, now)) ?? null
  );
}
