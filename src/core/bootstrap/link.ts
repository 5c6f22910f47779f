// Bootstrap step `link` (`bootstrap.link`; Claude Code's `worktree.symlinkDirectories`): each named
// directory of the primary is shared with the worktree through a symbolic link `<worktree>/<dir>`
// → `<primary>/<dir>` (node_modules installed once). The target must be a real directory inside
// the primary (not a link, not outside); a name the primary does not have is skipped and said, as
// Claude Code does; a path the worktree already has (tracked, or made by someone) is never
// replaced: the step fails. A link already there to the same target is kept (a re-run). Nothing
// that removes, cleans, salvages or measures a worktree follows such a link (shared/primary-link.ts).
import { lstatSync, realpathSync, symlinkSync } from "node:fs";
import { join } from "node:path";
import { isInside } from "../shared/context.js";
import { isPrimaryLink, linkNameProblem } from "../shared/primary-link.js";
import { ensureRealParents } from "./copy.js";

export interface LinkResult {
  files: number;
  notCopied: { path: string; why: string }[];
}

export function linkDirectories(primary: string, worktree: string, names: readonly string[]): LinkResult {
  const result: LinkResult = { files: 0, notCopied: [] };
  const realPrimary = realpathSync(primary);
  for (const raw of names) {
    const problem = linkNameProblem(raw);
    if (problem) throw new Error(`link ${JSON.stringify(raw)} ${problem}`);
    const name = raw.replace(/\/+$/, "");
    const source = join(primary, name);
    const st = lstatSync(source, { throwIfNoEntry: false });
    if (!st) {
      result.notCopied.push({ path: name, why: "the primary has no such directory" });
      continue;
    }
    if (st.isSymbolicLink() || !st.isDirectory()) throw new Error(`link ${JSON.stringify(name)}: ${source} is not a real directory of the primary`);
    if (!isInside(realPrimary, realpathSync(source))) throw new Error(`link ${JSON.stringify(name)}: ${source} resolves outside the primary`);
    if (isPrimaryLink(worktree, name, primary)) {
      result.files++;
      continue;
    }
    if (lstatSync(join(worktree, name), { throwIfNoEntry: false }))
      throw new Error(`link ${JSON.stringify(name)}: the worktree already has ${name} (tracked or made there); it is never replaced`);
    if (!ensureRealParents(worktree, name))
      throw new Error(`link ${JSON.stringify(name)}: a parent of it in the worktree is a symbolic link or not a directory`);
    symlinkSync(source, join(worktree, name), "dir");
    result.files++;
  }
  return result;
}
