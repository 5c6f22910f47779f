// Each harness's own way to drop a worktree it tracks: the `next` of harness_tracked and
// harness_unverified (SPEC v5 §1 harness). Orchard never removes such a worktree itself.
import type { HarnessName } from "./types.js";

export const HARNESS_DROP: Record<HarnessName, string> = {
  "claude-code": "end the Claude Code session that works in it (its lock line goes with it)",
  codex: "archive the Codex thread that owns it (Codex removes the worktree and its codex-thread.json)",
  opencode: "remove the workspace in OpenCode (its worktree adapter's remove), which drops OpenCode's database row",
  copilot: "delete the Copilot CLI session that made it, which removes its worktree",
  gemini: "end the Gemini CLI session that works in it and let Gemini remove its worktree",
  cursor: "delete the worktree in Cursor (its agents' worktree list), or let cursor.worktreeMaxCount retire it",
  "vibe-kanban": "delete the task attempt in vibe-kanban, which removes its worktree",
  conductor: "archive the workspace in Conductor",
  sculptor: "delete the workspace in Sculptor",
  workmux: "workmux remove <name> in the primary",
  ccmanager: "delete the worktree from ccmanager's menu",
  crystal: "archive the session in Crystal",
  uzi: "uzi kill <agent>",
};
