// Directories the bootstrap's `link` step shares with the primary (`bootstrap.link`, Claude Code's
// `worktree.symlinkDirectories`): the worktree's `<dir>` is a symbolic link to `<primary>/<dir>`.
// Such a link is never work of the worktree — its content is the primary's — so the dirty fact
// does not count it (untracked or ignored), and nothing that removes, cleans, salvages or measures
// a worktree ever follows it: every one of them lstats and treats the link as a link (the disk
// walk counts it once, in the primary). Recognised by what it is, not by a record: a link whose
// text is exactly the absolute path of the same relative path in the primary.
import { lstatSync, readlinkSync } from "node:fs";
import { isAbsolute, join } from "node:path";

/** The names a link step accepts: relative, no `..`, `.` or empty segment, not `.git`, printable. */
export function linkNameProblem(name: string): string | null {
  if (typeof name !== "string" || name.trim() === "") return "is empty";
  if (/[\p{Cc}\p{Cs}]/u.test(name)) return "holds a control character";
  if (isAbsolute(name) || name.startsWith("\\")) return "is an absolute path (a directory of the primary is named relative to it)";
  const parts = name.replace(/\/+$/, "").split(/[\\/]/);
  if (parts.some((p) => p === "..")) return "climbs out of the repository (`..`)";
  if (parts.some((p) => p === "" || p === ".")) return "has an empty or `.` segment";
  if (parts[0] === ".git") return "names git's own directory";
  return null;
}

/** `rel` (relative to `worktree`) is a link the bootstrap made to the same path in `primary`. */
export function isPrimaryLink(worktree: string, rel: string, primary: string | null): boolean {
  if (primary === null) return false;
  const clean = rel.replace(/\/+$/, "");
  const st = lstatSync(join(worktree, clean), { throwIfNoEntry: false });
  if (!st?.isSymbolicLink()) return false;
  try {
    return readlinkSync(join(worktree, clean)) === join(primary, clean);
  } catch {
    return false;
  }
}
