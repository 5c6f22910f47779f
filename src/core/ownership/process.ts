// Facts about processes: alive, start time (to detect pid reuse), and which processes work inside
// a directory. Linux reads /proc; macOS asks ps/lsof. Every answer may be "unknown" (null).
import { existsSync, readFileSync, readdirSync, readlinkSync, statSync } from "node:fs";
import { hostname } from "node:os";
import { readLsofCwds, readPsParent, readPsStart, readPsState } from "../../git/ps.js";
import { ownChildren, ownShellDirs } from "../../git/run.js";

/**
 * The host this process speaks for: ORCHARD_HOST, default the hostname. Every registry row and
 * event carries it; in a fleet, rows of other hosts are never acted on (SPEC §5).
 */
export const HOST = process.env.ORCHARD_HOST?.trim() || hostname();

export type PidState = "alive" | "dead" | "unknown";

export function isValidPid(pid: number): boolean {
  return Number.isSafeInteger(pid) && pid >= 1 && pid <= 2 ** 31 - 1;
}

/**
 * kill(pid, 0): success or EPERM means alive; ESRCH means dead. An exited process whose parent has
 * not reaped it yet (a zombie, state `Z`, or `X` on its way out) still answers kill(pid, 0) but
 * works nowhere: dead (SPEC v3 §4.11). Linux reads the state here; macOS needs `ps`
 * (readPidState).
 */
export function pidState(pid: number): PidState {
  if (!isValidPid(pid)) return "unknown";
  try {
    process.kill(pid, 0);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "EPERM") return exited(pid) ? "dead" : "alive";
    if (code === "ESRCH") return "dead";
    return "unknown";
  }
  return exited(pid) ? "dead" : "alive";
}

/** Linux: the process has exited and waits for its parent to reap it (state Z or X). */
function exited(pid: number): boolean {
  if (process.platform !== "linux") return false;
  const state = statFields(pid)?.[0];
  return state === "Z" || state === "X";
}

/** pidState, plus the zombie check of macOS (`ps -o stat=`), where the sync probe cannot tell. */
export async function readPidState(pid: number): Promise<PidState> {
  const state = pidState(pid);
  if (state !== "alive" || process.platform !== "darwin") return state;
  const stat = await readPsState(pid);
  if (stat === null) return pidState(pid) === "dead" ? "dead" : "unknown";
  return stat.startsWith("Z") ? "dead" : "alive";
}

/** The fields of /proc/<pid>/stat after the command name (state first), or null when it cannot be read. */
function statFields(pid: number | string, root = "/proc"): string[] | null {
  try {
    const stat = readFileSync(`${root}/${pid}/stat`, "utf8");
    // comm may hold spaces and parentheses: fields resume after the last ")"
    return stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  } catch {
    return null; // no such process (or /proc unreadable)
  }
}

function linuxStartTicks(pid: number): string | null {
  return statFields(pid)?.[19] ?? null; // null: the caller treats it as "cannot tell"
}

let bootTimeCache: number | null | undefined;
function linuxBootTimeSec(): number | null {
  if (bootTimeCache !== undefined) return bootTimeCache;
  try {
    const line = readFileSync("/proc/stat", "utf8")
      .split("\n")
      .find((l) => l.startsWith("btime "));
    bootTimeCache = line ? Number(line.slice(6)) : null;
  } catch {
    bootTimeCache = null; // not Linux
  }
  return bootTimeCache;
}

const CLOCK_TICKS = 100; // USER_HZ on every Linux architecture Node supports

/** A process's start time as a stable token: Linux clock ticks since boot, macOS ps lstart. */
export async function readStartTime(pid: number): Promise<string | null> {
  if (process.platform === "linux") return linuxStartTicks(pid);
  if (process.platform === "darwin") return readPsStart(pid);
  return null;
}

export type StartComparison = "same" | "different" | "unknown";

/**
 * Does a recorded start time describe the running process? Orchard records the token it reads
 * (Linux ticks since boot, macOS lstart), so those are equal or not. A foreign token (Claude
 * Code's `start <t>`) may be ticks, epoch seconds or epoch milliseconds (matched within 2 s); it
 * is "different" only when it is a plausible value of one of those units and matches none, else
 * "unknown" — a unit we do not know must never make a live session look dead.
 */
export function compareStartTime(recorded: string, current: string): StartComparison {
  // ps pads lstart's day of month ("Nov  3"); a writer may have squeezed or trimmed the spaces
  const squeeze = (text: string): string => text.trim().replace(/\s+/g, " ");
  if (recorded === current || squeeze(recorded) === squeeze(current)) return "same";
  const numeric = /^\d+$/.test(recorded);
  if (process.platform !== "linux") return numeric ? "unknown" : "different";
  const boot = linuxBootTimeSec();
  if (!numeric || !/^\d+$/.test(current) || boot === null) return "unknown";
  const startedMs = (boot + Number(current) / CLOCK_TICKS) * 1000;
  const value = Number(recorded);
  if (Math.abs(value * 1000 - startedMs) <= 2000 || Math.abs(value - startedMs) <= 2000) return "same";
  const now = Date.now();
  const plausibleTicks = value <= (now / 1000 - boot) * CLOCK_TICKS;
  const plausibleSeconds = value >= 1e9 && value <= now / 1000 + 60;
  const plausibleMillis = value >= 1e12 && value <= now + 60_000;
  return plausibleTicks || plausibleSeconds || plausibleMillis ? "different" : "unknown";
}

/**
 * The cwds a process scan saw, and the pids whose cwd it could not read (another user's processes
 * when Orchard runs as a normal user). Such a scan cannot prove "no process inside" (SPEC §4.14).
 */
export class ProcessCwds extends Map<number, string> {
  readonly unseen: number[] = [];
  /** "pid command" of each unseen process, for the message that names them. */
  readonly unseenNames: string[] = [];
  /** Processes this one had running at some moment of the scan (its own git children): never "inside". */
  readonly ours = new Set<number>();
  /** Each directory that is some cwd or holds one → those pids, in scan order (built by `under` once asked twice). */
  private byDir: Map<string, number[]> | undefined;
  private asked = 0;

  override set(pid: number, cwd: string): this {
    this.byDir = undefined;
    return super.set(pid, cwd);
  }
  override delete(pid: number): boolean {
    this.byDir = undefined;
    return super.delete(pid);
  }
  override clear(): void {
    this.byDir = undefined;
    super.clear();
  }

  /**
   * The pids whose cwd is `dir` or below it (processesInside, before it leaves this call's own out),
   * in scan order. A fleet asks it of every worktree: from the second question on it is looked up
   * in an index of every directory on each cwd's path, built once (a cwd per process, not one per
   * process and worktree). undefined for a `dir` the index does not name as written (empty, or
   * ending in a slash): the caller compares each cwd.
   */
  under(dir: string): readonly number[] | undefined {
    if (dir === "" || dir.endsWith("/") || ++this.asked < 2) return undefined;
    if (this.byDir === undefined) {
      const index = new Map<string, number[]>();
      const add = (key: string, pid: number): void => {
        const pids = index.get(key);
        if (pids) pids.push(pid);
        else index.set(key, [pid]);
      };
      for (const [pid, cwd] of this) {
        // `dir` holds `cwd` when cwd is dir, or starts with dir and a slash: each slash of cwd but its first ends one such dir
        for (let at = cwd.indexOf("/", 1); at !== -1; at = cwd.indexOf("/", at + 1)) add(cwd.slice(0, at), pid);
        add(cwd, pid);
      }
      this.byDir = index;
    }
    return this.byDir.get(dir) ?? [];
  }
}

/** The unseen processes named for a message: "4242 postgres, 4243 sshd" (at most five). */
export function unseenDescription(cwds: Map<number, string>): string {
  if (!(cwds instanceof ProcessCwds)) return "";
  const names = cwds.unseenNames.slice(0, 5).join(", ");
  return cwds.unseenNames.length > 5 ? `${names}, …` : names;
}

function readComm(root: string, entry: string): string {
  try {
    return readFileSync(`${root}/${entry}/comm`, "utf8").trim();
  } catch {
    return "?";
  }
}

/** How many processes the scan could not inspect (0 for a plain map). */
export function unseenProcesses(cwds: Map<number, string>): number {
  return cwds instanceof ProcessCwds ? cwds.unseen.length : 0;
}

// Test-only: a directory laid out like /proc that the Linux scan reads instead (documented in
// docs/ARCHITECTURE.md); no honest way exists to make a process unreadable to root in a test.
const procRoot = (): string => process.env.ORCHARD_TEST_PROC_ROOT || "/proc";

/** init (pid 1) and kernel threads (kthreadd, pid 2, and its children) never work inside a worktree. */
function isSystemProcess(root: string, pid: number): boolean {
  if (pid === 1 || pid === 2) return true;
  return statFields(pid, root)?.[1] === "2";
}

/**
 * One process's cwd; "gone" when it has exited (or is a zombie with no cwd); "unreadable" when it
 * is another user's; undefined when it is worth another look: Linux answers EACCES, not ENOENT, for
 * a process reaped between the directory lookup and the readlink, and one of our own processes can
 * refuse us for a moment.
 */
function readCwd(root: string, entry: string): string | undefined {
  try {
    return readlinkSync(`${root}/${entry}/cwd`); // an absolute path: never "gone" or "unreadable"
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ENOENT" || code === "ESRCH") return "gone";
    if (!existsSync(`${root}/${entry}`)) return undefined;
    // One of our own processes refused us only in passing (seen on a busy machine, mid exec): look again.
    return ownerOf(root, entry) === process.getuid?.() ? undefined : "unreadable";
  }
}

function ownerOf(root: string, entry: string): number | null {
  try {
    return statSync(`${root}/${entry}`).uid;
  } catch {
    return null;
  }
}

/** Pauses between looks at a process that refuses its cwd: 2 ms doubling, about half a second in
 * all. A process of our own refuses only while it execs or exits, which takes a few ms on an idle
 * machine and, under load, was seen to take longer than the 20 ms this used to allow. */
const PAUSES_MS = [2, 4, 8, 16, 32, 64, 128, 256];
const pause = (ms: number): void => void Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);

/**
 * Whether a process of our own that refuses its cwd may do so only in passing: one that started
 * under 10 s ago (an exec right after its fork), or whose age cannot be read. An older one that
 * refuses (a non-dumpable process where root lacks CAP_SYS_PTRACE) is unreadable at once, so a
 * scan never pays the pauses for it; unreadable stays "unknown", never "nobody inside".
 */
function mayRefuseInPassing(root: string, entry: string): boolean {
  const boot = linuxBootTimeSec();
  const ticks = statFields(entry, root)?.[19]; // none: gone or going, the next look tells
  if (boot === null || ticks === undefined || !/^\d+$/.test(ticks)) return true;
  return Date.now() / 1000 - (boot + Number(ticks) / CLOCK_TICKS) < 10;
}

/**
 * A process's cwd, looked at again after each pause while it refuses; still refused after them all,
 * it is unreadable. A system process (init, kernel threads) that refuses is unreadable at once: the
 * scan leaves it out either way, and some sandboxes' init refuses even root (the pauses would cost
 * every scan half a second).
 */
function settledCwd(root: string, entry: string): string | undefined {
  for (let look = 0; ; look++) {
    const cwd = readCwd(root, entry);
    if (cwd !== undefined) return cwd;
    if (look === 0 && (isSystemProcess(root, Number(entry)) || !mayRefuseInPassing(root, entry))) return "unreadable";
    const ms = PAUSES_MS[look];
    if (ms === undefined) break;
    pause(ms);
  }
  return existsSync(`${root}/${entry}`) ? "unreadable" : "gone";
}

/** The cwd of every process we can see (and the pids we cannot), or null when the process table cannot be read. */
export async function readProcessCwds(): Promise<Map<number, string> | null> {
  const before = [...ownChildren()];
  const scanned = process.platform === "darwin" ? await readLsofCwds() : process.platform === "linux" ? scanProc() : null;
  if (scanned === null) return null;
  const cwds = scanned instanceof ProcessCwds ? scanned : new ProcessCwds(scanned);
  for (const pid of [...before, ...ownChildren()]) cwds.ours.add(pid); // a child may exit mid-scan, another start
  return cwds;
}

function scanProc(): ProcessCwds | null {
  const root = procRoot();
  const cwds = new ProcessCwds();
  const shellDirs = ownShellDirs().map((d) => [d, `${d}/`] as const);
  let entries: string[];
  try {
    entries = readdirSync(root);
  } catch {
    return null;
  }
  for (const entry of entries) {
    if (!/^\d+$/.test(entry)) continue;
    const cwd = settledCwd(root, entry);
    if (cwd === "unreadable") {
      if (!isSystemProcess(root, Number(entry))) {
        cwds.unseen.push(Number(entry));
        cwds.unseenNames.push(`${entry} ${readComm(root, entry)}`);
      }
    } else if (cwd !== "gone" && cwd !== undefined) {
      // in a directory where a shell of ours runs a git (git/run.ts): that git is in the shell's process group
      if (shellDirs.some(([d, prefix]) => cwd === d || cwd.startsWith(prefix))) {
        const group = statFields(entry, root)?.[2];
        if (group === undefined) continue; // exited meanwhile: gone, as above
        if (ownChildren().has(Number(group))) cwds.ours.add(Number(entry));
      }
      cwds.set(Number(entry), cwd);
    }
  }
  return cwds;
}

const self = new Set<number>([process.pid]);

/**
 * Counts `pids` as this very call rather than someone working inside a worktree: a hook command's
 * own chain of parents up to the program that invoked it (Claude Code ending its session runs the
 * WorktreeRemove hook from inside the worktree it asks us to remove).
 */
export function treatAsSelf(pids: readonly number[]): void {
  for (const pid of pids) self.add(pid);
}

/** Pids whose cwd is `dir` or below it (realpath form expected on both sides), this call's own (and
 * the git processes it has running) excepted. */
export function processesInside(cwds: Map<number, string>, dir: string): number[] {
  const ours = cwds instanceof ProcessCwds ? cwds.ours : ownChildren();
  const indexed = cwds instanceof ProcessCwds ? cwds.under(dir) : undefined;
  if (indexed !== undefined) return indexed.filter((pid) => !self.has(pid) && !ours.has(pid));
  const prefix = dir.endsWith("/") ? dir : `${dir}/`;
  const pids: number[] = [];
  for (const [pid, cwd] of cwds) if ((cwd === dir || cwd.startsWith(prefix)) && !self.has(pid) && !ours.has(pid)) pids.push(pid);
  return pids;
}

/**
 * This process's chain of parents (nearest first), up to and without init: the shell, agent or
 * MCP client a command was run by. Admission counts those of them working inside a worktree as
 * the requester itself (SPEC v3 §3.1: the same owner re-adding from inside its own worktree).
 * Read anew each time (a parent may die and the chain change); a link that cannot be read ends it.
 */
export async function readAncestors(from = process.pid): Promise<number[]> {
  const chain: number[] = [];
  let pid = from;
  for (let depth = 0; depth < 64; depth++) {
    const parent =
      process.platform === "linux" ? Number(statFields(pid)?.[1]) : process.platform === "darwin" ? ((await readPsParent(pid))?.parent ?? NaN) : NaN;
    if (!isValidPid(parent) || parent <= 1 || chain.includes(parent)) break;
    chain.push(parent);
    pid = parent;
  }
  return chain;
}
