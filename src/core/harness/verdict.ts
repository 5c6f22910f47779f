// The harness verdict (pure, SPEC v5 §1 harness): a worktree its harness still tracks is
// `harness_tracked`, one whose tracking cannot be read `harness_unverified`. Either keeps it from
// every removal (hygiene never calls it reclaimable or reapable; cleanup, reap-orphans, remove and
// recycle skip it); the reason names the harness's own way to drop it. Once the harness's record is
// gone (tracked: false) the worktree is judged like any foreign one. A harness's server that does
// not stand inside the worktree is no evidence of anything: liveness stays what Orchard read.
import { reason, type Reason } from "../shared/reasons/reasons.js";
import type { HarnessFact, HarnessName } from "./types.js";

/** Each harness's own way to drop a worktree it tracks: the remedy of harness_tracked and harness_unverified. */
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

export type HarnessHold = Extract<Reason, { code: "harness_tracked" | "harness_unverified" }>;

/** The reason that keeps the worktree for its harness, or null when nothing does. */
export function harnessHold(harness: HarnessFact | null | undefined): HarnessHold | null {
  if (!harness || harness.tracked === false) return null;
  const evidence = { harness: harness.name, session: harness.session ?? null, drop: HARNESS_DROP[harness.name] };
  return (harness.tracked === true ? reason("harness_tracked", evidence) : reason("harness_unverified", evidence)) as HarnessHold;
}
