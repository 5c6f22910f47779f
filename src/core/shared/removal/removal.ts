// Removing a linked worktree, faster than `git worktree remove` and as safe. The caller has proven
// the removal (clean or salvaged, no unique ignored files, no nested worktree, nobody alive inside,
// work preserved) and holds the repo's mutation lock; this module re-checks, at the moment of use,
// that the path is still that worktree (a real directory, no symbolic link on the way, its `.git`
// file leading to its admin dir, whose `gitdir` names it back; inside the managed root when it is
// managed: SPEC §4.10), then:
//   1. writes a journal into a new trash entry of the workspace (`trash.ts`);
//   2. renames the directory into the entry — one atomic step: the path is gone, nothing was
//      followed (rename moves a symbolic link inside as a link);
//   3. drops git's entry as `git worktree remove` does (the admin dir, then an empty `worktrees/`);
//   4. queues the entry for the detached purger (Orchard flushes after each command).
// A crash after 2 leaves a journal that the next command's finishTrash completes. When the rename
// fails (EXDEV: the worktree is on another file system than the workspace; EBUSY: a mount point),
// git removes it in place, as before (`worktree remove --force --force`, one step even when locked).
import { lstatSync, renameSync } from "node:fs";
import { join, resolve } from "node:path";
import { removeWorktree } from "../../../git/write.js";
import { deleteAdminDir, readAdminWorktreePath } from "../repo/admin.js";
import { failure } from "../errors.js";
import { faultPoint } from "../fault.js";
import { requireInsideWorkspace, requireLinkedWorktree } from "../repo/linked.js";
import { discardTrashEntry, queuePurge, reserveTrashEntry } from "./trash.js";
import { isInside, requireWorkspaceDir, trashDir, type Ctx } from "../context.js";

export interface RemovalTarget {
  /** The worktree's path as git records it. */
  path: string;
  /** Its admin dir, `<common>/worktrees/<id>`. */
  admin: string;
  /** Only git's entry of a directory proven gone (a prune): a directory found there is refused, never removed. */
  entryOnly?: boolean;
}

/** `trashed`: renamed away, purged in the background; `in_place`: git deleted it; `entry_only`: the directory was already gone. */
export type RemovalHow = "trashed" | "in_place" | "entry_only";

function requireAdminNames(admin: string, path: string): void {
  const recorded = readAdminWorktreePath(admin);
  if (recorded === null || resolve(recorded) !== resolve(path))
    throw failure("not_a_linked_worktree", `refusing to act on ${path}: git's record ${admin} no longer names it`);
}

/** Removes the worktree and git's entry for it; throws (changing nothing) when the path is no longer that worktree. */
export async function removeLinkedWorktree(ctx: Ctx, target: RemovalTarget): Promise<RemovalHow> {
  const { path, admin } = target;
  const { commonDir, primary } = ctx.repo;
  requireAdminNames(admin, path);
  if (!lstatSync(path, { throwIfNoEntry: false })) {
    deleteAdminDir(commonDir, admin);
    return "entry_only";
  }
  if (target.entryOnly) throw failure("precondition_changed", `refusing to prune ${path}: the directory is there again`);
  // a path under the managed root must resolve inside it; foreign and adopted ones are wherever git put them
  if (isInside(ctx.workspace.root, resolve(path))) requireInsideWorkspace(ctx.workspace.root, path);
  requireLinkedWorktree(path, admin);
  requireWorkspaceDir(trashDir(ctx.workspace.home), { create: true }); // a linked trash is an error, never a reason to delete in place
  let entry: string | null = null;
  try {
    entry = reserveTrashEntry(ctx.workspace.home, { path, admin, commonDir });
    renameSync(path, join(entry, "tree"));
  } catch {
    // another file system (EXDEV), a mount point, a busy directory, a trash we cannot write: in place
    if (entry !== null) discardTrashEntry(entry);
    await removeWorktree(primary, path);
    return "in_place";
  }
  faultPoint("remove.renamed");
  deleteAdminDir(commonDir, admin);
  queuePurge(ctx.workspace.home, entry);
  return "trashed";
}
