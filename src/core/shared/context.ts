// What every operation needs: the registry, the workspace (home, managed root) and the repo.
import { lstatSync, mkdirSync, realpathSync } from "node:fs";
import { dirname, join, relative, isAbsolute, resolve } from "node:path";
import { homedir } from "node:os";
import type { Registry } from "../../registry/index.js";
import type { RepoContext } from "./repo.js";
import { usageError } from "./errors.js";

export interface Workspace {
  home: string;
  root: string;
}

export interface Ctx {
  registry: Registry;
  workspace: Workspace;
  repo: RepoContext;
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

/** Creates the workspace if needed; paths are realpaths so they compare with what git lists. */
export function openWorkspace(home: string, explicit = true): Workspace {
  requireHomeOutsideRepos(home, explicit);
  const root = join(resolve(home), "worktrees");
  mkdirSync(root, { recursive: true });
  const real = realpathSync(resolve(home));
  return { home: real, root: join(real, "worktrees") };
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
