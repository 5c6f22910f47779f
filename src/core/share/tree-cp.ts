// copyTree's fast path on Linux: the files by one `cp` process (git/filesystem/copy-tree.ts), the
// digest by a walk of this process at the same time, on the other core. Node's own copy (tree.ts)
// spends more CPU in libuv's pool than the kernel spends cloning (issue 50: mocha's 17,234 files,
// 2.2–2.9 s of CPU against 0.8–1.2 s for `cp`, plus 0.4 s for the walk). The contract is tree.ts's:
// - the target must not exist (made here without `recursive`); it gets the source's mode at the end;
// - `auto` and `clone`: one file of the tree is cloned first (a probe, removed at once), which says
//   whether this filesystem clones; `auto` that cannot copies every file, `clone` that cannot throws
//   CloneUnsupported; `beforeClones` runs after the probe cloned;
// - a FIFO, a socket or a device fails the copy (the walk's error, once `cp` is done);
// - the digest lines are digest.ts's: of the source, read while `cp` copies (as tree.ts reads each
//   source file beside its copy), or of the target, read once `cp` is done.
// Null when `cp` could not copy (not GNU cp, no `sh`, any failure): what it made is removed again and
// the caller copies by itself, whose errors then say what is wrong.
import { chmodSync, constants, copyFileSync, lstatSync, mkdirSync, readdirSync, rmSync, unlinkSync } from "node:fs";
import { join } from "node:path";
import { copyTreeByCp } from "../../git/filesystem/copy-tree.js";
import { faultPoint } from "../shared/fault.js";
import { treeLines } from "./digest.js";
import { CloneUnsupported, cannotClone, type CopyOptions, type ShareMethod, type TreeCopy, type UsedMethod } from "./copy-kinds.js";

/** Copies `source` to `target` (absent) by one `cp` process; null when `cp` could not (the target is absent again). */
export async function copyTreeByProcess(source: string, target: string, method: ShareMethod, options: CopyOptions): Promise<TreeCopy | null> {
  if (process.platform !== "linux") return null;
  const top = lstatSync(source);
  if (!top.isDirectory()) throw new Error(`${source} is not a directory`);
  mkdirSync(target, { mode: 0o700 });
  let used: UsedMethod = method === "auto" ? "clone" : method;
  const probe = used === "clone" ? firstFile(source) : null;
  if (probe !== null) {
    const at = join(target, `.orchard-clone-probe-${process.pid}`);
    try {
      copyFileSync(probe, at, constants.COPYFILE_FICLONE_FORCE | constants.COPYFILE_EXCL);
      unlinkSync(at);
    } catch (error) {
      rmSync(at, { force: true });
      if (!cannotClone(error)) throw error;
      if (method === "clone") throw new CloneUnsupported(target);
      used = "copy"; // auto: this filesystem cannot clone
    }
  }
  if (options.fault) faultPoint(options.fault);
  if (probe !== null && used === "clone" && options.beforeClones) await options.beforeClones();
  const copying = copyTreeByCp(source, target, used);
  const of = options.digest?.of;
  let walked: ReturnType<typeof treeLines> | null = null;
  let walkError: unknown = null;
  try {
    if (of !== "target") walked = treeLines(source, true); // on this thread while cp runs in its own process
  } catch (error) {
    walkError = error;
  }
  const copied = await copying;
  if (walkError !== null) throw walkError; // what was made stays for the caller to remove, as tree.ts leaves it
  if (!copied.ok) {
    removeTree(target);
    return null;
  }
  chmodSync(target, top.mode & 0o7777);
  walked ??= treeLines(target, true);
  options.digest?.hash.update(walked.lines.join(""));
  return { method: used, files: walked.files };
}

/** A regular file of the tree, found near its top (null when the first directories hold none). */
function firstFile(root: string): string | null {
  const queue = [root];
  for (let i = 0; i < queue.length && i < 64; i++) {
    const dir = queue[i] as string;
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      if (entry.isFile()) return join(dir, entry.name);
      if (entry.isDirectory()) queue.push(join(dir, entry.name));
    }
  }
  return null;
}

/** Removes a tree this process made, read-only directories included. */
export function removeTree(path: string): void {
  const stack = [path];
  while (stack.length) {
    const dir = stack.pop() as string;
    try {
      chmodSync(dir, 0o700);
      for (const entry of readdirSync(dir, { withFileTypes: true })) if (entry.isDirectory()) stack.push(join(dir, entry.name));
    } catch {
      // gone or not ours to open: rmSync below says so if it matters
    }
  }
  rmSync(path, { recursive: true, force: true });
}
