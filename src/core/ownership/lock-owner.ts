// Who holds a git worktree lock, read from its reason text (SPEC §3.10 step 2); Orchard's lease is one JSON line.
export type LockOwner =
  | { kind: "orchard"; pid?: number; startTime?: string; host?: string; owner: string | null; handle: string; workspace?: string; expires?: string }
  | { kind: "claude-code"; pid: number; startTime?: string; id: string; form: "agent" | "session" }
  | { kind: "pid"; pid: number }
  | { kind: "unknown" };

export const ORCHARD_LEASE_PREFIX = "orchard-lease ";

export interface LeaseLockFields {
  handle: string;
  owner: string | null;
  pid?: number;
  startTime?: string;
  host?: string;
  /** The workspace whose lease this is (SPEC v4 §4.11). */
  workspace?: string;
  /** When the lease's heartbeat runs out (ISO): a proof that holds across registries once passed. */
  expires?: string;
}

const UNKNOWN: LockOwner = { kind: "unknown" };
const MAX_PID = 2 ** 31 - 1;
const isPid = (n: unknown): n is number => typeof n === "number" && Number.isSafeInteger(n) && n >= 1 && n <= MAX_PID;
/** Digits → pid, or null when out of 1…2³¹−1 (huge digit strings included). */
const pidFrom = (digits: string): number | null => (isPid(Number(digits)) ? Number(digits) : null);

/** `orchard-lease {json}` on one line. JSON escapes \n and \r; U+0085/2028/2029 are escaped too. */
export function formatOrchardLock(f: LeaseLockFields): string {
  if (f.pid !== undefined && !isPid(f.pid)) throw new RangeError(`lock pid must be an integer in 1…${MAX_PID}, got ${f.pid}`);
  const fields = { handle: f.handle, owner: f.owner, pid: f.pid, startTime: f.startTime, host: f.host, workspace: f.workspace, expires: f.expires };
  const json = JSON.stringify(fields).replace(/[\u0085\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);
  return ORCHARD_LEASE_PREFIX + json;
}

function parseOrchard(json: string): LockOwner {
  let value: unknown;
  try {
    value = JSON.parse(json);
  } catch {
    return UNKNOWN;
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) return UNKNOWN;
  const { handle, owner = null, pid, startTime, host, workspace, expires } = value as Record<string, unknown>;
  if (typeof handle !== "string" || (owner !== null && typeof owner !== "string")) return UNKNOWN;
  if ((pid !== undefined && !isPid(pid)) || !optionalString(startTime) || !optionalString(host)) return UNKNOWN;
  if (!optionalString(workspace) || !optionalString(expires)) return UNKNOWN;
  return {
    kind: "orchard",
    handle,
    owner,
    ...(pid !== undefined && { pid }),
    ...(startTime !== undefined && { startTime }),
    ...(host !== undefined && { host }),
    ...(workspace !== undefined && { workspace }),
    ...(expires !== undefined && { expires }),
  };
}
const optionalString = (v: unknown): v is string | undefined => v === undefined || typeof v === "string";

// Claude Code locks its Agent-tool worktrees `claude agent <slug> (pid N start T)` (T: clock ticks
// since boot on Linux, `ps -o lstart` text in UTC on macOS), or without ` start T`, and its
// `claude --worktree <name>` sessions' worktrees `claude session <name> (pid N start T)` (form
// "session"; the name as given, `/` included; 2.1.332 leaves it after a `-p` session ends).
// Greedy name + `$` anchor: the LAST `(pid …)` group at the end of the text wins.
const CLAUDE = /^claude (agent|session) (.+) \(pid (\d+)(?: start (\S(?:[^()]*\S)?))?\)$/s;

export function parseLockOwner(reason: string | null): LockOwner {
  if (reason === null) return UNKNOWN;
  const text = reason.trim();
  if (text.startsWith(ORCHARD_LEASE_PREFIX)) return parseOrchard(text.slice(ORCHARD_LEASE_PREFIX.length));
  if (/^\d+$/.test(text)) {
    const pid = pidFrom(text);
    return pid === null ? UNKNOWN : { kind: "pid", pid };
  }
  const m = CLAUDE.exec(text);
  if (!m) return UNKNOWN;
  const pid = pidFrom(m[3] ?? "");
  const id = (m[2] ?? "").trim();
  if (pid === null || id === "") return UNKNOWN;
  const form = m[1] === "agent" ? "agent" : "session";
  return { kind: "claude-code", pid, id, form, ...(m[4] !== undefined && { startTime: m[4] }) };
}
