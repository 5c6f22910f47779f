// The JSON Claude Code writes on a hook's stdin (WorktreeCreate, WorktreeRemove). Only the fields
// Orchard uses are checked; anything else Claude Code adds is ignored. Bad input is a usage error.
import { isAbsolute } from "node:path";
import { usageError } from "../shared/errors.js";

export interface CreatePayload {
  sessionId: string;
  cwd: string;
  name: string;
  /** Where Claude Code keeps the session's transcript (absolute; null when the input has none): recorded with the worktree. */
  transcriptPath: string | null;
}

export interface RemovePayload {
  sessionId: string;
  cwd: string;
  worktreePath: string;
}

export interface SubagentStopPayload {
  sessionId: string;
  cwd: string;
  /** The subagent's id: its isolated worktree is named `agent-<id>` (branch `worktree-agent-<id>`). */
  agentId: string;
}

const MAX_BYTES = 1024 * 1024;

function parseObject(text: string, event: string): Record<string, unknown> {
  if (Buffer.byteLength(text) > MAX_BYTES) throw usageError("invalid_argument", `the ${event} hook input is over 1 MiB`);
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw usageError("invalid_argument", `the ${event} hook input is not JSON (Claude Code writes one JSON object on stdin)`);
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) throw usageError("invalid_argument", `the ${event} hook input is not a JSON object`);
  const object = value as Record<string, unknown>;
  if (object.hook_event_name !== undefined && object.hook_event_name !== event)
    throw usageError("invalid_argument", `the hook input is for ${JSON.stringify(object.hook_event_name)}, not ${event}`);
  return object;
}

function text(object: Record<string, unknown>, key: string, event: string): string {
  const value = object[key];
  if (typeof value !== "string" || value.trim() === "" || /[\0-\x1f\x7f]/.test(value))
    throw usageError("invalid_argument", `the ${event} hook input needs a non-empty "${key}" without control characters`);
  return value;
}

function absolute(object: Record<string, unknown>, key: string, event: string): string {
  const value = text(object, key, event);
  if (!isAbsolute(value)) throw usageError("invalid_argument", `the ${event} hook input's "${key}" is not an absolute path`);
  return value;
}

export function parseCreatePayload(input: string): CreatePayload {
  const object = parseObject(input, "WorktreeCreate");
  return {
    sessionId: text(object, "session_id", "WorktreeCreate"),
    cwd: absolute(object, "cwd", "WorktreeCreate"),
    name: text(object, "name", "WorktreeCreate"),
    transcriptPath: optionalAbsolute(object, "transcript_path"),
  };
}

/** An absolute path without control characters, else null (an input without it still makes the worktree). */
function optionalAbsolute(object: Record<string, unknown>, key: string): string | null {
  const value = object[key];
  return typeof value === "string" && isAbsolute(value) && !/[\0-\x1f\x7f]/.test(value) ? value : null;
}

export function parseRemovePayload(input: string): RemovePayload {
  const object = parseObject(input, "WorktreeRemove");
  return {
    sessionId: text(object, "session_id", "WorktreeRemove"),
    cwd: absolute(object, "cwd", "WorktreeRemove"),
    worktreePath: absolute(object, "worktree_path", "WorktreeRemove"),
  };
}

export function parseSubagentStopPayload(input: string): SubagentStopPayload {
  const object = parseObject(input, "SubagentStop");
  const agentId = text(object, "agent_id", "SubagentStop");
  if (!/^[A-Za-z0-9_-]{1,128}$/.test(agentId)) throw usageError("invalid_argument", `the SubagentStop hook input's "agent_id" is not an agent id`);
  return { sessionId: text(object, "session_id", "SubagentStop"), cwd: absolute(object, "cwd", "SubagentStop"), agentId };
}

/** Claude Code's branch for a worktree name: `worktree-<name>`, with `/` written as `+`. */
export function branchForName(name: string): string {
  return `worktree-${name.replaceAll("/", "+")}`;
}
