// One pass over a repository's admin dirs (`<common>/worktrees/<id>`) per command: the vetting of
// the files git reads there (admin-vet.ts: `gitdir`, `HEAD`, `locked`, `commondir`, each absent or
// a plain small file) and, in the same loop, the files the caller reads from them (read now,
// through readPlainFile: never a FIFO, never more than 64 KiB).
//
// The vetting is kept by identity (issue 48 item 3): each admin dir found plain is remembered with
// its device, inode, size, mtime and ctime in nanoseconds (warm/guard-cache.ts stamp; taken before
// its files were looked at), in this process and in the workspace (`<home>/cache/proofs-admin.json`,
// warm/proof-cache.ts). A file planted, removed, renamed or replaced in an admin dir (a FIFO where
// `locked` was, a link, a HEAD written by git through a lock file and a rename) changes that dir's
// mtime and ctime, and no process can set a ctime back: an admin dir whose identity is the one kept
// costs one stat, any other is vetted again (4 lstats) before it is trusted. A dir changed within
// RACY_MS of the pass is not kept (a second change in the same clock tick would keep its times).
// What the cache cannot see: a listed file grown in place past 64 KiB with the dir untouched (its
// type cannot change in place; a size is what git would misread, never wait on) — every read of
// such a file by Orchard is refused at the read (readPlainFile). Nothing read from a file is kept:
// the cache says only "these files were plain", and the caller reads what it needs now.
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { readPlainFile } from "./plain-file.js";
import { AdminFileWedgedError, specialListedFile, type SpecialAdminFile } from "./admin-vet.js";
import { RACY_MS, stamp } from "../warm/guard-cache.js";
import { keepStamps, keepsProofs, keptStamps } from "../warm/proof-cache.js";

/** The admin files a pass can read for its caller. */
export type AdminFileName = "gitdir" | "HEAD" | "locked";

export interface AdminDir {
  /** `<common>/worktrees/<id>`. */
  admin: string;
  id: string;
  /** The first listed file that is not plain, or null. */
  special: SpecialAdminFile | null;
  /** Each file asked for, read now (null: absent, unreadable, or not a plain file of at most 64 KiB). */
  files: Partial<Record<AdminFileName, Buffer | null>>;
}

export interface AdminPass {
  commonDir: string;
  /** Every admin dir, by id. */
  dirs: AdminDir[];
  /** The listed files of any admin dir that git would wait on or misread (admin-vet.ts). */
  special: SpecialAdminFile[];
}

const KIND = "admin";
/** Each common dir's admin dirs found plain (stamp texts), in this process: where no workspace keeps them. */
const plainHere = new Map<string, Set<string>>();
/** The common dirs this process has passed over: where nothing is kept on disk, the first pass stamps nothing (one call of a process would pay a stat per dir for nothing). */
const passed = new Set<string>();

/**
 * The pass over `commonDir`'s admin dirs: every one vetted (again only where its identity changed
 * since it was found plain), and `read` read from each.
 */
const UNSTAMPED = { text: "", changedMs: 0 };

export function adminPass(commonDir: string, read: readonly AdminFileName[] = []): AdminPass {
  const root = join(commonDir, "worktrees");
  let ids: string[];
  try {
    ids = readdirSync(root);
  } catch {
    return { commonDir, dirs: [], special: [] }; // no linked worktrees
  }
  ids.sort();
  const readAt = Date.now();
  const kept = keptStamps(KIND, commonDir) ?? plainHere.get(commonDir) ?? new Set<string>();
  const stamping = keepsProofs() || passed.has(commonDir);
  passed.add(commonDir);
  const plain: string[] = [];
  let added = false;
  const dirs: AdminDir[] = [];
  const special: SpecialAdminFile[] = [];
  for (const id of ids) {
    const admin = `${root}/${id}`;
    const identity = stamping ? stamp(admin) : UNSTAMPED; // before its files are looked at: a change after it moves it
    let found: SpecialAdminFile | null = null;
    if (stamping && kept.has(identity.text)) plain.push(identity.text);
    else {
      found = specialListedFile(admin);
      if (found) special.push(found);
      else if (identity.changedMs !== 0 && identity.changedMs < readAt - RACY_MS) {
        plain.push(identity.text);
        added = true;
      }
    }
    const files: AdminDir["files"] = {};
    for (const name of read) files[name] = readPlainFile(`${admin}/${name}`);
    dirs.push({ admin, id, special: found, files });
  }
  // written only when what is kept changes (a dir found plain anew, or one gone or changed since)
  if (stamping && (added || plain.length !== kept.size)) {
    plainHere.set(commonDir, new Set(plain));
    keepStamps(KIND, commonDir, plain);
  }
  return { commonDir, dirs, special };
}

/** The last pass's findings, for the rest of the same synchronous run (a listing checks before it asks git, and git() checks again at once). */
let scanned: { commonDir: string; found: SpecialAdminFile[] } | null = null;

/**
 * Every admin dir of the repository whose listed files git would wait on or misread. Asked again
 * within the same synchronous run (nothing of this process can have changed a file between), the
 * same pass answers; the next turn of the event loop passes anew (a stat per unchanged admin dir).
 */
export function specialAdminFiles(commonDir: string): SpecialAdminFile[] {
  if (scanned?.commonDir === commonDir) return scanned.found;
  const found = adminPass(commonDir).special;
  scanned = { commonDir, found };
  queueMicrotask(() => {
    scanned = null;
  });
  return found;
}

/** What every git command that looks at all worktrees reads (get_worktrees: `gitdir`, `HEAD`): `locked` and `commondir` only for its own. */
const READ_FOR_ALL = new Set(["gitdir", "HEAD"]);
/** git commands that read every worktree's admin files (to list them, or to find where a branch is checked out). */
const ALL_WORKTREES_COMMANDS = new Set(["worktree", "branch", "checkout", "switch"]);

/** Throws before a git command that would read a special admin file of some worktree and wait on it for ever. */
export function refuseWedged(args: readonly string[], commonDir: string | null): void {
  if (commonDir === null || !ALL_WORKTREES_COMMANDS.has(args[0] ?? "")) return;
  const special = specialAdminFiles(commonDir).find((s) => READ_FOR_ALL.has(s.file.slice(s.admin.length + 1)));
  if (special) throw new AdminFileWedgedError(special);
}

/** Forgets what this process found plain (tests: a pass that must vet every admin dir). */
export function forgetAdminPasses(): void {
  plainHere.clear();
  passed.clear();
}
