// The one place that spawns processes. Every call has a timeout that kills the whole process
// group, the hardened env for git, an optional trace (ORCHARD_TRACE=1), and one result shape for
// success and failure. Exit codes are data: a caller declares which codes are answers.
import { spawn, type ChildProcess } from "node:child_process";
import { realpathSync } from "node:fs";
import { gitEnv, hardenedEnv } from "./env.js";
import { GitError } from "./errors.js";
import { msNow, type ProcessResult } from "./result.js";
import { decodeGitBytes, encodeGitBytes, hasEscapedBytes, printfWord } from "./bytes.js";
import { BatchShell } from "./warm/batch-shell.js";
import { earlyAnswered, remember, takeEarly } from "./early-answers.js";
import { pinnedArgv } from "./input/pin.js";
import { refuseWedged } from "./input/admin-pass.js";
import { commonDirOf } from "./programs/policy.js";
import { spawnWaited } from "./run-sync.js";
import { runBatch, type BatchParts, type ForkParts } from "./batch.js";

export { earlyPending, dropEarly } from "./early-answers.js";

export type { ProcessResult };

export interface RunOptions {
  cwd: string;
  /** Exit codes that are answers rather than failures (default [0]). */
  ok?: readonly number[];
  timeoutMs?: number;
  /** Read-only commands run with GIT_OPTIONAL_LOCKS=0. Default true. */
  read?: boolean;
  input?: string;
  env?: Record<string, string>;
  /** false: without the program guard's overrides (hooks stay off) — a read of the configuration itself (programs/read.ts). */
  policy?: false;
}

export const DEFAULT_GIT_TIMEOUT_MS = 60_000;
const MAX_OUTPUT = 256 * 1024 * 1024;

/** Pids of the processes this one started and that have not exited yet (see ownChildren). */
const running = new Set<number>();

// a git of ours never outlives us: one still running when this process exits (an early read nobody
// took, a batch a failed command left) is killed with its process group (SPEC v4 §4.10). The kept
// shell is not: it ends with its stdin and removes its directory itself (warm/batch-shell.ts).
process.once("exit", () => stopRunning());

/**
 * Kills every process of ours still running (with its group), but the kept shell: what a command
 * line started and nobody took once it has answered (an early read of a repository whose git waits
 * on something an agent planted) must not hold the process open until its timeout.
 */
export function stopRunning(withKept = false): void {
  if (process.platform === "win32") return;
  for (const pid of running)
    if (withKept || pid !== kept?.pid)
      try {
        process.kill(-pid, "SIGKILL");
      } catch {
        // its group is gone already
      }
}

/**
 * Our own children in flight: a process scan that looks for "someone working inside a worktree"
 * must not count the git status this process runs there. A pid leaves the set at its exit, before
 * the kernel may reuse it.
 */
export function ownChildren(): ReadonlySet<number> {
  return running;
}

/** Where a shell of ours runs a git in a directory of its own (runBatch), while it runs: realpath → how many. */
const shellDirs = new Map<string, number>();

/**
 * The directories where a git of one of our shells works now: such a git is not our child but our
 * shell's (its process group is the shell's pid), and a process scan must not count it as someone
 * working inside that worktree (core/ownership/process.ts).
 */
export function ownShellDirs(): readonly string[] {
  return [...shellDirs.keys()];
}

function holdShellDir(dir: string): () => void {
  let real: string;
  try {
    real = realpathSync(dir);
  } catch {
    return () => undefined; // no such directory: git will fail there, and nothing works inside it
  }
  shellDirs.set(real, (shellDirs.get(real) ?? 0) + 1);
  return () => {
    const n = (shellDirs.get(real) ?? 1) - 1;
    if (n > 0) shellDirs.set(real, n);
    else shellDirs.delete(real);
  };
}

function trace(result: ProcessResult, program: string): void {
  if (process.env.ORCHARD_TRACE !== "1") return;
  const status = result.timedOut ? "timeout" : String(result.exitCode ?? result.signal);
  // "from +N ms": when it started, counted from this process's own start (the critical path of a call)
  const from = Math.round(msNow() - result.durationMs);
  process.stderr.write(`[orchard trace] ${program} ${JSON.stringify(result.args)} cwd=${result.cwd} -> ${status} ${result.durationMs}ms from +${from}ms\n`);
}

/** SIGKILLs a child started in its own process group, the whole group (git's own children too). */
function killGroup(child: ChildProcess): void {
  try {
    if (child.pid !== undefined && process.platform !== "win32") process.kill(-child.pid, "SIGKILL");
    else child.kill("SIGKILL");
  } catch {
    // no such group: gone already, or (right after spawn, on a busy machine) not made yet
    child.kill("SIGKILL");
  }
}

/** `sh -c` script: each word `printf '%b'` of itself (a sentinel keeps trailing newlines), then exec `$0` with them. */
const REBUILD_ARGV = `for a do b=$(printf '%bx' "$a"); set -- "$@" "\${b%x}"; shift; done; exec "$0" "$@"`;

let waitEach = false;

/** From now on each process runs to its end before this one goes on (run-sync.ts): a command whose processes are sequential anyway (lean.ts). */
export function waitForEachProcess(): void {
  waitEach = true;
}

/** Spawns `program args` in its own process group and collects its output. Never throws on exit codes. */
export function runProcess(
  program: string,
  args: readonly string[],
  options: {
    cwd: string;
    env: NodeJS.ProcessEnv;
    timeoutMs: number;
    input?: string;
    shell?: boolean;
    signal?: AbortSignal;
    /** What runs instead of `args` (a git call pinned to its worktree, pin.ts); `args` is what the result reports. */
    argv?: readonly string[];
  },
): Promise<ProcessResult> {
  const started = msNow();
  const spawned = options.argv ?? args;
  // an argument holding bytes that are not UTF-8 (a name read from git, bytes.ts) reaches the
  // program through `sh`, which rebuilds each word from its printf form: Node passes argv as UTF-8
  const bytes = !options.shell && spawned.some(hasEscapedBytes);
  const [file, argv] = bytes ? ["sh", ["-c", REBUILD_ARGV, program, ...spawned.map(printfWord)]] : [program, spawned];
  const input = options.input === undefined ? "" : encodeGitBytes(options.input);
  if (waitEach && options.signal === undefined) {
    try {
      const w = spawnWaited(file, argv, {
        cwd: options.cwd,
        env: options.env,
        timeoutMs: options.timeoutMs,
        input,
        shell: options.shell ?? false,
        maxOutput: MAX_OUTPUT,
      });
      const { exitCode, signal, timedOut } = w;
      const result: ProcessResult = {
        args: [...args],
        cwd: options.cwd,
        exitCode,
        signal,
        stdout: decodeGitBytes(w.stdout),
        stderr: decodeGitBytes(w.stderr),
        durationMs: Math.round(msNow() - started),
        timedOut,
      };
      trace(result, program);
      return Promise.resolve(result);
    } catch (error) {
      return Promise.reject(error as Error);
    }
  }
  return new Promise((resolve, reject) => {
    const child = spawn(file, argv, {
      cwd: options.cwd,
      env: options.env,
      detached: process.platform !== "win32",
      stdio: ["pipe", "pipe", "pipe"],
      shell: options.shell ?? false,
      windowsHide: true,
    });
    const pid = child.pid;
    if (pid !== undefined) {
      running.add(pid);
      child.once("exit", () => running.delete(pid));
    }
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    let size = 0;
    let timedOut = false;
    const kill = (): void => killGroup(child);
    const timer = setTimeout(() => {
      timedOut = true;
      kill();
    }, options.timeoutMs);
    // an aborted process is killed like a timed-out one (its whole group), and reported as such
    const abort = (): void => {
      timedOut = true;
      kill();
    };
    if (options.signal?.aborted) abort();
    else options.signal?.addEventListener("abort", abort, { once: true });
    const collect = (into: Buffer[]) => (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_OUTPUT) kill();
      else into.push(chunk);
    };
    child.stdout.on("data", collect(out));
    child.stderr.on("data", collect(err));
    child.on("error", (error) => {
      clearTimeout(timer);
      options.signal?.removeEventListener("abort", abort);
      if (pid !== undefined) running.delete(pid);
      reject(error);
    });
    child.on("close", (code, signal) => {
      clearTimeout(timer);
      options.signal?.removeEventListener("abort", abort);
      const result: ProcessResult = {
        args: [...args],
        cwd: options.cwd,
        exitCode: code,
        signal,
        stdout: decodeGitBytes(Buffer.concat(out)),
        stderr: decodeGitBytes(Buffer.concat(err)),
        durationMs: Math.round(msNow() - started),
        timedOut,
      };
      trace(result, program);
      resolve(result);
    });
    child.stdin.on("error", () => {
      // the child may exit before reading its input; its exit status tells the story
    });
    child.stdin.end(input);
  });
}

/**
 * Starts a read-only `git args` in `cwd` now, as git() would run it, for the first git() call
 * asking exactly that (same argv and cwd, no input, env or timeout of its own). Returns the
 * process's result (a rejection is a process that could not start), which stays to be taken.
 */
export function startEarly(args: readonly string[], cwd: string): Promise<ProcessResult> {
  return remember(args, cwd, gitAlone(args, cwd, gitEnv(cwd, { read: true })));
}

const gitAlone = (args: readonly string[], cwd: string, env: NodeJS.ProcessEnv): Promise<ProcessResult> =>
  runProcess("git", args, { cwd, env, timeoutMs: DEFAULT_GIT_TIMEOUT_MS, argv: pinnedArgv(args, cwd) });

/**
 * startEarly for several queries in `cwd` through one `sh`: forking from this process blocks its
 * main thread until the child has exec'd (10–16 ms a process on a 2-vCPU VM, while node still has
 * the library to compile); the shell forks the gits for a fraction of that. Each git writes to its
 * own pair of pipes and the shell reports its exit code after it has exited, so a result is there
 * only once its process is gone, as with startEarly. Where the shell cannot start (no `sh`), each
 * query is started on its own.
 */
export function startEarlyBatch(queries: readonly EarlyQuery[], cwd: string): Promise<ProcessResult>[] {
  const env = gitEnv(cwd, { read: true });
  // a query in another directory (a worktree's status) shares the shell only under the same environment
  const own = (q: EarlyQuery): { args: readonly string[]; cwd: string } => ("args" in q ? q : { args: q, cwd });
  const envOf = (at: string): NodeJS.ProcessEnv => (at === cwd ? env : gitEnv(at, { read: true }));
  const all = queries.map(own);
  const shared = all.filter((q) => q.cwd === cwd || sameEnv(envOf(q.cwd), env));
  const results = process.platform === "win32" ? null : (kept?.run(shared, cwd, env) ?? runBatch(shared, cwd, env, forkParts()));
  // in the order asked
  return all.map((q) => {
    const i = shared.indexOf(q);
    if (i < 0) return remember(q.args, q.cwd, gitAlone(q.args, q.cwd, envOf(q.cwd)));
    return remember(q.args, q.cwd, results ? results[i]!.catch(() => gitAlone(q.args, q.cwd, env)) : gitAlone(q.args, q.cwd, env));
  });
}

/** The shell a long-lived process keeps for its batches (warm/batch-shell.ts), once keepBatchShell was called. */
let kept: BatchShell | null = null;

/** What a batch's processes need of this module (batch.ts, warm/batch-shell.ts), with its timeout. */
function batchParts(timeoutMs: number): BatchParts {
  return {
    track: (pid) => {
      running.add(pid);
      return () => running.delete(pid);
    },
    holdDir: holdShellDir,
    trace: (result) => trace(result, "git"),
    kill: killGroup,
    maxOutput: MAX_OUTPUT,
    timeoutMs,
  };
}

/**
 * From now on this process runs its batches through a shell it keeps (started now, while the
 * process is small): for a long-lived process (the MCP server), whose every spawn costs more.
 */
export function keepBatchShell(options: { timeoutMs?: number } = {}): void {
  if (process.platform === "win32" || kept) return;
  kept = new BatchShell({
    spawn: (args, env) => spawn("sh", [...args], { cwd: "/", env, detached: true, stdio: ["pipe", "pipe", "ignore"], windowsHide: true }),
    ...batchParts(options.timeoutMs ?? DEFAULT_GIT_TIMEOUT_MS),
  });
  kept.start(hardenedEnv({ read: true }));
}

/** Ends the kept shell and forks batches from here again (a test's fresh start; a library caller's close). */
export function dropBatchShell(): void {
  kept?.stop();
  kept = null;
}

/** Whether this process is warm (keepBatchShell was called): what it keeps between calls is worth keeping. */
export function isWarm(): boolean {
  return kept !== null;
}

/** The pid of the kept shell running now (null: none). */
export function keptShellPid(): number | null {
  return kept?.pid ?? null;
}

/** What a batch forked from here (batch.ts) needs of this module. */
// a function, not a module-level object: a call at the top level would keep this module (and
// child_process) in a bundle that never runs a git, the quick one (scripts/bundle.mjs)
const forkParts = (): ForkParts => ({
  spawn: (script, cwd, env, stdio) => spawn("sh", ["-c", script], { cwd, env, detached: true, stdio: [...stdio], windowsHide: true }),
  ...batchParts(DEFAULT_GIT_TIMEOUT_MS),
});

/** A query of startEarlyBatch: git's argv in the batch's directory, or argv and a directory of its own. */
export type EarlyQuery = readonly string[] | { args: readonly string[]; cwd: string };

function sameEnv(a: NodeJS.ProcessEnv, b: NodeJS.ProcessEnv): boolean {
  const keys = Object.keys(a);
  return keys.length === Object.keys(b).length && keys.every((k) => a[k] === b[k]);
}

/** Runs git; resolves with the result when the exit code is one of `ok`, else throws GitError. */
export async function git(args: readonly string[], options: RunOptions): Promise<ProcessResult> {
  const plain = options.input === undefined && !options.env && options.read !== false && options.timeoutMs === undefined && options.policy === undefined;
  // a FIFO planted in an admin dir would hold it for ever (admin-pass.ts); an early answer git has given was held by none
  if (!earlyAnswered(args, options.cwd, plain)) refuseWedged(args, commonDirOf(options.cwd));
  const result = await (takeEarly(args, options.cwd, plain) ??
    runProcess("git", args, {
      cwd: options.cwd,
      env: gitEnv(options.cwd, {
        read: options.read ?? true,
        ...(options.env ? { extra: options.env } : {}),
        ...(options.policy === false ? { policy: false } : {}),
      }),
      timeoutMs: options.timeoutMs ?? DEFAULT_GIT_TIMEOUT_MS,
      ...(options.input !== undefined ? { input: options.input } : {}),
      // a caller that names the git dir itself (a private index, write.ts) keeps it
      ...(options.env?.GIT_DIR === undefined ? { argv: pinnedArgv(args, options.cwd) } : {}),
    }));
  const ok = options.ok ?? [0];
  if (result.timedOut || result.exitCode === null || !ok.includes(result.exitCode)) throw new GitError(result);
  return result;
}
