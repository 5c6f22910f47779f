// A worktree's index parsed once while it stays the same file (parse/index-file.ts). The walk vet
// reads its directories before git's status is asked (walk-vet.ts), the submodule look its gitlinks
// and directories beside that status (submodules.ts): the same file within moments, parsed twice
// (at 2,000 files, a few milliseconds of a repeated `add` each). The second read takes the first's
// parse when the file it opens is the one parsed, unchanged: its identity from fstat of the opened
// descriptor (device, inode, size, mtime and ctime in nanoseconds; ctime cannot be set back by a
// process that writes the file), the same before and after the bytes were read (issue 48, item 3).
// Opened as readPlainFile opens a file an agent could have planted (never a FIFO, never a device).
import { closeSync, constants, fstatSync, openSync, readSync, type BigIntStats } from "node:fs";
import { parseIndexShape, type IndexShape } from "../parse/index-file.js";

/** What was read: the shape, and the bytes when they were read now (a kept shape is the same file's). */
export type IndexRead = { shape: IndexShape; bytes: null } | { shape: IndexShape | null; bytes: Buffer };

/** By file (device and inode): its stamp when parsed and the shape; the oldest dropped past KEEP. */
const kept = new Map<string, { stamp: string; shape: IndexShape }>();
const KEEP = 1024;

const stampOf = (st: BigIntStats): string => `${st.size}:${st.mtimeNs}:${st.ctimeNs}`;

/**
 * The index at `file` (a regular file of at most `max` bytes; `follow: false`, not through a link):
 * its shape, parsed now or kept from a parse of the same unchanged file, with the bytes when it was
 * read now (null shape: not what parseIndexShape reads, the caller reads the bytes its own way).
 * Null when it is not there, not a plain file, or larger than `max`.
 */
export function readIndexShapeAt(file: string, options: { max: number; follow: boolean }): IndexRead | null {
  let fd: number;
  try {
    fd = openSync(file, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0) | (constants.O_NOCTTY ?? 0) | (options.follow ? 0 : (constants.O_NOFOLLOW ?? 0)));
  } catch {
    return null;
  }
  try {
    const before = fstatSync(fd, { bigint: true });
    if (!before.isFile() || before.size > BigInt(options.max)) return null;
    const key = `${before.dev}:${before.ino}`;
    const stamp = stampOf(before);
    const known = kept.get(key);
    if (known?.stamp === stamp) return { shape: known.shape, bytes: null };
    const bytes = readAll(fd, Number(before.size), options.max);
    if (bytes === null) return null;
    const shape = parseIndexShape(bytes);
    // kept only when nothing wrote the file while it was read
    if (shape && stampOf(fstatSync(fd, { bigint: true })) === stamp) {
      kept.delete(key);
      kept.set(key, { stamp, shape });
      if (kept.size > KEEP) kept.delete(kept.keys().next().value as string);
    }
    return { shape, bytes };
  } catch {
    return null;
  } finally {
    closeSync(fd);
  }
}

/** The descriptor's bytes (of a file `size` long when opened, at most `max`), or null past `max`. */
function readAll(fd: number, size: number, max: number): Buffer | null {
  const room = Math.min(max, size + 65_536); // what the file may grow while read, one byte more to see it pass `max`
  const buffer = Buffer.allocUnsafe(room + 1);
  let length = 0;
  for (let n = -1; n !== 0 && length <= room; length += n) n = readSync(fd, buffer, length, buffer.length - length, null);
  return length > room ? null : buffer.subarray(0, length);
}
