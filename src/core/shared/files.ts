// Files Orchard writes where someone else controls the directory (a worktree of an untrusted
// repository, a user-named report path): the content goes to a fresh temporary file opened with
// O_CREAT|O_EXCL|O_NOFOLLOW — never an existing file, never through a symlink (a tracked
// `<target>.orchard-tmp` symlink to ~/.bashrc must not be written) — then one rename onto the
// target, which replaces a symlink there instead of following it (SPEC §4.10).
import { closeSync, constants, openSync, renameSync, unlinkSync, writeSync } from "node:fs";
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

export { readPlainFile, readPlainText } from "../../git/input/plain-file.js";
