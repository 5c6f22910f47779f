// One session hook of a harness, start or end (SPEC v5 §3.15): parse the harness's input, find
// the linked worktree the session runs in, ask the harness's own record whether it made that
// worktree for this session, then adopt (start) or release (end) in place (session.ts). A session
// outside any linked worktree, or in one its harness did not make for it, is `not_tracked`:
// nothing is adopted (the start hook's sweep still runs, in the caller).
import type { Orchard } from "../orchard.js";
import type { ClientProcess } from "../ownership/index.js";
import { parseSessionPayload, type SessionPayload } from "./payload.js";
import {
  adoptForSession,
  findLinkedWorktree,
  notTracked,
  releaseForSession,
  type HarnessHookName,
  type LinkedWorktree,
  type SessionHookResult,
} from "./session.js";
import { readCodexThread } from "./codex.js";
import { isGeminiWorktree } from "./gemini.js";
import { isCopilotWorktree } from "./copilot.js";

interface HarnessSessions {
  start: readonly string[];
  end: readonly string[];
  /** Whether the harness made `worktree` for this session (its own record, or its path shape where it keeps none; `home`: Orchard's). */
  claims(worktree: LinkedWorktree, payload: SessionPayload, home: string): boolean;
}

const HARNESSES: Record<HarnessHookName, HarnessSessions> = {
  codex: { start: ["SessionStart"], end: ["SessionEnd"], claims: (w, p) => readCodexThread(w.admin) === p.sessionId },
  gemini: { start: ["SessionStart"], end: ["SessionEnd"], claims: (w) => isGeminiWorktree(w.path) },
  copilot: { start: ["SessionStart"], end: ["SessionEnd"], claims: (w, _p, home) => isCopilotWorktree(w.path, home) },
};

export function parseHarnessSession(harness: HarnessHookName, event: "start" | "end", input: string): SessionPayload {
  const spec = HARNESSES[harness];
  return parseSessionPayload(input, { harness, events: event === "start" ? spec.start : spec.end, detail: event === "start" ? "source" : "reason" });
}

export async function harnessSessionStart(
  orchard: Orchard,
  harness: HarnessHookName,
  payload: SessionPayload,
  host: ClientProcess | null,
): Promise<SessionHookResult> {
  const worktree = findLinkedWorktree(payload.cwd);
  if (!worktree || !HARNESSES[harness].claims(worktree, payload, orchard.workspace.home))
    return notTracked(harness, "session-start", payload.sessionId, worktree?.path ?? null);
  return adoptForSession(orchard, { harness, sessionId: payload.sessionId, worktree }, host);
}

export async function harnessSessionEnd(orchard: Orchard, harness: HarnessHookName, payload: SessionPayload): Promise<SessionHookResult> {
  const worktree = findLinkedWorktree(payload.cwd);
  if (!worktree || !HARNESSES[harness].claims(worktree, payload, orchard.workspace.home))
    return notTracked(harness, "session-end", payload.sessionId, worktree?.path ?? null);
  return releaseForSession(orchard, { harness, sessionId: payload.sessionId, worktree });
}
