// Which process is Claude Code? The hook runs as `/bin/sh -c <command>` under Claude Code, so the
// hook's own process sits below one or more shells (and `env` from a `#!/usr/bin/env node` line):
// walk up the parent chain to the nearest process that is none of those. Linux reads /proc; macOS
// asks ps. Null when the chain cannot be read — the lease then names no pid (the caller says so).
// Claude Code names itself to its hooks (CLAUDE_PID, set by 2.1.x for every hook and tool shell):
// when it is set, the Claude process is that pid and only while it is still one of the hook's
// ancestors — a hook orphaned by Claude's death has been reparented to init or a subreaper, which
// is never leased to (SPEC v3 §3.1).
import { readFileSync } from "node:fs";
import { basename } from "node:path";
import { readPsParent } from "../../git/ps.js";
import { isValidPid, readStartTime } from "../ownership/index.js";

const SHELLS = new Set(["sh", "bash", "dash", "zsh", "ksh", "fish", "busybox", "env", "timeout", "nohup"]);
const MAX_DEPTH = 16;

export interface ProcessLink {
  pid: number;
  parent: number;
  name: string;
}

function readLinuxLink(pid: number): ProcessLink | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    const name = stat.slice(stat.indexOf("(") + 1, stat.lastIndexOf(")"));
    // fields after the last ")": state, ppid, ...
    const parent = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
    return { pid, parent, name };
  } catch {
    return null; // the process is gone (or /proc unreadable): the chain ends here, unknown
  }
}

export async function readLink(pid: number): Promise<ProcessLink | null> {
  if (process.platform === "linux") return readLinuxLink(pid);
  if (process.platform === "darwin") {
    const ps = await readPsParent(pid);
    return ps ? { pid, parent: ps.parent, name: basename(ps.command) } : null;
  }
  return null;
}

/** True for the names a hook command may run under on its way from Claude Code to us. */
export function isShellName(name: string): boolean {
  return SHELLS.has(name.replace(/^-/, ""));
}

/** The ancestors of `from` (exclusive) up to the nearest one that is not a shell (inclusive), or null when unreadable. */
export async function readHostChain(from: number): Promise<number[] | null> {
  const chain: number[] = [];
  let link = await readLink(from);
  for (let depth = 0; link && depth < MAX_DEPTH; depth++) {
    if (!isValidPid(link.parent) || link.parent <= 1) return null;
    const parent = await readLink(link.parent);
    if (!parent) return null;
    chain.push(parent.pid);
    if (!isShellName(parent.name)) return chain;
    link = parent;
  }
  return null;
}

/** The nearest ancestor of `from` that is not a shell: the program that ran the hook. */
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
