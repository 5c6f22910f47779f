// Codex, adopted at session start (SPEC v5 §3.15). `orchard codex install` writes the user-level
// `$CODEX_HOME/hooks.json` (default ~/.codex; Codex ignores a project's hooks file inside a
// worktree): `SessionStart` runs `orchard codex session-start`, `SessionEnd` `orchard codex
// session-end`. Codex (0.171.0 checked) runs them through `sh -c` with the session's JSON on stdin
// (`session_id`, `cwd`, `hook_event_name`, `source` / `reason`). A worktree Codex made for a thread
// (`codex exec --worktree`, the app) is detached and keeps `codex-thread.json`
// `{"version":1,"ownerThreadId":…}` in its admin dir: when that names the session, session start
// adopts the worktree in place (session.ts) and session end releases it. Codex asks a person to
// trust new hooks before it runs them (`/hooks`), so install says so.
import { homedir } from "node:os";
import { join } from "node:path";
import { readPlainFile } from "../shared/files.js";
import type { HookSpec } from "./hooks-text.js";
import { CODEX_MARKER, parseCodexThread } from "../harness/index.js";

export const CODEX_HOOKS: readonly HookSpec[] = [
  { event: "SessionStart", args: "codex session-start" },
  { event: "SessionEnd", args: "codex session-end" },
];

export function codexHome(env: NodeJS.ProcessEnv = process.env): string {
  return env.CODEX_HOME || join(homedir(), ".codex");
}

export function codexHooksFile(env: NodeJS.ProcessEnv = process.env): string {
  return join(codexHome(env), "hooks.json");
}

/** The thread a Codex worktree belongs to (its admin dir's `codex-thread.json`), or null: none, unreadable, another shape. */
export function readCodexThread(admin: string): string | null {
  const text = readPlainFile(join(admin, CODEX_MARKER), 64 * 1024)?.toString("utf8");
  if (text === undefined) return null;
  const parsed = parseCodexThread(text);
  return "thread" in parsed ? parsed.thread : null; // damaged: no thread named, nothing adopted for it
}

export const CODEX_TRUST_NOTE = {
  code: "harness_trust",
  message: "Codex runs a new or changed hook only once it is trusted: open /hooks in Codex and trust Orchard's SessionStart and SessionEnd hooks",
};
