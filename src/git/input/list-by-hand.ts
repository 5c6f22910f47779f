// The worktree listing read from the admin files themselves, for a repository where one of them is
// not a plain file (admin-vet.ts): `git worktree list` would wait on it for ever. Each linked
// worktree's entry is what git would print — its path from `gitdir` (the trailing "/.git" dropped),
// its HEAD from the admin dir's `HEAD` (a branch resolved through one for-each-ref), `locked` and
// its reason from `locked`, `prunable` when `gitdir` names nothing — except that a file that is
// not plain reads as unknown: HEAD null, a lock with an empty reason (an owner nobody can read).
// A worktree whose very `gitdir` cannot be read has no path to list it under: it is left out, as
// git leaves out an admin dir it cannot place.
import { existsSync, readdirSync } from "node:fs";
import { dirname, isAbsolute, join, resolve } from "node:path";
import { git } from "../run.js";
import { readPlainFile } from "./plain-file.js";
import { decodeGitBytes } from "../bytes.js";
import type { WorktreeEntry } from "../parse/worktrees.js";

const gitTrim = (text: string): string => text.replace(/^[ \t\n\r]+|[ \t\n\r]+$/g, "");
const text = (path: string): string | null => {
  const bytes = readPlainFile(path);
  return bytes === null ? null : decodeGitBytes(bytes);
};

function headOf(admin: string, refs: ReadonlyMap<string, string>): Pick<WorktreeEntry, "head" | "branch" | "detached"> {
  const head = text(join(admin, "HEAD"))?.trim() ?? null;
  if (head === null) return { head: null, branch: null, detached: false };
  if (head.startsWith("ref: ")) {
    const ref = head.slice(5).trim();
    return { head: refs.get(ref) ?? null, branch: ref, detached: false };
  }
  return /^[0-9a-f]{40}(?:[0-9a-f]{24})?$/.test(head) ? { head, branch: null, detached: true } : { head: null, branch: null, detached: false };
}

export async function listWorktreesByHand(cwd: string, commonDir: string): Promise<WorktreeEntry[]> {
  const r = await git(["for-each-ref", "--format=%(refname)%00%(objectname)", "refs/heads"], { cwd });
  const refs = new Map(
    r.stdout
      .split("\n")
      .filter(Boolean)
      .map((line) => line.split("\0") as [string, string]),
  );
  const bare = !commonDir.endsWith("/.git");
  const main: WorktreeEntry = {
    path: bare ? commonDir : dirname(commonDir),
    ...(bare ? { head: null, branch: null, detached: false } : headOf(commonDir, refs)),
    bare,
    locked: false,
    lockReason: null,
    prunable: null,
  };
  let ids: string[] = [];
  try {
    ids = readdirSync(join(commonDir, "worktrees")).sort();
  } catch {
    return [main];
  }
  const linked: WorktreeEntry[] = [];
  for (const id of ids) {
    const admin = join(commonDir, "worktrees", id);
    const record = text(join(admin, "gitdir"));
    if (record === null) continue;
    const dotGit = gitTrim(record);
    const at = isAbsolute(dotGit) ? dotGit : resolve(admin, dotGit);
    const path = at.replace(/\/\.git$/, "");
    const lockPresent = existsSync(join(admin, "locked")) || readdirSync(admin).includes("locked");
    const lock = lockPresent ? text(join(admin, "locked")) : null;
    linked.push({
      path,
      ...headOf(admin, refs),
      bare: false,
      locked: lockPresent,
      lockReason: lockPresent ? gitTrim(lock ?? "") : null,
      prunable: existsSync(at) ? null : "gitdir file points to non-existent location",
    });
  }
  return [main, ...linked];
}
