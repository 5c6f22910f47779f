// `adopt` of a worktree already managed, asked with an owner or a pid: a harness's session start
// adopts the same worktree each time its thread or session starts again (SPEC v5 §3.15), after the
// last session end released it. The lease goes to the requester unless another owner holds the
// worktree live (a live lease of another owner, a live lock pid, someone else working inside: the
// exact-handle verdict's own rule); the requester's own processes inside are its own. The lock is
// rewritten only when it is Orchard's, or there is none: a harness's lock line stays.
import type { WorktreeEntry } from "../../git/parse/worktrees.js";
import type { WorktreeRow } from "../../registry/index.js";
import { readOneFacts } from "../facts/index.js";
import { leaseLockText, newLease, parseLockOwner, readAncestors, writeLock } from "../ownership/index.js";
import { findAdminDir } from "../shared/repo/admin.js";
import { writeRowIdentity } from "../shared/rows.js";
import type { Reason } from "../shared/reasons/reasons.js";
import type { Ctx } from "../shared/context.js";
import { assessExact } from "./verdict.js";

export async function readopt(
  ctx: Ctx,
  o: { entry: WorktreeEntry; row: WorktreeRow; listing: WorktreeEntry[]; requester: { owner: string | null; pid: number | null; ttlMs: number } },
): Promise<{ row: WorktreeRow } | { reasons: Reason[] }> {
  const { facts } = await readOneFacts(ctx.repo, ctx.registry, { entry: o.entry, row: o.row, listing: o.listing }, null, { merged: false });
  const inside = facts.liveness.signals.some((s) => s.code === "process_in_worktree");
  const request = { branch: facts.branch, task: null, baseRef: null, owner: o.requester.owner, resume: true, ancestors: inside ? await readAncestors() : [] };
  const held = assessExact(facts, request, { strict: false }).reasons.filter((r) => r.code === "live_owner" || r.code === "liveness_unknown");
  if (held.length > 0) return { reasons: held };
  const lease = await newLease(o.requester);
  const now = new Date().toISOString();
  const row = await ctx.registry.write(async () => {
    const updated = await ctx.registry.worktrees.update(o.row.id, { ...lease, lifecycle: "active", outcome: null, releasedAt: null, lastActivityAt: now });
    await ctx.registry.events.append({
      kind: "adopted",
      repo: o.row.repo,
      handle: o.row.handle,
      task: o.row.task,
      owner: lease.owner,
      data: { path: o.row.path, previousOwner: o.row.owner, inPlace: true },
    });
    return updated;
  });
  const admin = findAdminDir(ctx.repo.commonDir, row.path);
  const ours = !o.entry.locked || parseLockOwner(o.entry.lockReason).kind === "orchard";
  if (admin && ours) writeLock(admin, leaseLockText(row.handle, lease, ctx.workspace.id));
  if (admin) writeRowIdentity(admin, row, ctx.workspace.id);
  return { row };
}
