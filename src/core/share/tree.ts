// Copying one directory tree by a share method (bootstrap.shareMethod). Contract:
// - the target must not exist (mkdir without `recursive`): a tree is never merged into another;
// - symbolic links are recreated as links (never followed); directories get their source's mode;
//   files keep their mode (copyFileSync), hard links share the inode; anything else (a FIFO, a
//   socket, a device) fails the copy;
// - `clone` is a reflink (FICLONE: btrfs, XFS, APFS via libuv): the blocks are shared until one
//   side writes, and a write never reaches the other file; `copy` writes the bytes again;
//   `hardlink` shares the inode, so a write in place reaches every link (pnpm's warning);
// - `auto` clones and, at the first file the filesystem cannot clone, copies that file and every
//   later one: the result names the method that was used (`clone` only when every file was).
// The walk is synchronous: it is the bootstrap's own step, nothing else runs meanwhile.
import { chmodSync, constants, copyFileSync, linkSync, lstatSync, mkdirSync, readdirSync, readlinkSync, symlinkSync } from "node:fs";
import { join } from "node:path";
import { faultPoint } from "../shared/fault.js";

export type ShareMethod = "auto" | "clone" | "hardlink" | "copy";
/** The method a copy really used. */
export type UsedMethod = "clone" | "hardlink" | "copy";

export interface TreeCopy {
  method: UsedMethod;
  files: number;
}

/** errno codes with which a filesystem (or a cross-device pair) says it cannot clone. */
const CANNOT_CLONE = new Set(["ENOTSUP", "EOPNOTSUPP", "EXDEV", "EINVAL", "ENOSYS", "ENOTTY"]);

export class CloneUnsupported extends Error {
  constructor(readonly path: string) {
    super(`the filesystem of ${path} cannot clone files (reflink): use bootstrap.shareMethod "auto" or "copy"`);
  }
}

function cannotClone(error: unknown): boolean {
  return CANNOT_CLONE.has((error as NodeJS.ErrnoException).code ?? "");
}

/** Copies the tree at `source` to `target` (absent); `fault`: a fault point hit after the first file. */
export function copyTree(source: string, target: string, method: ShareMethod, fault?: string): TreeCopy {
  let used: UsedMethod = method === "auto" ? "clone" : method;
  let files = 0;
  const copyFile = (from: string, to: string): void => {
    if (used === "hardlink") linkSync(from, to);
    else if (used === "copy") copyFileSync(from, to, constants.COPYFILE_EXCL);
    else
      try {
        copyFileSync(from, to, constants.COPYFILE_FICLONE_FORCE | constants.COPYFILE_EXCL);
      } catch (error) {
        if (!cannotClone(error)) throw error;
        if (method === "clone") throw new CloneUnsupported(to);
        used = "copy"; // auto: this filesystem cannot clone; copy this file and every later one
        copyFileSync(from, to, constants.COPYFILE_EXCL);
      }
    if (++files === 1 && fault) faultPoint(fault);
  };
  const top = lstatSync(source);
  if (!top.isDirectory()) throw new Error(`${source} is not a directory`);
  mkdirSync(target, { mode: 0o700 });
  const stack: [string, string, number][] = [[source, target, top.mode]];
  while (stack.length) {
    const [from, to, mode] = stack.pop() as [string, string, number];
    for (const name of readdirSync(from)) {
      const s = join(from, name);
      const d = join(to, name);
      const st = lstatSync(s);
      if (st.isDirectory()) {
        mkdirSync(d, { mode: 0o700 });
        stack.push([s, d, st.mode]);
      } else if (st.isSymbolicLink()) symlinkSync(readlinkSync(s), d);
      else if (st.isFile()) copyFile(s, d);
      else throw new Error(`${s} is not a file, directory or symbolic link; it cannot be shared`);
    }
    chmodSync(to, mode & 0o7777); // after its entries: a read-only directory is still filled
  }
  return { method: used, files };
}
