// The kept copies: `<home>/share/<repo name>/<key>/` holds `ready.json` (the marker of a whole
// copy, written last) and `dirs/<dir>` (the pristine directories). The key is a digest of the
// bootstrap fingerprint (config and `bootstrap.inputs` at HEAD), the runtime fingerprint and the
// list of shared directories: two worktrees that share a copy agree on all three.
// Invariants (crash safety):
// - a copy is built under `.building-<pid>-<random>/` (its `owner.json` names the process) and
//   renamed into place whole, so a path at a key is either absent or complete; a directory at a
//   key without a readable marker is never used (and is reclaimed);
// - a `.building-*` whose owner is dead, and a `.reclaiming-*` (a removal under way or cut short),
//   are deleted by the next `add` that shares or `cleanup run` (sweepStore; hygiene only reads);
// - every file read here is read by the plain-file reader (no link followed, non-blocking, at most
//   64 KiB): a FIFO or a link to /dev/zero planted as `ready.json` makes that copy incomplete, one
//   as `owner.json` leaves the build to its name's pid; neither ever hangs a reader;
// - nothing under `share/` is deleted through a symbolic link: the store and repo directories
//   are real directories (requireWorkspaceDir), and rmSync never follows a link inside.
import { createHash, randomBytes } from "node:crypto";
import { lstatSync, readdirSync, renameSync, rmSync, utimesSync } from "node:fs";
import { join } from "node:path";
import { requireWorkspaceDir } from "../shared/context.js";
import { readPlainText, writeFileAtomic } from "../shared/files.js";
import { HOST, pidState } from "../ownership/index.js";
import type { UsedMethod } from "./tree.js";
import { faultPoint } from "../shared/fault.js";
import type { OrchardConfig } from "../shared/config.js";

export const MARKER = "ready.json";
const OWNER = "owner.json";
const BUILDING = ".building-";
const RECLAIMING = ".reclaiming-";

export interface ShareKeyParts {
  bootstrap: string;
  runtime: string;
  dirs: readonly string[];
}

/** What `ready.json` records. */
export interface KeptMarker extends ShareKeyParts {
  key: string;
  repo: string;
  method: UsedMethod;
  files: number;
  createdAt: string;
  /** digest.ts's digest of `dirs/` when kept; a copy whose digest differs is never materialised (share_modified). */
  digest?: string;
}

export interface KeptCopy {
  repo: string;
  key: string;
  path: string;
  /** The marker, or null: an incomplete copy (never used, reclaimed). */
  marker: KeptMarker | null;
  /** When a worktree last took its directories from it (the marker's mtime), ISO. */
  lastUsed: string;
}

/** The directories a repo's configuration shares (bootstrap.share), without trailing slashes. */
export function sharedDirsOf(config: OrchardConfig): string[] {
  return (config.bootstrap?.share ?? []).map((d) => d.replace(/\/+$/, ""));
}

export function shareKey(parts: ShareKeyParts): string {
  const text = JSON.stringify({ bootstrap: parts.bootstrap, runtime: parts.runtime, dirs: [...parts.dirs] });
  return createHash("sha256").update(text, "utf8").digest("hex").slice(0, 32);
}

export const storeDir = (home: string): string => join(home, "share");
export const repoStoreDir = (home: string, repo: string): string => join(storeDir(home), repo);
export const keptDir = (home: string, repo: string, key: string): string => join(repoStoreDir(home, repo), key);
export const keptTree = (copy: string, dir: string): string => join(copy, "dirs", dir);

/** The store's directory for a repo, made when absent; a symbolic link there is an error (nothing deleted through it). */
export function openRepoStore(home: string, repo: string): string {
  requireWorkspaceDir(storeDir(home), { create: true });
  const dir = repoStoreDir(home, repo);
  requireWorkspaceDir(dir, { create: true });
  return dir;
}

function readMarker(path: string): KeptMarker | null {
  try {
    const m = JSON.parse(readPlainText(join(path, MARKER), { follow: false }) ?? "null") as Partial<KeptMarker> | null;
    if (typeof m?.key !== "string" || typeof m.bootstrap !== "string" || typeof m.runtime !== "string" || !Array.isArray(m.dirs)) return null;
    return m as KeptMarker;
  } catch {
    return null; // not JSON: not a whole copy
  }
}

function keptCopy(repo: string, path: string, key: string): KeptCopy {
  const marker = readMarker(path);
  const st = lstatSync(marker ? join(path, MARKER) : path);
  return { repo, key, path, marker: marker?.key === key ? marker : null, lastUsed: st.mtime.toISOString() };
}

/** The whole copy kept for `key`, or null. */
export function findReady(home: string, repo: string, key: string): KeptCopy | null {
  const path = keptDir(home, repo, key);
  const st = lstatSync(path, { throwIfNoEntry: false });
  if (!st?.isDirectory()) return null;
  const copy = keptCopy(repo, path, key);
  return copy.marker ? copy : null;
}

/** Records that a worktree took its directories from the copy now (its age for the budget). */
export function touchKept(copy: KeptCopy): void {
  const now = new Date();
  utimesSync(join(copy.path, MARKER), now, now);
}

/** Every copy kept for every repo of the workspace (complete or not), oldest use first. */
export function listKept(home: string): KeptCopy[] {
  const copies: KeptCopy[] = [];
  for (const repo of listDirs(storeDir(home)))
    for (const key of listDirs(repoStoreDir(home, repo))) if (!key.startsWith(".")) copies.push(keptCopy(repo, keptDir(home, repo, key), key));
  return copies.sort((a, b) => a.lastUsed.localeCompare(b.lastUsed) || a.path.localeCompare(b.path));
}

function listDirs(dir: string): string[] {
  const st = lstatSync(dir, { throwIfNoEntry: false });
  if (!st?.isDirectory()) return [];
  return readdirSync(dir, { withFileTypes: true })
    .filter((e) => e.isDirectory())
    .map((e) => e.name)
    .sort();
}

/** A fresh build directory in the repo's store, owned by this process. */
export function beginBuild(repoStore: string): string {
  const path = join(repoStore, `${BUILDING}${process.pid}-${randomBytes(4).toString("hex")}`);
  requireWorkspaceDir(path, { create: true });
  writeFileAtomic(join(path, OWNER), JSON.stringify({ pid: process.pid, host: HOST }) + "\n");
  return path;
}

/** Marks the build whole and renames it to its key; false when another process kept that key first (the build is dropped). */
export function finishBuild(build: string, marker: KeptMarker, target: string): boolean {
  writeFileAtomic(join(build, MARKER), JSON.stringify(marker, null, 2) + "\n");
  rmSync(join(build, OWNER), { force: true });
  faultPoint("share.copied"); // whole and marked, not yet at its key
  try {
    renameSync(build, target);
    return true;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code !== "ENOTEMPTY" && code !== "EEXIST") throw error;
    removeKept(build);
    return false;
  }
}

/** Deletes a kept copy or a build: renamed aside first, so a cut-short removal is never taken for a copy. */
export function removeKept(path: string): void {
  const aside = join(path, "..", `${RECLAIMING}${randomBytes(4).toString("hex")}`);
  renameSync(path, aside);
  rmSync(aside, { recursive: true, force: true });
}

/** A build's owner (the pid in its name) is gone; a build of another host is never judged. */
function buildOwnerGone(path: string, name: string): boolean {
  let host: unknown = HOST;
  // no owner file (written right after the directory, removed just before the rename) or not a plain one: the name's pid decides
  const text = readPlainText(join(path, OWNER), { follow: false });
  try {
    if (text !== null) host = (JSON.parse(text) as { host?: unknown }).host;
  } catch {
    // not JSON (cut short while written): the name's pid decides
  }
  const pid = Number(/^\.building-(\d+)-/.exec(name)?.[1]);
  return host === HOST && (!Number.isInteger(pid) || pidState(pid) === "dead");
}

/** Deletes half copies (builds of dead processes, cut-short removals) in the store; returns how many. */
export function sweepStore(home: string): number {
  let swept = 0;
  for (const repo of listDirs(storeDir(home))) {
    const dir = repoStoreDir(home, repo);
    for (const name of listDirs(dir)) {
      const path = join(dir, name);
      if (name.startsWith(RECLAIMING) || (name.startsWith(BUILDING) && buildOwnerGone(path, name))) {
        rmSync(path, { recursive: true, force: true });
        swept++;
      }
    }
  }
  return swept;
}
