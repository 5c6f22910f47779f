// `orchard claude-code worktree-remove` (SPEC §3.14): Claude Code's WorktreeRemove hook. The
// session is over either way: release the lease (outcome `done`), then remove the worktree only
// when cleanup's own proof holds for it — clean, work preserved, nobody inside — re-checked at the
// moment of use by the cleanup engine. Otherwise it is kept and the caller says why; nothing is lost.
// Claude Code and the hook's shell are this call, not someone working inside: any other process
// inside (a dev server the session left running) still keeps the worktree.
import { release } from "../lifecycle/index.js";
import { cleanupRun } from "../cleanup/index.js";
import { resolveTarget } from "../shared/target.js";
import type { Ctx } from "../shared/context.js";
import type { Reason } from "../shared/reasons.js";
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
  const target = await resolveTarget(ctx, payload.worktreePath);
  if (!target.row) return { ok: true, action: "not_managed", path: target.path, handle: null, reasons: [] };
  const released = await release(ctx, { target: target.path, outcome: "done", owner: ownerOf(payload.sessionId) });
  if (!released.ok) return { ok: true, action: "kept", path: target.path, handle: target.row.handle, reasons: released.reasons };
  // Claude Code (and the shell running this hook) still stand inside the worktree it is leaving.
  treatAsSelf((await readHostChain(process.pid)) ?? []);
  const run = await cleanupRun(ctx, [ctx], () => Promise.resolve(ctx), { paths: [target.path] });
  const removed = run.items.some((i) => i.path === target.path && i.state === "done" && i.action === "remove");
  if (removed) return { ok: true, action: "removed", path: target.path, handle: target.row.handle, reasons: [] };
  const kept = run.kept.find((k) => k.path === target.path);
  const reasons = [...run.items.filter((i) => i.path === target.path).flatMap((i) => i.reasons), ...(kept?.reasons ?? [])].filter(
    (r) => r.code !== "not_included",
  );
  return { ok: true, action: "kept", path: target.path, handle: target.row.handle, ...(kept ? { disposition: kept.disposition } : {}), reasons };
}
