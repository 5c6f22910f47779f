// Files Orchard writes where someone else controls the directory (a worktree of an untrusted
// repository, a user-named report path): the content goes to a fresh temporary file opened with
// O_CREAT|O_EXCL|O_NOFOLLOW — never an existing file, never through a symlink (a tracked
// `<target>.orchard-tmp` symlink to ~/.bashrc must not be written) — then one rename onto the
// target, which replaces a symlink there instead of following it (SPEC §4.10).
import { closeSync, constants, fstatSync, openSync, readSync, renameSync, unlinkSync, writeSync } from "node:fs";
import { randomBytes } from "node:crypto";

const EXCLUSIVE = constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | (constants.O_NOFOLLOW ?? 0);

/** Writes `content` to `path` atomically through an exclusive, never-followed temporary file. */
export function writeFileAtomic(path: string, content: string | Uint8Array, mode = 0o644): void {
  const temp = `${path}.orchard-tmp-${randomBytes(4).toString("hex")}`;
  const fd = openSync(temp, EXCLUSIVE, mode);
  try {
    try {
      writeSync(fd, typeof content === "string" ? Buffer.from(content) : content);
    } finally {
      closeSync(fd);
    }
    renameSync(temp, path);
  } catch (error) {
    try {
      unlinkSync(temp); // ours: created exclusively above
    } catch {
      // already renamed or gone: nothing of ours is left behind
    }
    throw error;
  }
}

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
    const buffer = Buffer.alloc(max + 1);
    let length = 0;
    for (let n = -1; n !== 0 && length <= max; length += n) n = readSync(fd, buffer, length, buffer.length - length, null);
    return length > max ? null : buffer.subarray(0, length);
  } catch {
    return null;
  } finally {
    closeSync(fd);
  }
}
