// Which branch each checkout of the repository has, read in-process from the files git itself reads
// for `git worktree list` (and for `git branch -d`'s "checked out" refusal): the HEAD of the main
// worktree (`<common>/HEAD`, unless bare) and of each linked one (`<common>/worktrees/<id>/HEAD`),
// the worktree's path from the admin dir's `gitdir` file. A wave entry reads its own admin dir; a
// cleanup batch that deletes branches proves a branch is checked out nowhere with one small file
// per worktree — instead of a `git worktree list` process per question. A merge's (or a wave's)
// branch deletes ask git's listing once instead (readBranchHolders): one worktree's verb reads no
// other worktree's files (SPEC v5 §3). A HEAD naming a loose
// symbolic ref is followed to the branch it leads to (git names that branch; the names on the way
// count too), and a detached HEAD is also read for a rebase or a bisect in progress on a branch
// (git's `branch -d` refuses those too; its list does not show them). A HEAD this reader does not
// understand, or a repository whose refs are in a reftable, is `unknown`: the caller asks git.
import { existsSync, lstatSync, readdirSync, readlinkSync } from "node:fs";
import { readPlainFile } from "../files.js";
import { join } from "node:path";
import { findAdminDir, readAdminDirs, readAdminWorktreePath } from "./admin.js";
import { realOrAbsolute } from "./paths.js";
import { readWorktrees } from "../../../git/read.js";
import type { WorktreeEntry } from "../../../git/parse/worktrees.js";
import { decodeGitBytes } from "../../../git/bytes.js";

const SHA = /^(?:[0-9a-f]{40}|[0-9a-f]{64})$/;

/** A HEAD: on `branch` (a full ref), or detached at `head`; `unknown` when the file says neither. */
export type HeadFile = { branch: string; head: null } | { branch: null; head: string } | "unknown" | "absent";

function readFirstLine(file: string): string | null {
  const bytes = readPlainFile(file); // a FIFO planted there never hangs the read
  return bytes === null ? null : decodeGitBytes(bytes).replace(/\r?\n$/, ""); // absent or unreadable: the caller decides
}

/** A file's text; `absent` when there is none (ENOENT, ENOTDIR), `unknown` when it cannot be read. */
function readHeadText(file: string): { text: string } | "absent" | "unknown" {
  // a regular file, not through a link (a link, a FIFO or a device there: unknown, never waited on); the lstat only
  // when it is not one, to tell none from another kind (one read a worktree where every HEAD is read)
  const bytes = readPlainFile(file, { follow: false });
  if (bytes !== null) return { text: decodeGitBytes(bytes).replace(/\r?\n$/, "") };
  try {
    lstatSync(file);
    return "unknown";
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    return code === "ENOENT" || code === "ENOTDIR" ? "absent" : "unknown";
  }
}

/** The HEAD file of a git dir, as git resolves it one level (a symbolic ref or an object name). */
export function readHeadFile(gitDir: string): HeadFile {
  const file = join(gitDir, "HEAD");
  const read = readHeadText(file);
  if (read === "absent" || read === "unknown") return read;
  const text = read.text;
  if (text.startsWith("ref: ")) {
    const ref = text.slice(5).trim();
    return ref.startsWith("refs/") && !/[\s\0]/.test(ref) ? { branch: ref, head: null } : "unknown";
  }
  if (!SHA.test(text)) return "unknown";
  // a symbolic link to a ref (core.preferSymlinkRefs) reads as the ref's object name
  if (lstatSync(file, { throwIfNoEntry: false })?.isSymbolicLink()) {
    const target = decodeGitBytes(readlinkSync(file, { encoding: "buffer" }));
    return target.startsWith("refs/") ? { branch: target, head: null } : "unknown";
  }
  return { branch: null, head: text };
}

/** Branches a rebase or a bisect in progress in a git dir works on (git's `branch -d` refuses them). */
function branchesInOperation(gitDir: string): string[] {
  const refs: string[] = [];
  for (const dir of ["rebase-merge", "rebase-apply"]) {
    const name = readFirstLine(join(gitDir, dir, "head-name"))?.trim();
    if (name?.startsWith("refs/heads/")) refs.push(name);
  }
  const bisect = readFirstLine(join(gitDir, "BISECT_START"))?.trim();
  if (bisect && !SHA.test(bisect)) refs.push(`refs/heads/${bisect}`);
  return refs;
}

/** The branch a loose symbolic ref names (files backend: a symbolic ref is always loose), else null. */
function symrefTarget(commonDir: string, ref: string): string | null {
  if (ref.split("/").some((part) => part === ".." || part === ".")) return null;
  const text = readFirstLine(join(commonDir, ref));
  return text?.startsWith("ref: refs/") ? text.slice(5).trim() : null;
}

/**
 * The branches a git dir holds: the one its HEAD names (and the branches a chain of loose symbolic
 * refs leads on to), or, detached, those a rebase or bisect in progress works on. `unknown`: its
 * HEAD could not be read as git would list it.
 */
function branchesHeldBy(commonDir: string, gitDir: string): string[] | "unknown" {
  const head = readHeadFile(gitDir);
  if (head === "unknown") return "unknown";
  if (head === "absent") return []; // an admin dir being created or removed: git lists no HEAD there
  if (head.branch === null) return branchesInOperation(gitDir);
  const held = [head.branch];
  for (let ref = symrefTarget(commonDir, head.branch); ref !== null && held.length < 6; ref = symrefTarget(commonDir, ref)) held.push(ref);
  return held;
}

/** The linked worktrees' admin dirs. */
function adminDirs(commonDir: string): string[] {
  const root = join(commonDir, "worktrees");
  try {
    return readdirSync(root).map((id) => join(root, id));
  } catch {
    return []; // no linked worktrees
  }
}

/**
 * Every branch (full ref) checked out, rebased or bisected now in any worktree of the repository,
 * the main one included: one small read per worktree, no process. `unknown`: a HEAD this reader
 * does not understand, or refs in a reftable (the caller asks git).
 */
export function readCheckedOutBranches(commonDir: string): Set<string> | "unknown" {
  if (existsSync(join(commonDir, "reftable"))) return "unknown";
  const branches = new Set<string>();
  for (const gitDir of [commonDir, ...adminDirs(commonDir)]) {
    const held = branchesHeldBy(commonDir, gitDir);
    if (held === "unknown") return "unknown";
    for (const ref of held) branches.add(ref);
  }
  return branches;
}

export interface LinkedCheckout {
  /** The path as git lists it (the admin dir's `gitdir` record). */
  path: string;
  admin: string;
  /** The full ref checked out, or null when detached (then `head` is its commit). */
  branch: string | null;
  head: string | null;
}

/**
 * The linked worktree git lists at `path` (its listed path, or that path's realpath, is `path`):
 * its admin dir is the one named after the directory in the common case (one file read), else
 * found among all admin dirs (one file each). null: git lists none there; `unknown`: its HEAD
 * could not be read as git would list it.
 */
export function readLinkedCheckout(commonDir: string, path: string): LinkedCheckout | null | "unknown" {
  let listed: string | undefined = path;
  let admin = findAdminDir(commonDir, path);
  if (admin === undefined)
    for (const [p, a] of readAdminDirs(commonDir))
      if (realOrAbsolute(p) === path) {
        [listed, admin] = [p, a];
        break;
      }
  if (admin === undefined) return null;
  const head = readHeadFile(admin);
  if (head === "unknown" || head === "absent") return "unknown";
  return { path: listed, admin, ...head };
}

/**
 * Where `ref` is checked out (or rebased or bisected): the path of a worktree, the primary's path
 * when `primary` is given (a non-bare main worktree), null when nowhere, `unknown` when a HEAD
 * could not be read. Reads one HEAD per worktree; the admin dir's `gitdir` only for the answer.
 */
export function findBranchHolder(commonDir: string, ref: string, primary: string | null): string | null | "unknown" {
  if (existsSync(join(commonDir, "reftable"))) return "unknown";
  const holds = (gitDir: string): boolean | "unknown" => {
    const held = branchesHeldBy(commonDir, gitDir);
    return held === "unknown" ? held : held.includes(ref);
  };
  if (primary !== null) {
    const main = holds(commonDir);
    if (main !== false) return main === true ? primary : main;
  }
  for (const admin of adminDirs(commonDir)) {
    const held = holds(admin);
    if (held === "unknown") return "unknown";
    if (held) return readAdminWorktreePath(admin) ?? admin;
  }
  return null;
}

/** The entry's worktree as `git worktree list` has it: read in-process, or from git's list when its HEAD is not understood. */
export async function locateWorktree(
  repo: { commonDir: string; primary: string },
  path: string,
): Promise<{ path: string; branch: string | null; head: string | null } | null> {
  const found = readLinkedCheckout(repo.commonDir, path);
  if (found !== "unknown") return found;
  const listed = (await readWorktrees(repo.primary)).slice(1);
  return listed.find((e) => e.path === path || realOrAbsolute(e.path) === path) ?? null;
}

/** Where `ref` is checked out (the primary too unless `linkedOnly` or bare): in-process, or from git's list when a HEAD is not understood. */
export async function locateBranch(repo: { commonDir: string; primary: string; bare: boolean }, ref: string, linkedOnly = false): Promise<string | null> {
  const found = findBranchHolder(repo.commonDir, ref, linkedOnly || repo.bare ? null : repo.primary);
  if (found !== "unknown") return found;
  const listed = await readWorktrees(repo.primary);
  return (linkedOnly ? listed.slice(1) : listed).find((e) => e.branch === ref)?.path ?? null;
}

/**
 * Where each branch is checked out (or rebased, or bisected), from git's own listing read now (one
 * `git worktree list`, whatever the fleet: git resolves every HEAD, a reftable's or a symbolic
 * link's included): the path git lists for each branch, and for a detached worktree the branches a
 * rebase or bisect in progress there works on (git's `branch -d` refuses those too; its listing does
 * not show them: read from that worktree's own git dir, the only in-process read, one per detached
 * worktree). Full ref → the first path that holds it.
 */
export async function readBranchHolders(repo: { commonDir: string; primary: string }): Promise<Map<string, string>> {
  return branchHoldersIn(repo.commonDir, await readWorktrees(repo.primary));
}

/** readBranchHolders' answer from a listing already read (the first entry is the main worktree). */
export function branchHoldersIn(commonDir: string, listing: readonly WorktreeEntry[]): Map<string, string> {
  const holders = new Map<string, string>();
  const hold = (ref: string, path: string): void => void (holders.has(ref) || holders.set(ref, path));
  for (const [i, e] of listing.entries()) {
    if (e.bare) continue;
    if (e.branch) {
      hold(e.branch, e.path);
      continue;
    }
    const gitDir = i === 0 ? commonDir : findAdminDir(commonDir, e.path);
    if (gitDir !== undefined) for (const ref of branchesInOperation(gitDir)) hold(ref, e.path);
  }
  return holders;
}
