// Which branch each checkout of the repository has, read in-process from the files git itself reads
// for `git worktree list` (and for `git branch -d`'s "checked out" refusal): the HEAD of the main
// worktree (`<common>/HEAD`, unless bare) and of each linked one (`<common>/worktrees/<id>/HEAD`),
// the worktree's path from the admin dir's `gitdir` file. One entry of a wave reads its own admin
// dir and, to prove a branch is checked out nowhere, one small file per worktree — instead of a
// `git worktree list` process per question. A detached HEAD is also read for a rebase or a bisect
// in progress on a branch (git's `branch -d` refuses those too; its list does not show them). A
// HEAD this reader does not understand is `unknown`: the caller asks git instead.
import { lstatSync, readdirSync, readFileSync, readlinkSync } from "node:fs";
import { join } from "node:path";
import { findAdminDir, readAdminDirs, readAdminWorktreePath } from "../shared/admin.js";
import { realOrAbsolute } from "../shared/paths.js";
import { readWorktrees } from "../../git/read.js";

const SHA = /^(?:[0-9a-f]{40}|[0-9a-f]{64})$/;

/** A HEAD: on `branch` (a full ref), or detached at `head`; `unknown` when the file says neither. */
export type HeadFile = { branch: string; head: null } | { branch: null; head: string } | "unknown" | "absent";

function readFirstLine(file: string): string | null {
  try {
    return readFileSync(file, "utf8").replace(/\r?\n$/, "");
  } catch {
    return null; // absent (or unreadable): the caller decides what that means
  }
}

/** A file's text; `absent` when there is none (ENOENT, ENOTDIR), `unknown` when it cannot be read. */
function readHeadText(file: string): { text: string } | "absent" | "unknown" {
  try {
    return { text: readFileSync(file, "utf8").replace(/\r?\n$/, "") };
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
    const target = readlinkSync(file);
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
  const holds = (gitDir: string): boolean | "unknown" => {
    const head = readHeadFile(gitDir);
    if (head === "unknown") return "unknown";
    if (head === "absent") return false; // an admin dir being created or removed: git lists no HEAD there
    if (head.branch !== null) return head.branch === ref;
    return branchesInOperation(gitDir).includes(ref);
  };
  if (primary !== null) {
    const main = holds(commonDir);
    if (main !== false) return main === true ? primary : main;
  }
  const root = join(commonDir, "worktrees");
  let ids: string[];
  try {
    ids = readdirSync(root);
  } catch {
    return null; // no linked worktrees
  }
  for (const id of ids) {
    const admin = join(root, id);
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
