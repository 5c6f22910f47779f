// Which process is Claude Code? The hook runs as `/bin/sh -c <command>` under Claude Code, so the
// hook's own process sits below one or more shells (and `env` from a `#!/usr/bin/env node` line,
// and `npm exec` when the hook runs `npx -y orchard-worktrees`): the nearest ancestor that is no
// launcher (core/ownership/client.ts, the same walk the MCP server uses to find its client). Null
// when the chain cannot be read — the lease then names no pid (the caller says so).
// Claude Code names itself to its hooks (CLAUDE_PID, set by 2.1.x for every hook and tool shell):
// when it is set, the Claude process is that pid and only while it is still one of the hook's
// ancestors — a hook orphaned by Claude's death has been reparented to init or a subreaper, which
// is never leased to (SPEC v3 §3.1).
import { isLauncher, isValidPid, readAncestorChain, readLink, readStartTime } from "../ownership/index.js";

const MAX_DEPTH = 16;

/** The ancestors of `from` (exclusive) up to the nearest one that is not a launcher (inclusive), or null when unreadable. */
export function readHostChain(from: number): Promise<number[] | null> {
  return readAncestorChain(from, isLauncher);
}

/** The nearest ancestor of `from` that is not a launcher: the program that ran the hook. */
export async function findHostProcess(from: number): Promise<number | null> {
  return (await readHostChain(from))?.at(-1) ?? null;
}
/** Who ran the hook: Claude Code alive (pid and start time, read now), gone (it died before the hook looked), or unknown. */
export type HostIdentity = { state: "alive"; pid: number; startTime: string | null } | { state: "gone"; pid: number } | { state: "unknown" };

/** True when `pid` is an ancestor of `from` (followed up to init). */
async function isAncestor(pid: number, from: number): Promise<boolean> {
  let link = await readLink(from);
  for (let depth = 0; link && depth < 4 * MAX_DEPTH; depth++) {
    if (link.parent === pid) return true;
    if (!isValidPid(link.parent) || link.parent <= 1) return false;
    link = await readLink(link.parent);
  }
  return false;
}

/**
 * The Claude Code process that runs this hook, identified once when the hook starts (before its
 * input is read), with its start time, so a lease written minutes later names that very process.
 */
export async function identifyHost(from: number = process.pid, env: NodeJS.ProcessEnv = process.env): Promise<HostIdentity> {
  const named = env.CLAUDE_PID === undefined ? NaN : Number(env.CLAUDE_PID);
  if (/^[1-9][0-9]*$/.test(env.CLAUDE_PID ?? "") && isValidPid(named)) {
    if (!(await isAncestor(named, from))) return { state: "gone", pid: named };
    const startTime = await readStartTime(named);
    if (startTime === null && process.platform === "linux") return { state: "gone", pid: named };
    return { state: "alive", pid: named, startTime };
  }
  const pid = await findHostProcess(from);
  return pid === null ? { state: "unknown" } : { state: "alive", pid, startTime: await readStartTime(pid) };
}

const WATCH_INTERVAL_MS = 250;

/**
 * Aborts when the Claude Code process that runs the hook is gone (no longer one of its ancestors:
 * killed, Ctrl-C), so the hook's bootstrap dies with it instead of running its whole length and
 * holding the worktree live for the next session of the same name. `stop()` ends the watch.
 */
export function watchHost(host: HostIdentity, from: number = process.pid): { signal: AbortSignal; stop: () => void } {
  const controller = new AbortController();
  if (host.state !== "alive") return { signal: controller.signal, stop: () => undefined };
  let checking = false;
  const timer = setInterval(() => {
    if (checking) return;
    checking = true;
    void isAncestor(host.pid, from)
      .then((still) => {
        if (!still && !controller.signal.aborted) controller.abort(`Claude Code (pid ${host.pid}), which ran this hook, is gone`);
      })
      .finally(() => (checking = false));
  }, WATCH_INTERVAL_MS);
  timer.unref();
  return { signal: controller.signal, stop: () => clearInterval(timer) };
}
