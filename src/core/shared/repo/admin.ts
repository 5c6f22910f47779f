// The private git dir ("admin dir") of each linked worktree: <common>/worktrees/<id>. Git does
// not print it, so it is found by reading each admin dir's `gitdir` file. Orchard keeps its
// identity file `orchard.json` there so a worktree's identity survives the loss of the registry.
import { readdirSync, rmSync, rmdirSync, statSync, unlinkSync } from "node:fs";
import { readPlainFile, writeFileAtomic } from "../files.js";
import { basename, dirname, join, resolve, sep } from "node:path";
import type { Operation } from "../types.js";

/** Map of worktree path (as git lists it) → its admin dir. */
export function readAdminDirs(commonDir: string): Map<string, string> {
  const map = new Map<string, string>();
  const root = join(commonDir, "worktrees");
  let ids: string[];
  try {
    ids = readdirSync(root);
  } catch {
    return map; // no linked worktrees yet
  }
  for (const id of ids) {
    const admin = `${root}/${id}`; // root is normalised and an entry holds no slash: join(root, id) without its second pass
    const path = recordedPath(admin);
    // an admin dir without gitdir is being created or is broken; git lists it as prunable
    if (path !== null) map.set(path, admin);
  }
  return map;
}

/**
 * The admin dir of the worktree at `path` (as git lists it), as readAdminDirs(commonDir).get(path)
 * answers. Git names an admin dir after the worktree's directory (plus a number when that name is
 * taken), so that one is read first: one file instead of one per linked worktree.
 */
export function findAdminDir(commonDir: string, path: string): string | undefined {
  const named = join(commonDir, "worktrees", basename(path));
  if (readAdminWorktreePath(named) === path) return named;
  return readAdminDirs(commonDir).get(path);
}

/**
 * The worktree path an admin dir's `gitdir` file records (the dirname of its `.git`), or null
 * when the file cannot be read. git ≥ 2.48 (`worktree.useRelativePaths`) writes it relative to
 * the admin dir itself (SPEC §4.12); read literally it would name a path nowhere.
 */
export function readAdminWorktreePath(admin: string): string | null {
  return recordedPath(join(admin, "."));
}

/** readAdminWorktreePath of an admin dir whose path is normalised already. */
function recordedPath(admin: string): string | null {
  // absent or unreadable (being created, or broken), or anything but a plain file (a FIFO planted
  // there would hang a read): no record
  const text = readPlainFile(`${admin}/gitdir`)?.toString("utf8");
  if (text === undefined) return null;
  const gitdir = text.replace(/\r?\n$/, "");
  if (gitdir === "") return null;
  // what git writes (an absolute, normalised path to the worktree's `.git`): its directory by one cut (a fleet's
  // listing reads every record); anything else is resolved against the admin dir, as it would be read
  if (sep === "/" && gitdir.startsWith("/") && !UNNORMALISED.test(gitdir)) return gitdir.slice(0, Math.max(1, gitdir.lastIndexOf("/")));
  return dirname(resolve(admin, gitdir));
}

/** A path that resolve() would change: `//`, a `.` or `..` segment, a trailing slash. */
const UNNORMALISED = /\/\/|\/\.\.?(?:\/|$)|\/$/;

/**
 * Drops a linked worktree's registration as `git worktree remove` does once the directory is gone:
 * deletes its admin dir, then `<common>/worktrees` when that is empty. Only ever an admin dir
 * directly under `<commonDir>/worktrees` (never a path a record could point anywhere else).
 */
export function deleteAdminDir(commonDir: string, admin: string): void {
  const root = join(commonDir, "worktrees");
  if (resolve(dirname(admin)) !== resolve(root) || basename(admin) === "" || basename(admin) === "..")
    throw new Error(`refusing to delete ${admin}: not an admin dir of ${commonDir}`);
  try {
    deleteTree(admin);
  } catch {
    rmSync(admin, { recursive: true, force: true }); // what the plain walk could not (a file system without entry types, a busy entry): Node's own
  }
  try {
    rmdirSync(root);
  } catch {
    // other worktrees remain (ENOTEMPTY) or it is gone already: git leaves it the same way
  }
}

/**
 * An admin dir's few files and its `logs/`, deleted by a plain walk: a link is unlinked, never followed.
 * Not `rmSync`'s general remover, whose module and retries cost a removal ≈ 2 ms of cold code. Gone already: done.
 */
function deleteTree(dir: string): void {
  let entries;
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return;
    throw error;
  }
  for (const entry of entries) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) deleteTree(path);
    else unlinkSync(path);
  }
  rmdirSync(dir);
}

const OPERATION_FILES: [string, Operation][] = [
  ["MERGE_HEAD", "merge"],
  ["rebase-merge", "rebase"],
  ["rebase-apply", "rebase"],
  ["CHERRY_PICK_HEAD", "cherry-pick"],
  ["REVERT_HEAD", "revert"],
  ["BISECT_LOG", "bisect"],
];

/** The operation in progress in a git dir (one directory read: hygiene asks this of every worktree). */
export function readOperation(gitDir: string): Operation | null {
  let names: Set<string>;
  try {
    names = new Set(readdirSync(gitDir));
  } catch {
    return null; // no git dir to read: no file of any operation there
  }
  for (const [file, operation] of OPERATION_FILES) if (names.has(file)) return operation;
  return null;
}

function mtime(path: string): number | null {
  try {
    return statSync(path, { throwIfNoEntry: false })?.mtimeMs ?? null; // absent file: no evidence of activity
  } catch {
    return null; // unreadable: none either
  }
}

/** The files whose times tell a worktree's latest work: its HEAD, index and HEAD's reflog. */
const ACTIVITY_FILES = ["HEAD", "index", "logs/HEAD"] as const;

/** The newest sign of work in a worktree's admin dir (HEAD, index, reflog), as epoch ms. A fleet's
 * listing asks it of every worktree: one normalised path, a stat per file, no error made for an absent one. */
export function readAdminActivity(admin: string): number | null {
  const dir = join(admin, ".");
  let newest: number | null = null;
  for (const file of ACTIVITY_FILES) {
    const t = mtime(`${dir}/${file}`);
    if (t !== null && (newest === null || t > newest)) newest = t;
  }
  return newest;
}

export function readAdminCreated(admin: string): number | null {
  return mtime(join(admin, "commondir"));
}

export interface IdentityFile {
  handle: string;
  repo: string;
  /** null: a detached worktree adopted in place. */
  branch: string | null;
  task: string | null;
  owner: string | null;
  base: { ref: string | null; commit: string | null };
  // v4 (SPEC §4.11): whose it is, and what a recovery without the registry restores; absent in older files
  /** The id of the workspace that made it (workspace/id.ts). */
  workspace?: string;
  lifecycle?: "active" | "terminal";
  outcome?: string | null;
  lastOwner?: string | null;
  /** The lease as the registry held it when this was written (heartbeatAt + ttlMs: its expiry). */
  lease?: { owner: string | null; pid: number | null; pidStart: string | null; host: string | null; heartbeatAt: string | null; ttlMs: number | null } | null;
  /** v5: the recorded fingerprints, so what a verdict needs of them (a kept copy in use) survives the registry. */
  fingerprints?: { bootstrap: string | null; context: string | null; runtime: string | null };
}

export function writeIdentityFile(admin: string, identity: IdentityFile): void {
  const path = join(admin, "orchard.json");
  writeFileAtomic(path, JSON.stringify(identity, null, 2) + "\n");
}

export function readIdentityFile(admin: string): IdentityFile | null {
  const text = readPlainFile(join(admin, "orchard.json"))?.toString("utf8"); // a FIFO planted there is no file
  try {
    return text === undefined ? null : (JSON.parse(text) as IdentityFile);
  } catch {
    return null; // not an orchard worktree, or the file is damaged: the registry decides
  }
}

export function readLockMtime(admin: string): number | null {
  return mtime(join(admin, "locked"));
}
