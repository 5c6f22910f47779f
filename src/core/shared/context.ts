// What every operation needs: the registry, the workspace (home, managed root, id) and the repo.
import type { Registry } from "../../registry/index.js";
import type { RepoContext } from "./repo/repo.js";
import type { Workspace } from "../workspace/index.js";

export type { Workspace } from "../workspace/index.js";
export { defaultHome, requireHomeOutsideRepos, trashDir, requireWorkspaceDir, openWorkspace, isInside, managedPath } from "../workspace/index.js";

export interface Ctx {
  registry: Registry;
  workspace: Workspace;
  repo: RepoContext;
  /** Handles whose phantom `creating` rows this command dropped when it opened the repo (admission/settle.ts). */
  settledCreating?: readonly string[];
  /** Stops the repository's shell commands (`bootstrap.run`, their process group) when aborted: a Claude Code hook whose Claude died. */
  signal?: AbortSignal;
}
