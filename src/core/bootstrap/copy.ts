// Bootstrap step `copy`: untracked files of the primary (`.env` style) that match
// `bootstrap.copy` or `.worktreeinclude` (gitignore syntax, so `.env` matches at any depth) are
// copied into a worktree at the same relative path. Invariants: a symlink is followed only to a
// regular file inside the primary; nothing is written through a symlink or over a tracked file;
// every write stays inside the worktree; without `overwrite` (a re-run after a crash) a file that
// differs from the primary's is kept.
import { constants, copyFileSync, lstatSync, mkdirSync, realpathSync, statSync, type Stats } from "node:fs";
import { dirname, join } from "node:path";
import { readObjectIds, readUntrackedMatching } from "../../git/read.js";
import { isInside } from "../shared/context.js";
import type { RepoContext } from "../shared/repo/repo.js";
import { readPlainFile } from "../shared/files.js";

export interface CopyResult {
  files: number;
  notCopied: { path: string; why: string }[];
}

function lstatOrNull(path: string): Stats | null {
  try {
    return lstatSync(path);
  } catch {
    return null; // absent
  }
}

/** Creates the parent directories of `relative` inside `root`; false when one is a symlink or not a directory. */
export function ensureRealParents(root: string, relative: string): boolean {
  const parts = dirname(relative)
    .split(/[\\/]/)
    .filter((p) => p && p !== ".");
  let dir = root;
  for (const part of parts) {
    dir = join(dir, part);
    const stat = lstatOrNull(dir);
    if (stat === null) mkdirSync(dir);
    else if (stat.isSymbolicLink() || !stat.isDirectory()) return false;
  }
  return true;
}

/** The file to read for a matched path, or why it is not copied. */
function sourceOf(primaryReal: string, path: string): { from: string } | { why: string } {
  const stat = lstatOrNull(path);
  if (stat === null) return { why: "vanished" };
  if (!stat.isSymbolicLink()) return stat.isFile() ? { from: path } : { why: "not a regular file" };
  let real: string;
  try {
    real = realpathSync(path);
  } catch {
    return { why: "dangling symlink" };
  }
  if (!isInside(primaryReal, real)) return { why: "symlink out of the repository" };
  return statSync(real).isFile() ? { from: real } : { why: "symlink to a directory" };
}

/** Why nothing may be written at `rel` in the worktree, or null (parent directories are created). */
function destinationProblem(worktree: string, rel: string, tracked: ReadonlySet<string>): string | null {
  if (rel.split(/[\\/]/).includes(".git") || !isInside(worktree, join(worktree, rel))) return "outside the worktree's files";
  if (tracked.has(rel)) return "tracked in the worktree";
  if (!ensureRealParents(worktree, rel)) return "a parent directory in the worktree is a symlink or a file";
  if (lstatOrNull(join(worktree, rel))?.isSymbolicLink()) return "the worktree has a symlink there";
  return null;
}

/** A file already at the destination that differs from the source (what a re-run must not overwrite). */
function differs(from: string, to: string): boolean {
  const st = lstatOrNull(to);
  if (st === null) return false;
  if (!st.isFile() || st.size !== statSync(from).size) return true;
  const [a, b] = [readPlainFile(from, st.size), readPlainFile(to, { max: st.size, follow: false })]; // never a FIFO swapped in
  return a === null || b === null || !a.equals(b);
}

export async function copyIncluded(repo: RepoContext, worktree: string, options: { overwrite: boolean } = { overwrite: true }): Promise<CopyResult> {
  const result: CopyResult = { files: 0, notCopied: [] };
  if (repo.bare || repo.config.copy.length === 0) return result;
  const matched = await readUntrackedMatching(repo.primary, repo.config.copy);
  const primaryReal = realpathSync(repo.primary);
  const existing = matched.filter((rel) => lstatOrNull(join(worktree, rel)) !== null);
  const ids = await readObjectIds(
    worktree,
    existing.map((rel) => `:${rel}`),
  );
  const tracked = new Set(existing.filter((_, i) => ids[i] !== null));
  for (const rel of matched) {
    const source = sourceOf(primaryReal, join(repo.primary, rel));
    if ("why" in source) {
      result.notCopied.push({ path: rel, why: source.why });
      continue;
    }
    const why =
      destinationProblem(worktree, rel, tracked) ?? (!options.overwrite && differs(source.from, join(worktree, rel)) ? "differs in the worktree" : null);
    if (why !== null) {
      result.notCopied.push({ path: rel, why });
      continue;
    }
    copyFileSync(source.from, join(worktree, rel), constants.COPYFILE_FICLONE);
    result.files++;
  }
  return result;
}
