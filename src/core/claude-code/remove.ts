// `orchard claude-code worktree-remove` (SPEC §3.14): Claude Code's WorktreeRemove hook. The
// session is over either way: release the lease (outcome `done`), then remove the worktree only
// when cleanup's own proof holds for it — clean, work preserved, nobody inside — judged from that
// one worktree's facts, read under the repo's lock right before the removal (cleanup/remove-swept.ts:
// one worktree's cost, SPEC v5 §3). Otherwise it is kept and the caller says why; nothing is lost.
// Claude Code and the hook's shell are this call, not someone working inside: any other process
// inside (a dev server the session left running) still keeps the worktree.
import { release } from "../lifecycle/index.js";
import { removeSwept } from "../cleanup/index.js";
import { resolveTarget } from "../shared/repo/target.js";
import { peekListing } from "../shared/repo/repo.js";
import type { Ctx } from "../shared/context.js";
import type { Reason } from "../shared/reasons/reasons.js";
import { treatAsSelf } from "../ownership/index.js";
import { ownerOf } from "./create.js";
import { readHostChain } from "./ancestry.js";
import type { RemovePayload } from "./payload.js";

export interface WorktreeRemoveResult {
  ok: true;
  action: "removed" | "kept" | "not_managed";
  path: string;
  handle: string | null;
  /** Why it was kept: its hygiene disposition (e.g. needs_salvage) and reasons. */
  disposition?: string;
  reasons: Reason[];
}

export async function worktreeRemove(ctx: Ctx, payload: RemovePayload): Promise<WorktreeRemoveResult> {
  const target = await resolveTarget(ctx, payload.worktreePath, peekListing(ctx.repo)); // the listing read while resolving the repo: its row, not a proof
  if (!target.row) return { ok: true, action: "not_managed", path: target.path, handle: null, reasons: [] };
  return releaseAndRemove(ctx, target.path, target.row.handle, payload.sessionId);
}

/** Release the session's lease on a managed worktree (outcome `done`), then remove it only when cleanup's proof holds. */
export async function releaseAndRemove(ctx: Ctx, path: string, handle: string, sessionId: string): Promise<WorktreeRemoveResult> {
  const released = await release(ctx, { target: path, outcome: "done", owner: ownerOf(sessionId) });
  if (!released.ok) return { ok: true, action: "kept", path, handle, reasons: released.reasons };
  // Claude Code (and the shell running this hook) still stand inside the worktree it is leaving.
  treatAsSelf((await readHostChain(process.pid)) ?? []);
  const swept = await removeSwept(ctx, path);
  if (swept.removed) return { ok: true, action: "removed", path, handle, reasons: [] };
  const reasons = swept.reasons.filter((r) => r.code !== "not_included");
  return { ok: true, action: "kept", path, handle, ...(swept.disposition ? { disposition: swept.disposition } : {}), reasons };
}
