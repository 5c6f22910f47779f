// Who started this process? Orchard runs under other programs: a Claude Code hook under
// `/bin/sh -c`, the MCP server under its client, often through a launcher (`npx`, `npm exec`,
// `env`, a node running a package runner's script). The client is the first ancestor that is not
// such a launcher (SPEC v3 §3.12, §3.14). Linux reads /proc; macOS asks ps. Null when the chain
// cannot be read or ends at init: a lease then names no pid, never a process that did not ask.
import { readFileSync } from "node:fs";
import { basename } from "node:path";
import { readPsArgs, readPsParent } from "../../git/ps.js";
import { isValidPid, readStartTime } from "./process.js";

/** Programs that only run another: shells and the small wrappers a command line goes through. */
const SHELLS = new Set(["sh", "bash", "dash", "zsh", "ksh", "fish", "busybox", "env", "timeout", "nohup", "setsid", "stdbuf", "nice"]);
/** Package runners, by program name (`npx` sets its title to `npm exec …`). */
const RUNNERS = new Set(["npx", "npm", "pnpm", "pnpx", "yarn", "bunx", "corepack", "npm exec"]);
/** The script a node process runs when it is a package runner, or Orchard's own bin re-launched. */
const RUNNER_SCRIPTS = new Set([
  "npx-cli.js",
  "npm-cli.js",
  "npx",
  "npm",
  "pnpm.cjs",
  "pnpm.js",
  "pnpx.cjs",
  "yarn.js",
  "yarn.cjs",
  "corepack.js",
  "corepack",
  "orchard.js",
  "orchard",
  "orchard-worktrees",
]);
const MAX_DEPTH = 16;

export interface ProcessLink {
  pid: number;
  parent: number;
  /** The program's name (Linux comm, macOS ps comm's basename). */
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

async function readArgs(pid: number): Promise<string[]> {
  if (process.platform === "darwin") return ((await readPsArgs(pid)) ?? "").split(/\s+/);
  try {
    return readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0");
  } catch {
    return []; // gone: no words to recognise
  }
}

/** True for the names a hook command may run under on its way from Claude Code to us. */
export function isShellName(name: string): boolean {
  return SHELLS.has(name.replace(/^-/, ""));
}

/** A launcher: a shell or wrapper, a package runner, or node running a runner's script (or orchard's bin). */
export async function isLauncher(link: ProcessLink): Promise<boolean> {
  if (isShellName(link.name) || RUNNERS.has(link.name) || link.name.startsWith("npm ")) return true;
  if (!/^node(js)?$/.test(link.name)) return false;
  const args = await readArgs(link.pid);
  const script = args.slice(1).find((a) => a !== "" && !a.startsWith("-"));
  return script !== undefined && RUNNER_SCRIPTS.has(basename(script));
}

/**
 * The ancestors of `from` (exclusive) up to the first one `skip` does not pass (inclusive), or null
 * when the chain cannot be read or reaches init (pid 1: whoever started us is gone).
 */
export async function readAncestorChain(from: number, skip: (link: ProcessLink) => boolean | Promise<boolean>): Promise<number[] | null> {
  const chain: number[] = [];
  let link = await readLink(from);
  for (let depth = 0; link && depth < MAX_DEPTH; depth++) {
    if (!isValidPid(link.parent) || link.parent <= 1) return null;
    const parent = await readLink(link.parent);
    if (!parent) return null;
    chain.push(parent.pid);
    if (!(await skip(parent))) return chain;
    link = parent;
  }
  return null;
}

export interface ClientProcess {
  pid: number;
  startTime: string | null;
}

/** The process this one serves: its parent, followed past launchers to the first that is not one, with its start time. */
export async function readClientProcess(from = process.pid): Promise<ClientProcess | null> {
  const pid = (await readAncestorChain(from, isLauncher))?.at(-1);
  if (pid === undefined) return null;
  return { pid, startTime: await readStartTime(pid) };
}
