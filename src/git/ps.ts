// Process-table queries that need another program (macOS has no /proc). Lives in src/git because
// this layer is the only one that spawns processes.
import { readFileSync } from "node:fs";
import { runProcess } from "./run.js";

const opts = { cwd: "/", env: { ...process.env, LC_ALL: "C" }, timeoutMs: 10_000 };

/**
 * `ps -o lstart= -p <pid>` in UTC (`LC_ALL=C TZ=UTC`, as Claude Code writes it into its lock): the
 * start time as ps prints it, or null when there is no such process. Read in local time it would
 * differ from Claude Code's text off UTC, and a live agent would look like a reused pid.
 */
export async function readPsStart(pid: number): Promise<string | null> {
  const r = await runProcess("ps", ["-o", "lstart=", "-p", String(pid)], { ...opts, env: { ...opts.env, TZ: "UTC" } });
  const text = r.stdout.trim();
  return r.exitCode === 0 && text ? text : null;
}

/** `lsof -a -d cwd -F pn`: the cwd of every process we may inspect, or null when lsof failed. */
export async function readLsofCwds(): Promise<Map<number, string> | null> {
  const r = await runProcess("lsof", ["-n", "-P", "-d", "cwd", "-F", "pn"], opts).catch(() => null);
  if (!r || (r.exitCode !== 0 && r.exitCode !== 1)) return null;
  const cwds = new Map<number, string>();
  let pid = 0;
  for (const line of r.stdout.split("\n")) {
    if (line.startsWith("p")) pid = Number(line.slice(1));
    else if (line.startsWith("n") && pid) cwds.set(pid, line.slice(1));
  }
  return cwds;
}

/** `ps -o ppid=,comm= -p <pid>`: the parent pid and command, or null when there is no such process. */
export async function readPsParent(pid: number): Promise<{ parent: number; command: string } | null> {
  const r = await runProcess("ps", ["-o", "ppid=,comm=", "-p", String(pid)], opts);
  const match = /^\s*(\d+)\s+(.+)$/.exec(r.stdout.trim());
  return r.exitCode === 0 && match ? { parent: Number(match[1]), command: (match[2] as string).trim() } : null;
}

/** `ps -o stat= -p <pid>`: the process state letters (`Z` first for a zombie), or null when there is no such process. */
export async function readPsState(pid: number): Promise<string | null> {
  const r = await runProcess("ps", ["-o", "stat=", "-p", String(pid)], opts);
  const text = r.stdout.trim();
  return r.exitCode === 0 && text ? text : null;
}

/** `ps -o args= -p <pid>`: the command line (macOS: the words a launcher is recognised by), or null. */
export async function readPsArgs(pid: number): Promise<string | null> {
  const r = await runProcess("ps", ["-o", "args=", "-p", String(pid)], opts);
  const text = r.stdout.trim();
  return r.exitCode === 0 && text ? text : null;
}

/**
 * A process's argument vector, exactly (Linux: /proc/<pid>/cmdline), or null where it cannot be read
 * exactly (no such process, not ours to read, or a platform whose `ps` joins the words with spaces).
 */
export function readProcessArgv(pid: number): string[] | null {
  if (process.platform !== "linux") return null;
  try {
    const text = readFileSync(`/proc/${pid}/cmdline`, "utf8");
    return text === "" ? null : text.replace(/\0$/, "").split("\0");
  } catch {
    return null;
  }
}
