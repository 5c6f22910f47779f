// A new registry row of a managed worktree: what every insert shares (active, no lease, no
// fingerprints, no lineage links, times now); callers name what differs.
import type { NewWorktreeRow, WorktreeRow } from "../../registry/index.js";
import type { Ctx } from "./context.js";
import { writeIdentityFile } from "./repo/admin.js";
import { NO_LEASE } from "../ownership/index.js";

export function newRow(fields: Pick<NewWorktreeRow, "repo" | "handle" | "path" | "branch"> & Partial<NewWorktreeRow>): NewWorktreeRow {
  const now = new Date().toISOString();
  return {
    createdBranch: false,
    baseRef: null,
    baseCommit: null,
    task: null,
    taskRaw: null,
    ...NO_LEASE,
    lastOwner: null,
    lifecycle: "active",
    outcome: null,
    fpBootstrap: null,
    fpContext: null,
    fpRuntime: null,
    recycledFrom: null,
    supersededBy: null,
    createdAt: now,
    releasedAt: null,
    lastActivityAt: now,
    ...fields,
  };
}

/** Writes the row's identity into `orchard.json` in the worktree's admin dir. */
export function writeRowIdentity(admin: string, row: WorktreeRow): void {
  writeIdentityFile(admin, {
    handle: row.handle,
    repo: row.repo,
    branch: row.branch,
    task: row.task,
    owner: row.owner,
    base: { ref: row.baseRef, commit: row.baseCommit },
  });
}

/**
 * The managed row of a worktree that was just removed (if any): lifecycle `removed` and a `removed`
 * event carrying `data`. Runs inside the caller's transaction.
 */
export async function retireRow(ctx: Ctx, path: string, data: Record<string, unknown>): Promise<void> {
  const row = await ctx.registry.worktrees.atPath(ctx.repo.identity, path); // one indexed read, not the fleet's rows
  if (!row) return;
  await ctx.registry.worktrees.update(row.id, { lifecycle: "removed", lastActivityAt: new Date().toISOString() });
  await ctx.registry.events.append({
    kind: "removed",
    repo: row.repo,
    handle: row.handle,
    task: row.task,
    owner: row.owner,
    data: { path, branch: row.branch, ...data },
  });
}
