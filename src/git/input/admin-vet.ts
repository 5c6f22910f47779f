// git reads a few files of every linked worktree's admin dir (`<common>/worktrees/<id>`) whenever
// it lists worktrees or checks where a branch is checked out: `gitdir`, `HEAD`, `locked`,
// `commondir`. An agent can put a FIFO there (or a socket, a device, a link to one): git then
// waits on it for ever, and every command of the repository with it. So they are vetted (lstat:
// a plain file, small) before git is asked, and where one is not, Orchard lists the worktrees
// from the admin files itself (read.ts listWorktreesByHand), names the file, and serves every
// other worktree (SPEC v4 §4.10).
import { lstatSync, readdirSync, type Stats } from "node:fs";
import { join } from "node:path";

/** The admin files git reads for every worktree when it lists them. */
export const LISTED_ADMIN_FILES = ["gitdir", "HEAD", "locked", "commondir"] as const;
const MAX_ADMIN_FILE = 64 * 1024;

export interface SpecialAdminFile {
  admin: string;
  file: string;
  kind: string;
}

export function kindOf(st: Stats): string {
  if (st.isFIFO()) return "a FIFO";
  if (st.isSocket()) return "a socket";
  if (st.isSymbolicLink()) return "a symbolic link";
  if (st.isCharacterDevice() || st.isBlockDevice()) return "a device";
  if (st.isDirectory()) return "a directory";
  return `a file of ${st.size} bytes`;
}

/** The first of `admin`'s listed files that is there and is not a plain small file, or null. */
export function specialListedFile(admin: string): SpecialAdminFile | null {
  for (const name of LISTED_ADMIN_FILES) {
    const file = join(admin, name);
    let st: Stats | undefined;
    try {
      st = lstatSync(file, { throwIfNoEntry: false });
    } catch {
      continue; // unreadable dir: git cannot read it either, and says so
    }
    if (st && !(st.isFile() && st.size <= MAX_ADMIN_FILE)) return { admin, file, kind: kindOf(st) };
  }
  return null;
}

/** The last scan, for the rest of the same synchronous run (a listing checks before it asks git, and git() checks again at once). */
let scanned: { commonDir: string; found: SpecialAdminFile[] } | null = null;

/**
 * Every admin dir of the repository whose listed files git would wait on or misread (a few lstats a
 * worktree). Asked again within the same synchronous run (nothing of this process can have changed a
 * file between), the same scan answers; the next turn of the event loop scans anew.
 */
export function specialAdminFiles(commonDir: string): SpecialAdminFile[] {
  if (scanned?.commonDir === commonDir) return scanned.found;
  const found = scanAdminFiles(commonDir);
  scanned = { commonDir, found };
  queueMicrotask(() => {
    scanned = null;
  });
  return found;
}

function scanAdminFiles(commonDir: string): SpecialAdminFile[] {
  let ids: string[];
  try {
    ids = readdirSync(join(commonDir, "worktrees"));
  } catch {
    return []; // no linked worktrees
  }
  return ids
    .sort()
    .map((id) => specialListedFile(join(commonDir, "worktrees", id)))
    .filter((s): s is SpecialAdminFile => s !== null);
}

/** What every git command that looks at all worktrees reads (get_worktrees: `gitdir`, `HEAD`): `locked` and `commondir` only for its own. */
const READ_FOR_ALL = new Set(["gitdir", "HEAD"]);
/** git commands that read every worktree's admin files (to list them, or to find where a branch is checked out). */
const ALL_WORKTREES_COMMANDS = new Set(["worktree", "branch", "checkout", "switch"]);

export class AdminFileWedgedError extends Error {
  readonly code = "admin_file_special";
  constructor(readonly special: SpecialAdminFile) {
    super(
      `${special.file} is ${special.kind}, not a plain file: git would wait on it in every command that looks at all worktrees; remove it (git keeps only plain files there), then run the command again`,
    );
    this.name = "AdminFileWedgedError";
  }
}

/** Throws before a git command that would read a special admin file of some worktree and wait on it for ever. */
export function refuseWedged(args: readonly string[], commonDir: string | null): void {
  if (commonDir === null || !ALL_WORKTREES_COMMANDS.has(args[0] ?? "")) return;
  const special = specialAdminFiles(commonDir).find((s) => READ_FOR_ALL.has(s.file.slice(s.admin.length + 1)));
  if (special) throw new AdminFileWedgedError(special);
}
