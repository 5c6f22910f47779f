// "This path is still the linked worktree git registered, not the primary" (SPEC §4.10), checked
// at the moment of every git write and deletion in it: a directory swapped for a symlink (into
// the primary, say) after planning must make the step refuse, because `git -C <path>` would
// follow the symlink and act on whatever repository it reaches. Pure file-system reads, no git.
import { lstatSync, realpathSync } from "node:fs";
import { readPlainFile } from "../files.js";
import { dirname, resolve } from "node:path";
import { failure } from "../errors.js";
import { isInside } from "../context.js";

function realOrNull(path: string): string | null {
  try {
    return realpathSync(path);
  } catch {
    return null; // missing or unreadable: compared as "not the same"
  }
}

/** Why `path` is no longer the linked worktree whose admin dir is `admin`; null when it still is. */
export function whyNotLinkedWorktree(path: string, admin: string): string | null {
  const st = lstatSync(path, { throwIfNoEntry: false });
  if (!st) return `${path} does not exist`;
  if (st.isSymbolicLink()) return `${path} is a symbolic link`;
  if (!st.isDirectory()) return `${path} is not a directory`;
  if (realOrNull(path) !== resolve(path)) return `${path} is reached through a symbolic link`;
  const dotGit = resolve(path, ".git");
  const gitFile = lstatSync(dotGit, { throwIfNoEntry: false });
  if (!gitFile?.isFile()) return `${dotGit} is not a linked worktree's .git file (a repository or the primary has a directory there)`;
  const m = /^gitdir: (.+?)\r?\n?$/s.exec(readPlainFile(dotGit)?.toString("utf8") ?? ""); // a path may hold a newline (SPEC §4.2)
  const target = m ? realOrNull(resolve(path, m[1]!)) : null;
  if (target === null || target !== realOrNull(admin)) return `${dotGit} does not point at the worktree's own git dir ${admin}`;
  return null;
}

/** Throws `not_a_linked_worktree` unless `path` is still the linked worktree of `admin`. */
export function requireLinkedWorktree(path: string, admin: string): void {
  const why = whyNotLinkedWorktree(path, admin);
  if (why !== null) throw failure("not_a_linked_worktree", `refusing to act on ${path}: ${why}`);
}

/** Throws `path_escapes_workspace` unless `path` (or, when absent, its parent) resolves inside `root`. */
export function requireInsideWorkspace(root: string, path: string): void {
  const real = realOrNull(path) ?? (realOrNull(dirname(path)) === null ? null : resolve(realOrNull(dirname(path))!, path.slice(dirname(path).length + 1)));
  if (real === null || !isInside(root, real) || real !== resolve(path))
    throw failure("path_escapes_workspace", `refusing to act on ${path}: it resolves outside the managed root ${root}`);
}
