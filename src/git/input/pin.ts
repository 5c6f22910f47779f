// Every git call Orchard makes in a worktree names that worktree's git dir and work tree itself
// (SPEC v4 §4.1): a `core.worktree` or `core.bare` an agent writes into its `config.worktree` (or
// the repository's config) never moves a status, a clean or a checkout onto another directory.
// `--git-dir`/`--work-tree` on the command line beat GIT_DIR, GIT_WORK_TREE and every config key.
import { lstatSync, statSync } from "node:fs";
import { isAbsolute, join, resolve } from "node:path";
import { readPlainFile } from "./plain-file.js";

/**
 * The options that pin a git call in `dir` to the worktree whose top level `dir` is: its `.git`
 * directory, or the admin dir its `.git` file names (read as a small regular file), and `dir` as
 * the work tree. None where `dir` is no worktree's top level (a bare repository, a subdirectory,
 * a directory git will not recognise): git finds its way there as it always does.
 */
export function pinArgs(dir: string): string[] {
  const dotGit = join(dir, ".git");
  const st = lstatSync(dotGit, { throwIfNoEntry: false });
  if (!st) return [];
  let gitDir: string | null = null;
  if (st.isDirectory() || (st.isSymbolicLink() && isDirectory(dotGit))) gitDir = dotGit;
  else if (st.isFile()) {
    const text = readPlainFile(dotGit, 4096)?.toString("utf8") ?? "";
    const m = /^gitdir: (.+?)\r?\n?$/s.exec(text);
    if (m) gitDir = isAbsolute(m[1]!) ? m[1]! : resolve(dir, m[1]!);
  }
  if (gitDir === null) return [];
  const top = isAbsolute(dir) ? dir : resolve(dir);
  return [`--git-dir=${gitDir}`, `--work-tree=${top}`];
}

/** The argv of a git call in `dir` (`-C dir` when the batch runs elsewhere), pinned to its worktree. */
export function pinnedArgv(args: readonly string[], dir: string, options: { via?: string } = {}): string[] {
  const pin = pinArgs(dir);
  return options.via !== undefined && options.via !== dir ? ["-C", dir, ...pin, ...args] : [...pin, ...args];
}

function isDirectory(path: string): boolean {
  return statSync(path, { throwIfNoEntry: false })?.isDirectory() ?? false;
}
