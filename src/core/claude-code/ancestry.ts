// Which process is Claude Code? The hook runs as `/bin/sh -c <command>` under Claude Code, so the
// hook's own process sits below one or more shells (and `env` from a `#!/usr/bin/env node` line):
// walk up the parent chain to the nearest process that is none of those. Linux reads /proc; macOS
// asks ps. Null when the chain cannot be read — the lease then names no pid (the caller says so).
import { readFileSync } from "node:fs";
import { basename } from "node:path";
import { readPsParent } from "../../git/ps.js";
import { isValidPid } from "../ownership/index.js";

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
