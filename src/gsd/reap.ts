// The worker's side of GSD's reaper (PR 3707: reapOrphanWorktrees, and pruneOrphanedWorktrees,
// its metadata prune). Orchard's `reap-orphans` judges every locked worktree: GSD's checks (the
// lock's age, a live pid, the branch merged into the default branch) and Orchard's (the lock owner
// parsed from Claude Code's and Orchard's lock texts, a reused pid told by its start time, a
// process inside, uncommitted and unique ignored work, nested worktrees, another workspace's
// worktree). Each entry keeps GSD's `{path, status, reason}` with Orchard's reason code (GSD's
// vocabulary where GSD has the case) and adds the branch, the owner and the evidence. GSD ends its
// sweep with a repository-wide `git worktree prune`; here the entries whose directory is gone are
// pruned one by one by Orchard's cleanup, which keeps locked ones and ones it cannot resolve.
import { runPrune } from "./inventory.js";
import type { OrchardOf, ReapResultEntry } from "./types.js";

export interface ReapRequest {
  /** GSD's deps.reapMtimeGuardMs: locks younger than this are left alone (default 5 minutes). */
  guardMs?: number;
  /** Save dirty work to a salvage ref, then reap (Orchard's --salvage; GSD has no such step). */
  salvage?: boolean;
}

export async function reap(orchard: OrchardOf, repoRoot: string, request: ReapRequest = {}): Promise<ReapResultEntry[]> {
  const lib = await orchard(repoRoot);
  const guard = request.guardMs === undefined ? {} : { guard: `${Math.max(0, Math.round(request.guardMs))}ms` };
  const result = await lib.reapOrphans({ repo: repoRoot, ...guard, ...(request.salvage ? { salvage: true } : {}) });
  const entries: ReapResultEntry[] = result.entries.map((e) => ({
    path: e.path,
    status: e.status === "reaped" ? "reaped" : "skipped",
    reason: e.reason,
    branch: e.branch,
    ...(e.owner ? { owner: e.owner } : {}),
    ...(e.detail ? { detail: e.detail } : {}),
    ...(e.salvageRef ? { salvageRef: e.salvageRef } : {}),
  }));
  // GSD's last step, the metadata prune of entries whose directory is gone
  await runPrune(orchard, { repoRoot, action: "metadata_prune_only", reason: "reap", destructiveModeRequested: false });
  return entries;
}

export async function pruneOrphaned(orchard: OrchardOf, repoRoot: string): Promise<string[]> {
  return (await runPrune(orchard, { repoRoot, action: "metadata_prune_only", reason: "prune", destructiveModeRequested: false })).pruned;
}
