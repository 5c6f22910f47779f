// `orchard claude-code subagent-stop` (SPEC v3 §3.14): Claude Code's SubagentStop hook. Claude Code
// sends no WorktreeRemove for an Agent-tool subagent's worktree (natively it removes a clean one
// itself when the subagent returns); this hook does the same for the worktree Orchard made for it:
// the subagent `<agent_id>` ran in the worktree named `agent-<agent_id>` (branch
// `worktree-agent-<agent_id>`) of the same session. It is released, and removed only when
// cleanup's proof holds (clean, work preserved, nobody else inside); otherwise it is kept, with its
// work, for the parent session to take. A subagent without worktree isolation has no such worktree:
// nothing is done.
import type { Ctx } from "../shared/context.js";
import { branchForName, type SubagentStopPayload } from "./payload.js";
import { ownerOf } from "./create.js";
import { releaseAndRemove, type WorktreeRemoveResult } from "./remove.js";

export async function subagentStop(ctx: Ctx, payload: SubagentStopPayload): Promise<WorktreeRemoveResult> {
  const branch = branchForName(`agent-${payload.agentId}`);
  const rows = await ctx.registry.worktrees.current(ctx.repo.identity);
  const row = rows.find((r) => r.branch === branch && r.lifecycle !== "removed" && r.owner === ownerOf(payload.sessionId));
  if (!row) return { ok: true, action: "not_managed", path: payload.cwd, handle: null, reasons: [] };
  return releaseAndRemove(ctx, row.path, row.handle, payload.sessionId);
}
