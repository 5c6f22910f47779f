// Reading a small file someone else may have put there (a worktree's `.git`, a record of its admin
// dir, an identity file, a kept copy's marker): never a FIFO or a device, never more than asked for.
// Every file Orchard reads that an agent could have written goes through this reader (SPEC v5 §4).
import { closeSync, constants, fstatSync, openSync, readSync } from "node:fs";

export interface PlainFileOptions {
  /** At most this many bytes (default 64 KiB); a larger file is no plain file. */
  max?: number;
  /** false: a symbolic link at `path` is no plain file either (a file only Orchard writes). Default true. */
  follow?: boolean;
}

/**
 * The bytes of a small file Orchard reads where someone else could have put something else (a
 * worktree's `.git`, a record of its admin dir): null unless it is a regular file of at most
 * `max` bytes. Opened non-blocking, so a FIFO planted there never hangs the read (fstat then says
 * what was opened); null as well when it cannot be opened.
 */
export function readPlainFile(path: string, limit: number | PlainFileOptions = {}): Buffer | null {
  const { max = 65_536, follow = true } = typeof limit === "number" ? { max: limit } : limit;
  let fd: number;
  try {
    const flags = constants.O_RDONLY | (constants.O_NONBLOCK ?? 0) | (constants.O_NOCTTY ?? 0) | (follow ? 0 : (constants.O_NOFOLLOW ?? 0));
    fd = openSync(path, flags);
  } catch {
    return null;
  }
  try {
    const st = fstatSync(fd);
    if (!st.isFile() || st.size > max) return null;
    // room for the file and what it may grow while read (within `max`), one byte more to see it pass that
    const room = Math.min(max, st.size + 65_536);
    // not zero-filled: only the bytes read are returned (a zeroed 64 KiB per `.git` file read was a tenth of hygiene's CPU at 200 worktrees);
    // sized for the file as fstat saw it and grown only while it grows (a 64 KiB allocation per small file read was most of
    // list's garbage at 200 worktrees: its `gitdir` records)
    let buffer = Buffer.allocUnsafe(Math.min(room, st.size + SLACK) + 1);
    let length = 0;
    for (let n = -1; n !== 0 && length <= room; length += n) {
      if (length === buffer.length) buffer = grown(buffer, room + 1);
      const want = buffer.length - length;
      n = readSync(fd, buffer, length, want, null);
      // all fstat saw, in a read that left room: its end, without a second read to see it (a read less than the whole is read on)
      if (n < want && length + n === st.size) {
        length += n;
        break;
      }
    }
    return length > room ? null : Buffer.from(buffer.subarray(0, length)); // a copy: the room is not kept alive
  } catch {
    return null;
  } finally {
    closeSync(fd);
  }
}

/** Bytes past fstat's size read in the first pass: a file that grew a little since is still read in one. */
const SLACK = 256;

/** `buffer` with room for twice as much (at most `limit` bytes), its bytes kept. */
function grown(buffer: Buffer<ArrayBuffer>, limit: number): Buffer<ArrayBuffer> {
  const next = Buffer.allocUnsafe(Math.min(limit, buffer.length * 2));
  buffer.copy(next);
  return next;
}

/** readPlainFile as UTF-8 text, or null. */
export function readPlainText(path: string, limit: number | PlainFileOptions = {}): string | null {
  return readPlainFile(path, limit)?.toString("utf8") ?? null;
}
