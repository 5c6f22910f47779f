// Copying one directory tree by a share method (bootstrap.shareMethod). Contract:
// - the target must not exist (mkdir without `recursive`): a tree is never merged into another;
// - symbolic links are recreated as links (never followed); directories get their source's mode;
//   files keep their mode (copyFile), hard links share the inode; anything else (a FIFO, a
//   socket, a device) fails the copy;
// - `clone` is a reflink (FICLONE: btrfs, XFS, APFS via libuv): the blocks are shared until one
//   side writes, and a write never reaches the other file; `copy` writes the bytes again;
//   `hardlink` shares the inode, so a write in place reaches every link (pnpm's warning);
// - `auto` clones and, at the first file the filesystem cannot clone, copies that file and every
//   later one: the result names the method that was used (`clone` only when every file was).
// On Linux the whole tree is copied by one `cp` process while this process reads the digest
// (tree-cp.ts: less than half the CPU of the copy below); the copy below is the fallback, and the
// copy elsewhere (macOS: APFS clones through libuv).
// The directories are made by a walk on the main thread (types from readdir, no lstat per file);
// the files are cloned, linked or copied a few at once on libuv's thread pool while the walk goes
// on: the walk yields after each directory, so the pool never waits for the whole walk. One file
// at a time, each clone waits for its own I/O (on XFS a fresh install's dirty pages are written
// out at the clone). With `digest`, the walk writes digest.ts's lines of the source (a kept copy
// being materialised) or of the target (a copy being kept) in digest.ts's order, each file's
// lstat done on the pool beside its copy: the digest costs no second walk. Measured in issue 50
// (bench/ready.mjs, mocha's 16,578 files): see bench/RESULTS.md.
import { chmodSync, constants, lstatSync, mkdirSync, promises as fsp, readdirSync, readlinkSync, symlinkSync, type Dirent } from "node:fs";
import { join } from "node:path";
import { faultPoint } from "../shared/fault.js";
import { dirLine, fileLine, linkLine } from "./digest.js";
import { CloneUnsupported, cannotClone, type CopyOptions, type ShareMethod, type TreeCopy, type UsedMethod } from "./copy-kinds.js";
import { copyTreeByProcess } from "./tree-cp.js";

export { CloneUnsupported } from "./copy-kinds.js";
export type { CopyOptions, ShareMethod, TreeCopy, UsedMethod } from "./copy-kinds.js";

/** Files copied at once (libuv's pool has four threads by default; a few more keep it busy). */
const CONCURRENCY = 8;

/** One file to copy: its paths, and its slot among the digest's lines. */
interface Pending {
  from: string;
  to: string;
  path: string;
  line: number;
}

/** Copies the tree at `source` to `target` (absent): by one `cp` process where it can (tree-cp.ts), else file by file here. */
export async function copyTree(source: string, target: string, method: ShareMethod, options: CopyOptions = {}): Promise<TreeCopy> {
  return (await copyTreeByProcess(source, target, method, options)) ?? (await copyTreeInNode(source, target, method, options));
}

/** Copies the tree at `source` to `target` (absent), file by file on libuv's pool. */
export async function copyTreeInNode(source: string, target: string, method: ShareMethod, options: CopyOptions = {}): Promise<TreeCopy> {
  let used: UsedMethod = method === "auto" ? "clone" : method;
  let files = 0;
  const digest = options.digest;
  const lines: string[] = [];
  const copyFile = async ({ from, to, path, line }: Pending): Promise<void> => {
    if (used === "hardlink") await fsp.link(from, to);
    else if (used === "copy") await fsp.copyFile(from, to, constants.COPYFILE_EXCL);
    else
      try {
        await fsp.copyFile(from, to, constants.COPYFILE_FICLONE_FORCE | constants.COPYFILE_EXCL);
      } catch (error) {
        if (!cannotClone(error)) throw error;
        if (method === "clone") throw new CloneUnsupported(to);
        used = "copy"; // auto: this filesystem cannot clone; copy this file and every later one
        await fsp.copyFile(from, to, constants.COPYFILE_EXCL);
      }
    if (digest?.of === "target") lines[line] = fileLine(path, await fsp.lstat(to, { bigint: true }));
    if (++files === 1 && options.fault) faultPoint(options.fault);
  };

  const queue: Pending[] = [];
  let next = 0;
  let walked = false;
  let failed = false;
  let waiting: (() => void)[] = [];
  const wake = (): void => {
    const w = waiting;
    waiting = [];
    for (const resolve of w) resolve();
  };
  const worker = async (): Promise<void> => {
    try {
      while (!failed) {
        if (next < queue.length) await copyFile(queue[next++] as Pending);
        else if (walked) return;
        else await new Promise<void>((resolve) => waiting.push(resolve));
      }
    } catch (error) {
      failed = true; // the others stop at their next file
      wake();
      throw error;
    }
  };
  // the first file alone (it tells whether this filesystem clones), then the rest a few at once
  const copyAll = async (): Promise<void> => {
    const results = await Promise.allSettled([copyFile(queue[next++] as Pending)]);
    if (results[0]?.status === "fulfilled" && used === "clone" && options.beforeClones) results.push(...(await Promise.allSettled([options.beforeClones()])));
    if (results.every((r) => r.status === "fulfilled")) results.push(...(await Promise.allSettled(Array.from({ length: CONCURRENCY }, worker))));
    const rejected = results.find((r): r is PromiseRejectedResult => r.status === "rejected");
    if (rejected) throw rejected.reason;
  };
  const run: { copying: Promise<void> | null } = { copying: null };
  const start = (): void => {
    if (run.copying || queue.length === 0) return;
    run.copying = copyAll().catch((error: unknown) => {
      failed = true; // the walk and the other workers stop at their next step
      wake();
      throw error;
    });
    run.copying.catch(() => undefined); // awaited below
  };
  let dirs: [string, number][];
  try {
    dirs = await walk(source, target, { queue, lines, statSource: digest?.of === "source" }, () => {
      start();
      wake();
      return failed;
    });
  } catch (error) {
    failed = true;
    wake();
    await run.copying?.catch(() => undefined); // nothing is written after the error is thrown
    throw error;
  }
  walked = true;
  start();
  wake();
  await run.copying;
  for (const [dir, mode] of dirs.reverse()) chmodSync(dir, mode & 0o7777); // after its entries: a read-only directory is still filled
  digest?.hash.update(lines.join(""));
  return { method: used, files };
}

const byName = (a: Dirent, b: Dirent): number => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0);

/**
 * Makes the directories and links of `source` under `target` (absent), queues its files, and
 * writes each entry's digest line (a file's slot is filled by its copy), in digest.ts's order.
 * After each directory it calls `more` and yields, so queued files are copied meanwhile; `more`
 * answers true when the copy failed (the walk stops). Returns each directory with its mode.
 */
async function walk(
  source: string,
  target: string,
  out: { queue: Pending[]; lines: string[]; statSource: boolean },
  more: () => boolean,
): Promise<[string, number][]> {
  const top = lstatSync(source);
  if (!top.isDirectory()) throw new Error(`${source} is not a directory`);
  mkdirSync(target, { mode: 0o700 });
  const dirs: [string, number][] = [];
  const stack: [string, string, number][] = [["", target, top.mode]];
  while (stack.length) {
    const [rel, to, mode] = stack.pop() as [string, string, number];
    dirs.push([to, mode]);
    const from = rel === "" ? source : join(source, rel);
    for (const entry of readdirSync(from, { withFileTypes: true }).sort(byName)) {
      const path = rel === "" ? entry.name : `${rel}/${entry.name}`;
      const s = join(from, entry.name);
      const d = join(to, entry.name);
      // a filesystem that does not give types in readdir (DT_UNKNOWN) is asked by lstat
      const st = entry.isDirectory() || entry.isSymbolicLink() || entry.isFile() ? null : lstatSync(s);
      if (st ? st.isDirectory() : entry.isDirectory()) {
        const dirMode = lstatSync(s).mode;
        mkdirSync(d, { mode: 0o700 });
        out.lines.push(dirLine(path, dirMode));
        stack.push([path, d, dirMode]);
      } else if (st ? st.isSymbolicLink() : entry.isSymbolicLink()) {
        const link = readlinkSync(s);
        symlinkSync(link, d);
        out.lines.push(linkLine(path, link));
      } else if (st ? st.isFile() : entry.isFile()) {
        out.queue.push({ from: s, to: d, path, line: out.lines.length });
        out.lines.push(out.statSource ? fileLine(path, lstatSync(s, { bigint: true })) : ""); // else filled by the copy
      } else throw new Error(`${s} is not a file, directory or symbolic link; it cannot be shared`);
    }
    if (more()) return dirs;
    await new Promise<void>((resolve) => setImmediate(resolve));
  }
  return dirs;
}
