// Gemini CLI, adopted at session start (SPEC v5 §3.15). `gemini --worktree <name>` makes
// `<repo>/.gemini/worktrees/<name>` on branch `worktree-<name>` and runs the session there; it keeps
// no record of which session made it, so the path's shape is the claim. `orchard gemini install`
// adds `SessionStart` → `orchard gemini session-start` and `SessionEnd` → `orchard gemini
// session-end` to Gemini CLI's settings.json (user: ~/.gemini/settings.json; project:
// <repo>/.gemini/settings.json), in Claude Code's hook shape; the input is Claude Code's too
// (`session_id`, `cwd`, `hook_event_name`, `source` / `reason`).
import { homedir } from "node:os";
import { basename, dirname, join } from "node:path";
import type { HookSpec } from "./hooks-text.js";

export const GEMINI_HOOKS: readonly HookSpec[] = [
  { event: "SessionStart", args: "gemini session-start" },
  { event: "SessionEnd", args: "gemini session-end" },
];

export function geminiSettingsFile(scope: "user" | "project", primary: string): string {
  return scope === "user" ? join(homedir(), ".gemini", "settings.json") : join(primary, ".gemini", "settings.json");
}

/** `<repo>/.gemini/worktrees/<name>`: a worktree Gemini CLI made. */
export function isGeminiWorktree(path: string): boolean {
  return basename(dirname(path)) === "worktrees" && basename(dirname(dirname(path))) === ".gemini";
}
