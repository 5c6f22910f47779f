// The digest of a kept copy (bootstrap.share): proof that the copy is still what the install made.
// With `shareMethod: hardlink` a kept copy and every worktree share inodes, so one agent's write in
// place changes the copy too; a copy that changed is never materialised again (`share_modified`).
// The digest is a sha256 over every entry under `dirs/`, in sorted order: its relative path and
// type, and for a file its size, mode, inode and mtime in nanoseconds (a link: its target). It
// costs one lstat per entry, no byte read: a write in place changes the mtime (and usually the
// size), a replaced file changes the inode. It does not catch a writer that sets the mtime back on
// purpose (`touch -d`); a content hash would, at the cost of reading every byte at each check.
// ctime is left out: a hard link made by a materialise changes it.
import { createHash } from "node:crypto";
import { lstatSync, readdirSync, readlinkSync, type BigIntStats } from "node:fs";
import { join } from "node:path";

// The digest's lines, one per entry, in the order of the walk below. copyTree (tree.ts) walks a tree
// in the same order and writes the same lines, so a copy's digest costs no second walk.
export const rootLine = (dir: string): string => `dir\0${dir}\0`;
export const dirLine = (path: string, mode: number | bigint): string => `d\0${path}\0${mode}\0`;
export const linkLine = (path: string, target: string): string => `l\0${path}\0${target}\0`;
export const fileLine = (path: string, st: BigIntStats): string => `f\0${path}\0${st.size}\0${st.mode}\0${st.ino}\0${st.mtimeNs}\0`;

/** The digest of the trees `dirs/<dir>` of a copy (or a build) at `copy`. */
export function digestKept(copy: string, dirs: readonly string[]): string {
  const hash = createHash("sha256");
  for (const dir of [...dirs].sort()) {
    hash.update(rootLine(dir));
    hash.update(treeLines(join(copy, "dirs", dir)).lines.join(""));
  }
  return hash.digest("hex");
}

/**
 * The lines of every entry under `root`, in the order above, and how many files. `strict`: an entry
 * that is not a file, a directory or a symbolic link (a FIFO, a socket, a device) is an error, as it
 * is for a copy (tree.ts); otherwise it is digested as a file.
 */
export function treeLines(root: string, strict = false): { lines: string[]; files: number } {
  const lines: string[] = [];
  let files = 0;
  const stack = [""];
  while (stack.length) {
    const rel = stack.pop() as string;
    const entries = readdirSync(rel === "" ? root : join(root, rel)).sort();
    for (const name of entries) {
      const path = rel === "" ? name : `${rel}/${name}`;
      const st = lstatSync(join(root, path), { bigint: true });
      if (st.isDirectory()) {
        lines.push(dirLine(path, st.mode));
        stack.push(path);
      } else if (st.isSymbolicLink()) lines.push(linkLine(path, readlinkSync(join(root, path))));
      else if (strict && !st.isFile()) throw new Error(`${join(root, path)} is not a file, directory or symbolic link; it cannot be shared`);
      else {
        lines.push(fileLine(path, st));
        files++;
      }
    }
  }
  return { lines, files };
}

/** Why the kept copy is no longer what was kept, or null when its digest still matches. */
export function readKeptChange(copy: { path: string; marker: { dirs: readonly string[]; digest?: string | undefined } | null }): string | null {
  const marker = copy.marker;
  if (!marker) return null; // incomplete: never used anyway (share_incomplete)
  const none = unprovable(copy);
  if (none !== null) return none;
  let now: string;
  try {
    now = digestKept(copy.path, marker.dirs);
  } catch (error) {
    return `${copy.path} could not be read whole (${(error as Error).message})`;
  }
  return now === marker.digest ? null : changedWhy(copy.path);
}

/** Why a copy whose digest differs is not used. */
export const changedWhy = (path: string): string => `a file under ${path} changed after it was kept (a write through a hard link in a worktree)`;

/** Why the copy cannot be proved pristine without reading it (no digest recorded), or null: the digest is then checked while materialising. */
export function unprovable(copy: { path: string; marker: { digest?: string | undefined } | null }): string | null {
  return copy.marker && typeof copy.marker.digest !== "string"
    ? `${copy.path} records no digest (kept by an older version): it cannot be proved pristine`
    : null;
}
