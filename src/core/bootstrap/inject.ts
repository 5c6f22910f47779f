// Bootstrap step `context`: render `context.files` templates into a worktree so that they do not
// show as changes there and affect no other worktree.
//
// Git reads `info/exclude` only from the common dir, so an entry there would hide the files in
// every worktree. Orchard instead gives the worktree its own `core.excludesFile` (in its private
// git dir) through per-worktree config. Side effects, chosen deliberately:
// - `extensions.worktreeConfig=true` is set in the shared config the first time a repo uses
//   context files (never otherwise). `core.bare=true` moves to the main worktree's
//   `config.worktree` first, as git's documentation requires; a shared `core.worktree` makes the
//   step fail instead of being touched. Git honours this extension in format version 0.
// - A per-worktree `core.excludesFile` replaces the user's global one in that worktree, so the
//   file orchard writes starts with a copy of the user's excludes (as they were at bootstrap).
// Everything lives in the worktree's private git dir, which `git worktree remove` deletes.
import { existsSync } from "node:fs";
import { join } from "node:path";
import { homedir } from "node:os";
import { readConfigInFile, readConfigPath, readObjectIds } from "../../git/read.js";
import { setConfigInFile, setWorktreeConfig } from "../../git/write.js";
import type { WorktreeRow } from "../../registry/index.js";
import type { RepoContext } from "../shared/repo/repo.js";
import { failure } from "../shared/errors.js";
import { withMutationLock } from "../ownership/index.js";
import { contextFingerprint } from "./fingerprints.js";
import { readTemplate, renderContext } from "./fingerprint-read.js";
import { ensureRealParents } from "./copy.js";
import { readPlainText, writeFileAtomic } from "../shared/files.js";

export const EXCLUDES_FILE = "orchard-excludes";

/** Turns on per-worktree config for the repo (idempotent). Callers hold the mutation lock. */
export async function enableWorktreeConfig(repo: RepoContext): Promise<void> {
  const shared = join(repo.commonDir, "config");
  if ((await readConfigInFile(repo.primary, shared, "extensions.worktreeConfig", "bool")) === "true") return;
  if ((await readConfigInFile(repo.primary, shared, "core.worktree")) !== null)
    throw failure("worktree_config_unsafe", `${shared} sets core.worktree; orchard will not enable extensions.worktreeConfig there (context files need it)`);
  if ((await readConfigInFile(repo.primary, shared, "core.bare", "bool")) === "true") {
    await setConfigInFile(repo.primary, join(repo.commonDir, "config.worktree"), "core.bare", "true");
    await setConfigInFile(repo.primary, shared, "core.bare", null);
  }
  await setConfigInFile(repo.primary, shared, "extensions.worktreeConfig", "true");
}

/** The user's own excludes (core.excludesFile as the primary sees it, else git's XDG default). */
async function readUserExcludes(repo: RepoContext, ours: string): Promise<string> {
  const configured = await readConfigPath(repo.bare ? repo.commonDir : repo.primary, "core.excludesFile");
  const xdg = process.env.XDG_CONFIG_HOME || join(process.env.HOME || homedir(), ".config");
  const path = configured ?? join(xdg, "git", "ignore");
  if (path === ours || !existsSync(path)) return "";
  return readPlainText(path, 1024 * 1024) ?? ""; // unreadable, or not a plain file: the worktree simply does not get them
}

/** A gitignore line matching exactly `target` from the worktree's root. */
export function literalPattern(target: string): string {
  return "/" + target.replace(/[\\*?[\]!# ]/g, (c) => `\\${c}`);
}

export async function writeWorktreeExcludes(repo: RepoContext, worktree: string, admin: string, targets: readonly string[]): Promise<void> {
  const path = join(admin, EXCLUDES_FILE);
  const user = await readUserExcludes(repo, path);
  const text = `${user}${user && !user.endsWith("\n") ? "\n" : ""}# orchard: context files of this worktree\n${targets.map(literalPattern).join("\n")}\n`;
  writeFileAtomic(path, text);
  await withMutationLock(repo.commonDir, () => enableWorktreeConfig(repo)); // shared config: under the lock
  await setWorktreeConfig(worktree, "core.excludesFile", path);
}

/** Renders and writes the context files; returns how many and the context fingerprint. */
export async function injectContext(repo: RepoContext, row: WorktreeRow, admin: string): Promise<{ files: number; fingerprint: string }> {
  const entries = Object.entries(repo.config.config.context?.files ?? {});
  const rendered = renderContext(
    entries.map(([target, template]) => [target, readTemplate(repo, template)]),
    row,
  );
  if (rendered === null)
    throw failure("context_template_missing", `a context template (${entries.map(([, t]) => t).join(", ")}) cannot be read inside the repository`);
  if (rendered.length === 0) return { files: 0, fingerprint: contextFingerprint([]) };
  const ids = await readObjectIds(
    row.path,
    rendered.map(([target]) => `:${target}`),
  );
  const tracked = rendered.find((_, i) => ids[i] !== null);
  if (tracked) throw failure("context_file_tracked", `the context file ${tracked[0]} is tracked in the repository; orchard never overwrites tracked files`);
  await writeWorktreeExcludes(
    repo,
    row.path,
    admin,
    rendered.map(([target]) => target),
  );
  for (const [target, content] of rendered) {
    if (target.split(/[\\/]/).includes(".git") || !ensureRealParents(row.path, target))
      throw failure("context_path_unsafe", `the context file ${target} would be written through a symlink or into git's files`);
    const dest = join(row.path, target);
    writeFileAtomic(dest, content); // never through a symlink, at the target or at its temporary name
  }
  return { files: rendered.length, fingerprint: contextFingerprint(rendered) };
}
