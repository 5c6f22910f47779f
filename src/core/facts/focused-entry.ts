// One linked worktree's entry of `git worktree list --porcelain -z` without listing them all. An
// exact add (SPEC §3.1 step 2) needs git's entry for its own worktree only; the listing of every
// worktree is the longest git of a warm add in a fleet (its time grows with the fleet). git lists a
// linked worktree from the files of its admin dir `<common>/worktrees/<id>`: the path is what `gitdir`
// records (its trailing "/.git" dropped), `locked <reason>` is the `locked` file (its text trimmed),
// `prunable` is said only when `gitdir` names no existing file; and HEAD is the worktree's own HEAD,
// which git's status in that worktree resolves (`# branch.oid`, `# branch.head`, checked against the
// HEAD file of the admin dir). The entry is made
// from exactly those, and only where each reads unambiguously; anywhere else (a relative or
// unexpected `gitdir`, a `.git` file that names another admin dir, an unborn branch, a HEAD outside
// refs/heads, an unreadable lock) there is no entry and the caller lists the worktrees as before.
import { lstatSync } from "node:fs";
import { join, resolve } from "node:path";
import { decodeGitBytes } from "../../git/bytes.js";
import type { WorktreeEntry } from "../../git/parse/worktrees.js";
import type { StatusSummary } from "../../git/parse/status.js";
import { findAdminDir } from "../shared/repo/admin.js";
import { readPlainFile } from "../shared/files.js";

/** git's own isspace (sane_ctype: space, tab, LF, CR; not VT or FF), as strbuf_trim uses it. */
const gitTrim = (text: string): string => text.replace(/^[ \t\n\r]+|[ \t\n\r]+$/g, "");

const readText = (path: string): string | null => readPlainFile(path)?.toString("utf8") ?? null;

/** Whether something is at `path` (when that cannot be told: yes, and reading it will say no). */
function present(path: string): boolean {
  try {
    return lstatSync(path, { throwIfNoEntry: false }) !== undefined;
  } catch {
    return true;
  }
}

/**
 * The admin dir through which git lists the worktree at `path` there, and through which git's
 * commands run in `path` reach the repository: its `gitdir` records `<path>/.git` (as git writes
 * it: absolute, one line) and `<path>/.git` is a file that names that same admin dir back. Null
 * when either does not hold (the caller lists the worktrees).
 */
export function registeredAdmin(commonDir: string, path: string): string | null {
  const admin = findAdminDir(commonDir, path);
  if (admin === undefined) return null;
  const gitdir = readText(join(admin, "gitdir"));
  if (gitdir !== `${path}/.git\n` && gitdir !== `${path}/.git`) return null;
  const dotGit = readText(join(path, ".git"));
  const named = dotGit === null ? null : /^gitdir: (.+?)\r?\n?$/.exec(dotGit)?.[1];
  return named !== undefined && named !== null && resolve(path, named) === admin ? admin : null;
}

/**
 * git's listing entry for the worktree at `path` (registered through `admin`: registeredAdmin),
 * from its admin files now and `status`, git's status in it (read with `--branch`). Null where the
 * entry cannot be told without the listing.
 */
export function focusedEntry(path: string, admin: string, status: StatusSummary): WorktreeEntry | null {
  if (status.oid === null) return null; // an unborn branch: git lists HEAD as zeros
  // the status's branch is what the worktree's own HEAD file says (git prints "(null)" for a HEAD
  // outside refs/heads): a symref to that branch, or, detached, the very commit
  const head = readText(join(admin, "HEAD"));
  const said = status.branchHead === null ? `${status.oid}\n` : `ref: refs/heads/${status.branchHead}\n`;
  if (head !== said) return null;
  const lockPath = join(admin, "locked");
  let lockReason: string | null = null;
  if (present(lockPath)) {
    const bytes = readPlainFile(lockPath); // anything but a plain file: git might fail to read it
    if (bytes === null) return null;
    lockReason = gitTrim(decodeGitBytes(bytes));
  }
  return {
    path,
    head: status.oid,
    branch: status.branchHead === null ? null : `refs/heads/${status.branchHead}`,
    detached: status.branchHead === null,
    bare: false,
    locked: lockReason !== null,
    lockReason,
    prunable: null, // gitdir names `<path>/.git`, which registeredAdmin just read
  };
}
