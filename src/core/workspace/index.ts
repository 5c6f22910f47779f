// The workspace (SPEC §1, v4 §4.11): its home and id, and who a worktree's identity says it belongs to.
export {
  defaultHome,
  requireHomeOutsideRepos,
  trashDir,
  requireWorkspaceDir,
  openWorkspace,
  isInside,
  managedPath,
  markMoved,
  requireNotMoved,
  type Workspace,
} from "./workspace.js";
export { workspaceId } from "./id.js";
export { identityOf, isRecovered, ownershipOf, recoveredRowOf, recoverRows, restoreRow, type Ownership } from "./recovered.js";
export { newRow } from "./rows.js";
