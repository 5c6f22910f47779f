// Scenario builders that read like the domain: a bare `origin`, a primary clone, a workspace
// (`home`), and verbs to commit, branch, lock, dirty and run the real CLI against them.
// A template repository is built once per run (./template.ts) and copied for each scenario.
import { execFileSync, spawn, spawnSync } from "node:child_process";
import { cpSync, mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync, existsSync, utimesSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { inject } from "vitest";
import { hermeticEnv } from "./env.js";
import { buildTemplate } from "./template.js";
import { PROCESS_TIMEOUT_MS, WAIT_TIMEOUT_MS } from "./time.js";

// The shipped executable (package.json `bin`): the bundle that `npm run build` writes.
export const CLI = resolve(dirname(fileURLToPath(import.meta.url)), "../../dist/bin/orchard.js");

export function git(cwd: string, ...args: string[]): string {
  const out = execFileSync("git", args, { cwd, env: hermeticEnv(), encoding: "utf8", stdio: ["ignore", "pipe", "pipe"], timeout: PROCESS_TIMEOUT_MS });
  return out.replace(/\n$/, "");
}

/** git's stdout as bytes (a record with bytes that are not UTF-8 stays whole). */
export function gitBytes(cwd: string, ...args: string[]): Buffer {
  return execFileSync("git", args, { cwd, env: hermeticEnv(), stdio: ["ignore", "pipe", "pipe"], timeout: PROCESS_TIMEOUT_MS });
}

/** Makes a FIFO at `path` (a file that a plain read would wait on for ever). */
export function makeFifo(path: string): void {
  execFileSync("mkfifo", [path], { timeout: PROCESS_TIMEOUT_MS });
}

export function gitResult(cwd: string, ...args: string[]): { code: number; stdout: string; stderr: string } {
  const r = spawnSync("git", args, { cwd, env: hermeticEnv(), encoding: "utf8", timeout: PROCESS_TIMEOUT_MS });
  return { code: r.status ?? -1, stdout: r.stdout, stderr: r.stderr };
}

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
  /** The parsed stdout (with --json); throws if stdout is not exactly one JSON object. */
  json: any; // tests read arbitrary fields of the CLI's JSON
}

function toResult(code: number, stdout: string, stderr: string): CliResult {
  let parsed: unknown;
  return {
    code,
    stdout,
    stderr,
    get json() {
      if (parsed === undefined) {
        try {
          parsed = JSON.parse(stdout);
        } catch {
          throw new Error(`stdout is not one JSON object (exit ${code}):\n${stdout}\n--- stderr:\n${stderr}`);
        }
      }
      return parsed;
    },
  };
}

let template: string | undefined;

/** The run's template (built once by the global setup), or, in a run without it, this process's own. */
function templateDir(): string {
  template ??= inject("scenarioTemplate") ?? buildTemplate();
  return template;
}

export interface ScenarioOptions {
  /** Drop the `origin` remote (a repo with no remote at all). */
  noRemote?: boolean;
}

export class Scenario {
  readonly root: string;
  readonly origin: string;
  readonly primary: string;
  readonly home: string;

  private constructor(root: string) {
    this.root = root;
    this.origin = join(root, "remote", "app.git");
    this.primary = join(root, "app");
    this.home = join(root, "home");
  }

  static create(options: ScenarioOptions = {}): Scenario {
    const root = realpathSync(mkdtempSync(join(tmpdir(), "orchard-scn-")));
    cpSync(templateDir(), root, { recursive: true });
    const scenario = new Scenario(root);
    git(scenario.primary, "remote", "set-url", "origin", scenario.origin); // the copy's own origin, not the template's
    if (options.noRemote) {
      git(scenario.primary, "remote", "remove", "origin");
      rmSync(scenario.origin, { recursive: true, force: true });
    }
    return scenario;
  }

  /** Runs the real CLI with --home and --repo set (unless given; `noHome`: the workspace comes from ORCHARD_HOME), always hermetic. */
  orchard(args: string[], options: { cwd?: string; env?: Record<string, string>; json?: boolean; noHome?: boolean } = {}): CliResult {
    const globals = this.globals(options.noHome ? ["--home", ...args] : args, options.json ?? true);
    const r = spawnSync(process.execPath, [CLI, ...globals, ...args], {
      cwd: options.cwd ?? this.primary,
      env: hermeticEnv(options.noHome ? { ORCHARD_HOME: this.home, ...options.env } : options.env),
      encoding: "utf8",
      timeout: PROCESS_TIMEOUT_MS,
    });
    return toResult(r.status ?? -1, r.stdout, r.stderr);
  }

  /** `orchard add <args…>`, which must succeed: the worktree it answers. */
  added(...args: string[]): { handle: string; path: string } {
    const r = this.orchard(["add", ...args]);
    if (r.code !== 0) throw new Error(`orchard add ${args.join(" ")} exited ${r.code}: ${r.stdout}${r.stderr}`);
    return r.json as { handle: string; path: string };
  }

  /** A worktree of `branch` added for the owner `agent`, then released by it: a clean released worktree. */
  released(branch: string): { handle: string; path: string } {
    const w = this.added(branch, "--owner", "agent");
    const r = this.orchard(["release", w.handle, "--owner", "agent"]);
    if (r.code !== 0) throw new Error(`orchard release ${w.handle} exited ${r.code}: ${r.stdout}${r.stderr}`);
    return w;
  }

  /**
   * Starts the CLI in its own process group and SIGKILLs the group (git children too) as soon as
   * `when()` holds. Resolves true when the kill landed before the command finished.
   */
  orchardKilledWhen(args: string[], when: () => boolean, options: { env?: Record<string, string> } = {}): Promise<boolean> {
    return new Promise((resolvePromise) => {
      const child = spawn(process.execPath, [CLI, ...this.globals(args, true), ...args], {
        cwd: this.primary,
        env: hermeticEnv(options.env),
        stdio: "ignore",
        detached: true,
      });
      let killed = false;
      const poll = setInterval(() => {
        if (killed || !when()) return;
        killed = true;
        try {
          process.kill(-(child.pid as number), "SIGKILL");
        } catch {
          killed = false; // it already finished
        }
      }, 1);
      child.on("exit", () => {
        clearInterval(poll);
        resolvePromise(killed);
      });
    });
  }

  /** The same, without blocking: for concurrency tests. */
  orchardAsync(args: string[], options: { cwd?: string; env?: Record<string, string>; json?: boolean } = {}): Promise<CliResult> {
    return new Promise((resolvePromise) => {
      const child = spawn(process.execPath, [CLI, ...this.globals(args, options.json ?? true), ...args], {
        cwd: options.cwd ?? this.primary,
        env: hermeticEnv(options.env),
      });
      let stdout = "";
      let stderr = "";
      child.stdout.on("data", (d: Buffer) => (stdout += d.toString()));
      child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
      child.on("close", (code) => resolvePromise(toResult(code ?? -1, stdout, stderr)));
    });
  }

  private globals(args: string[], json: boolean): string[] {
    const globals: string[] = [];
    if (!args.includes("--home")) globals.push("--home", this.home);
    if (!args.includes("--repo")) globals.push("--repo", this.primary);
    if (json && !args.includes("--json")) globals.push("--json");
    return globals;
  }

  git(...args: string[]): string {
    return git(this.primary, ...args);
  }

  /** Writes a file and commits it in `in` (default: the primary). Returns the new HEAD. */
  commit(options: { in?: string; file?: string; content?: string; message?: string } = {}): string {
    const cwd = options.in ?? this.primary;
    const file = options.file ?? `change-${Math.random().toString(36).slice(2, 8)}.txt`;
    mkdirSync(dirname(join(cwd, file)), { recursive: true });
    writeFileSync(join(cwd, file), options.content ?? `${file}\n`);
    git(cwd, "add", "--", file);
    git(cwd, "commit", "-q", "-m", options.message ?? `change ${file}`);
    return git(cwd, "rev-parse", "HEAD");
  }

  /** A foreign linked worktree made with plain git, on a new branch from main. */
  worktree(branch: string, options: { path?: string; lock?: string; from?: string } = {}): string {
    const path = options.path ?? join(this.root, "foreign", branch.replace(/\//g, "-"));
    mkdirSync(dirname(path), { recursive: true });
    git(this.primary, "worktree", "add", "-q", "-b", branch, path, options.from ?? "main");
    if (options.lock !== undefined) git(this.primary, "worktree", "lock", "--reason", options.lock, path);
    return realpathSync(path);
  }

  lockAs(path: string, reason: string): void {
    git(this.primary, "worktree", "lock", "--reason", reason, path);
  }

  /** The admin dir (private git dir) of a linked worktree. */
  adminDir(path: string): string {
    return git(path, "rev-parse", "--path-format=absolute", "--git-dir");
  }

  /** Makes a lock look old (for the reaper's age guard). */
  ageLock(path: string, seconds: number): void {
    const lock = join(this.adminDir(path), "locked");
    const when = new Date(Date.now() - seconds * 1000);
    utimesSync(lock, when, when);
  }

  makeDirty(path: string, options: { tracked?: boolean; untracked?: boolean } = { untracked: true }): void {
    if (options.untracked ?? false) writeFileSync(join(path, "untracked-work.txt"), "precious\n");
    if (options.tracked) writeFileSync(join(path, "README.md"), "# changed\n");
  }

  push(branch: string, cwd = this.primary): void {
    git(cwd, "push", "-q", "origin", `${branch}:${branch}`);
  }

  /** Merges a branch into main in the primary (a real merge commit) and pushes main. */
  mergeIntoMain(branch: string): void {
    git(this.primary, "merge", "-q", "--no-ff", "--no-edit", branch);
    if (existsSync(this.origin)) git(this.primary, "push", "-q", "origin", "main");
  }

  cleanup(): void {
    rmSync(this.root, { recursive: true, force: true });
  }
}

/** The environment of the plain Node processes below: this process's, without the CA bundle Node would parse at start (env.ts). */
function plainNodeEnv(): NodeJS.ProcessEnv {
  const { NODE_EXTRA_CA_CERTS: _, ...env } = process.env;
  return env;
}

/** A pid that is certainly dead: spawn a process, wait for it to exit, use its pid. */
export function deadPid(): number {
  const r = spawnSync(process.execPath, ["-e", "process.stdout.write(String(process.pid))"], {
    env: plainNodeEnv(),
    encoding: "utf8",
    timeout: PROCESS_TIMEOUT_MS,
  });
  return Number(r.stdout);
}

/** A live process for the duration of a test (sleeps until killed). */
export function liveProcess(cwd?: string): { pid: number; stop: () => void } {
  const child = spawn(process.execPath, ["-e", "setInterval(() => {}, 1000)"], { cwd: cwd ?? tmpdir(), env: plainNodeEnv(), stdio: "ignore" });
  return { pid: child.pid as number, stop: () => child.kill("SIGKILL") };
}

/** Polls `check` until it returns true or the deadline passes (no sleeps to wait for things). */
export async function waitFor(check: () => boolean, what = "the condition", timeoutMs = WAIT_TIMEOUT_MS): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`${what} did not hold within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** A worktree `orchard add` made: what the boundary tests read of it. */
export interface Added {
  handle: string;
  path: string;
}

/** A fresh scenario with two worktrees, `feat-a` and `feat-b`, made without a bootstrap (the boundary tests' fleet). */
export function scenarioWithTwo(): { s: Scenario; a: Added; b: Added } {
  const s = Scenario.create();
  return { s, a: s.orchard(["add", "feat-a", "--no-bootstrap"]).json, b: s.orchard(["add", "feat-b", "--no-bootstrap"]).json };
}
