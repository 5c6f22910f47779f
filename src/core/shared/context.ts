// What every operation needs: the registry, the workspace (home, managed root) and the repo.
import { lstatSync, mkdirSync, realpathSync } from "node:fs";
import { dirname, join, relative, isAbsolute, resolve } from "node:path";
import { homedir } from "node:os";
import type { Registry } from "../../registry/index.js";
import type { RepoContext } from "./repo/repo.js";
import { failure, usageError } from "./errors.js";

export interface Workspace {
  home: string;
  root: string;
}

export interface Ctx {
  registry: Registry;
  workspace: Workspace;
  repo: RepoContext;
  /** Handles whose phantom `creating` rows this command dropped when it opened the repo (admission/settle.ts). */
  settledCreating?: readonly string[];
}

export function defaultHome(): string {
  return process.env.ORCHARD_HOME || join(homedir(), ".orchard");
}

/**
 * Refuses a workspace inside a linked worktree (its clean or removal would delete the registry
 * and every managed worktree) or, when named explicitly (`--home`, ORCHARD_HOME), inside any
 * repository (SPEC §4.15). The default `~/.orchard` may sit in a home-directory dotfiles repo.
 */
export function requireHomeOutsideRepos(home: string, explicit: boolean): void {
  let dir = resolve(home);
  while (lstatSync(dir, { throwIfNoEntry: false }) === undefined && dirname(dir) !== dir) dir = dirname(dir);
  for (dir = realpathSync(dir); ; dir = dirname(dir)) {
    const dotGit = lstatSync(join(dir, ".git"), { throwIfNoEntry: false });
    if (dotGit && (explicit || !dotGit.isDirectory()))
      throw usageError(
        "invalid_argument",
        `the workspace ${home} lies inside the ${dotGit.isDirectory() ? "repository" : "worktree"} ${dir}; choose a --home outside every repository`,
      );
    if (dirname(dir) === dir) return;
  }
}

/** The workspace's trash, `<home>/trash` (core/shared/removal/trash.ts). */
export function trashDir(home: string): string {
  return join(home, "trash");
}

/**
 * Throws `workspace_not_a_directory` (exit 1, naming the path) unless `path`, a directory of the
 * workspace that Orchard deletes in, is a real directory (lstat: a symbolic link there would steer
 * a deletion out of the workspace; SPEC v3 §4.10). With `create`, an absent one is made first.
 */
export function requireWorkspaceDir(path: string, options: { create: boolean }): void {
  let st = lstatSync(path, { throwIfNoEntry: false });
  if (!st && options.create) {
    mkdirSync(path, { recursive: true });
    st = lstatSync(path);
  }
  if (!st || st.isDirectory()) return;
  const what = st.isSymbolicLink() ? "a symbolic link" : "not a directory";
  throw failure(
    "workspace_not_a_directory",
    `${path} is ${what}: inside the workspace, worktrees/ and trash/ must be real directories (Orchard deletes in them and never through a link); nothing was deleted — replace it with a directory (a link for the whole --home is fine)`,
  );
}

/**
 * Creates the workspace if needed; paths are realpaths so they compare with what git lists. The
 * home is resolved once (a home that is a symlink to a bigger disk is the user's choice); inside
 * it, `worktrees/` and `trash/` must be real directories.
 */
export function openWorkspace(home: string, explicit = true): Workspace {
  requireHomeOutsideRepos(home, explicit);
  mkdirSync(resolve(home), { recursive: true });
  const real = realpathSync(resolve(home));
  const root = join(real, "worktrees");
  requireWorkspaceDir(root, { create: true });
  requireWorkspaceDir(trashDir(real), { create: false });
  return { home: real, root };
}

/** True when `path` is strictly inside `dir` (both absolute, realpath form). */
export function isInside(dir: string, path: string): boolean {
  const rel = relative(dir, path);
  return rel !== "" && !rel.startsWith("..") && !isAbsolute(rel);
}

export function managedPath(workspace: Workspace, handle: string): string {
  const path = join(workspace.root, handle);
  if (!isInside(workspace.root, path) || path.slice(workspace.root.length + 1).includes("/"))
    throw usageError("invalid_argument", `the handle ${handle} would leave the workspace`);
  return path;
}
