// Reading a small file someone else may have put there (a worktree's `.git`, a record of its admin
// dir, an identity file): never a FIFO or a device, never more than asked for.
import { closeSync, constants, fstatSync, openSync, readSync } from "node:fs";

/**
 * The bytes of a small file Orchard reads where someone else could have put something else (a
 * worktree's `.git`, a record of its admin dir): null unless it is a regular file of at most
 * `max` bytes. Opened non-blocking, so a FIFO planted there never hangs the read (fstat then says
 * what was opened); null as well when it cannot be opened.
 */
export function readPlainFile(path: string, max = 65_536): Buffer | null {
  let fd: number;
  try {
    fd = openSync(path, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0) | (constants.O_NOCTTY ?? 0));
  } catch {
    return null;
  }
  try {
    const st = fstatSync(fd);
    if (!st.isFile() || st.size > max) return null;
    // room for the file and what it may grow while read (within `max`), one byte more to see it pass that
    const room = Math.min(max, st.size + 65_536);
    // not zero-filled: only the bytes read are returned (a zeroed 64 KiB per `.git` file read was a tenth of hygiene's CPU at 200 worktrees)
    const buffer = Buffer.allocUnsafe(room + 1);
    let length = 0;
    for (let n = -1; n !== 0 && length <= room; length += n) n = readSync(fd, buffer, length, buffer.length - length, null);
    return length > room ? null : Buffer.from(buffer.subarray(0, length)); // a copy: the room is not kept alive
  } catch {
    return null;
  } finally {
    closeSync(fd);
  }
}
