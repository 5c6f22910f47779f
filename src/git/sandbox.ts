// The processes `orchard demo` needs to build its sandbox: plain git commands that set up a
// repository and a fleet the way agents and their harnesses would (not Orchard's own mutations),
// and the two kinds of agent process a fleet has — one that already died, one still working.
// Every git call runs with the caller's `env` on top of the hardened env, so it stays hermetic.
import { spawn } from "node:child_process";
import { git } from "./run.js";

export interface SandboxGit {
  cwd: string;
  env: Record<string, string>;
}

const run = (g: SandboxGit, args: string[], input?: string) =>
  git(args, { cwd: g.cwd, env: g.env, read: false, timeoutMs: 120_000, ...(input !== undefined ? { input } : {}) });

export async function initRepo(g: SandboxGit, path: string, options: { bare: boolean; branch: string }): Promise<void> {
  await run(g, ["init", "-q", ...(options.bare ? ["--bare"] : []), "-b", options.branch, "--end-of-options", path]);
}

/** Stages everything and commits; returns the new HEAD. */
export async function commitAll(g: SandboxGit, message: string): Promise<string> {
  await run(g, ["add", "-A"]);
  await run(g, ["commit", "-q", "--no-verify", "-m", message]);
  return (await run(g, ["rev-parse", "HEAD"])).stdout.trim();
}

export async function addRemote(g: SandboxGit, name: string, url: string): Promise<void> {
  await run(g, ["remote", "add", "--", name, url]);
}

/** Pushes a branch and records origin/HEAD, as a fresh clone would have it. */
export async function pushBranch(g: SandboxGit, branch: string, options: { setHead?: boolean } = {}): Promise<void> {
  await run(g, ["push", "-q", "origin", "--end-of-options", `refs/heads/${branch}:refs/heads/${branch}`]);
  await run(g, ["fetch", "-q", "origin"]);
  if (options.setHead) await run(g, ["remote", "set-head", "origin", branch]);
}

/** A linked worktree on a new branch, made the way an agent harness makes one (plain git). */
export async function addPlainWorktree(g: SandboxGit, path: string, branch: string, start: string): Promise<void> {
  await run(g, ["worktree", "add", "-q", "-b", branch, "--end-of-options", path, start]);
}

export async function mergeNoFf(g: SandboxGit, branch: string, message: string): Promise<void> {
  await run(g, ["merge", "-q", "--no-ff", "--no-edit", "-m", message, "--end-of-options", branch]);
}

export async function lockPlainWorktree(g: SandboxGit, path: string, reason: string): Promise<void> {
  await run(g, ["worktree", "lock", "--reason", reason, "--end-of-options", path]);
}

/** The private git dir of a linked worktree. */
export async function readWorktreeGitDir(g: SandboxGit): Promise<string> {
  return (await run(g, ["rev-parse", "--path-format=absolute", "--git-dir"])).stdout.trim();
}

/** A pid that is certainly dead: a process that was started, exited and was reaped. */
export function spawnDeadPid(): Promise<number> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ["-e", ""], { stdio: "ignore" });
    child.on("error", reject);
    child.on("exit", () => (child.pid === undefined ? reject(new Error("no pid")) : resolve(child.pid)));
  });
}

export interface IdleProcess {
  pid: number;
  /** Kills it and resolves once it is gone. */
  stop(): Promise<void>;
}

/** A process that stays alive inside `cwd` until stopped, or until this process dies (its stdin closes). */
export function spawnIdleProcess(cwd: string): Promise<IdleProcess> {
  return new Promise((resolve, reject) => {
    // alive while its stdin is open; once it closes, nothing is left to wait for and it ends
    const script = "const t = setInterval(() => {}, 60000); process.stdin.on('end', () => clearInterval(t)); process.stdin.resume();";
    const child = spawn(process.execPath, ["-e", script], { cwd, stdio: ["pipe", "ignore", "ignore"] });
    const exited = new Promise<void>((done) => child.once("exit", () => done()));
    child.once("error", reject);
    child.once("spawn", () => {
      if (child.pid === undefined) return reject(new Error("no pid"));
      resolve({
        pid: child.pid,
        stop: async () => {
          if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
          await exited;
        },
      });
    });
  });
}
