// A managed worktree's row on disk (its identity file) and at its end (retired).
import type { WorktreeRow } from "../../registry/index.js";
import type { Ctx } from "./context.js";
import { writeIdentityFile } from "./repo/admin.js";

/**
 * Writes the row's identity into `orchard.json` in the worktree's admin dir: who it is, the
 * workspace it belongs to, and what a recovery without the registry restores (its lifecycle,
 * outcome, last owner and lease; SPEC v4 §4.11) and its fingerprints (v5: which kept copy it uses).
 * Written again whenever any of these changes.
 */
export function writeRowIdentity(admin: string, row: WorktreeRow, workspace: string): void {
  writeIdentityFile(admin, {
    handle: row.handle,
    repo: row.repo,
    branch: row.branch,
    task: row.task,
    owner: row.owner,
    base: { ref: row.baseRef, commit: row.baseCommit },
    workspace,
    lifecycle: row.lifecycle === "terminal" ? "terminal" : "active",
    outcome: row.outcome,
    lastOwner: row.lastOwner,
    lease:
      row.owner === null && row.pid === null
        ? null
        : { owner: row.owner, pid: row.pid, pidStart: row.pidStart, host: row.host, heartbeatAt: row.heartbeatAt, ttlMs: row.ttlMs },
    fingerprints: { bootstrap: row.fpBootstrap, context: row.fpContext, runtime: row.fpRuntime },
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
