// The JSON a harness writes on a session hook's stdin. Codex and Gemini CLI write Claude Code's
// shape (`session_id`, `cwd`, `hook_event_name`, `source` at start, `reason` at the end); Copilot
// CLI writes `sessionId`, `cwd`, `source`/`reason` (camelCase, no event name). Only the fields
// Orchard uses are checked; bad input is a usage error (exit 2), and the session goes on.
import { isAbsolute } from "node:path";
import { usageError } from "../shared/errors.js";

export interface SessionPayload {
  sessionId: string;
  cwd: string;
  /** Start: `startup`, `resume`, `clear`, … (Copilot: `new`, `resume`); end: the reason. Null when absent. */
  detail: string | null;
}

const MAX_BYTES = 1024 * 1024;
const CONTROL = /[\0-\x1f\x7f]/;

/** Parses one session hook's input; `events` are the `hook_event_name` values it accepts (absent is fine). */
export function parseSessionPayload(input: string, options: { harness: string; events: readonly string[]; detail: "source" | "reason" }): SessionPayload {
  const what = `the ${options.harness} ${options.events[0] ?? "session"} hook input`;
  if (Buffer.byteLength(input) > MAX_BYTES) throw usageError("invalid_argument", `${what} is over 1 MiB`);
  let value: unknown;
  try {
    value = JSON.parse(input);
  } catch {
    throw usageError("invalid_argument", `${what} is not JSON (the harness writes one JSON object on stdin)`);
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) throw usageError("invalid_argument", `${what} is not a JSON object`);
  const object = value as Record<string, unknown>;
  const event = object.hook_event_name ?? object.hookEventName;
  if (event !== undefined && !options.events.includes(event as string))
    throw usageError("invalid_argument", `the hook input is for ${JSON.stringify(event)}, not ${options.events.join(" or ")}`);
  const sessionId = object.session_id ?? object.sessionId;
  const cwd = object.cwd;
  if (typeof sessionId !== "string" || sessionId.trim() === "" || sessionId.length > 256 || CONTROL.test(sessionId))
    throw usageError("invalid_argument", `${what} needs a "session_id" without control characters`);
  if (typeof cwd !== "string" || !isAbsolute(cwd) || CONTROL.test(cwd)) throw usageError("invalid_argument", `${what} needs an absolute "cwd"`);
  const detail = object[options.detail];
  return { sessionId, cwd, detail: typeof detail === "string" && !CONTROL.test(detail) ? detail : null };
}
