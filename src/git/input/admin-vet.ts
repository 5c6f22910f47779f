// git reads a few files of every linked worktree's admin dir (`<common>/worktrees/<id>`) whenever
// it lists worktrees or checks where a branch is checked out: `gitdir`, `HEAD`, `locked`,
// `commondir`. An agent can put a FIFO there (or a socket, a device, a link to one): git then
// waits on it for ever, and every command of the repository with it. So they are vetted (lstat:
// a plain file, small) before git is asked, and where one is not, Orchard lists the worktrees
// from the admin files itself (read.ts listWorktreesByHand), names the file, and serves every
// other worktree (SPEC v4 §4.10). The pass over every admin dir, and what it keeps by identity, is
// admin-pass.ts.
import { lstatSync, type Stats } from "node:fs";

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
    const file = `${admin}/${name}`; // admin: a normalised path already (join would normalise it again, per file)
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

export class AdminFileWedgedError extends Error {
  readonly code = "admin_file_special";
  constructor(readonly special: SpecialAdminFile) {
    super(
      `${special.file} is ${special.kind}, not a plain file: git would wait on it in every command that looks at all worktrees; remove it (git keeps only plain files there), then run the command again`,
    );
    this.name = "AdminFileWedgedError";
  }
}
