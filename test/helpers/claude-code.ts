// The real Claude Code binary for the integration tests: a pinned version installed on demand from
// the package registry into a cache outside the repository (never a dependency of `npm install`),
// and run against the fake Messages API with a private HOME and no network of its own.
import { spawn, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, symlinkSync } from "node:fs";
import { homedir } from "node:os";
import { delimiter, join } from "node:path";
import { expect } from "vitest";
import { CLI, git, type Scenario } from "./scenario.js";
import { hermeticEnv, pathWithoutOrchard } from "./env.js";
import { PROCESS_TIMEOUT_MS } from "./time.js";

export const CLAUDE_CODE_VERSION = "2.1.332";

export function claudeCodeCache(): string {
  return process.env.ORCHARD_CLAUDE_CODE_CACHE || join(homedir(), ".cache", "orchard-test", `claude-code-${CLAUDE_CODE_VERSION}`);
}

export function claudeBinary(): string {
  return join(claudeCodeCache(), "node_modules", "@anthropic-ai", "claude-code", "bin", "claude.exe");
}

/** Installs the pinned Claude Code into the cache unless it is there; returns the binary. Throws, never skips. */
export function ensureClaudeCode(): string {
  const bin = claudeBinary();
  if (!existsSync(bin) || !versionOf(bin).includes(CLAUDE_CODE_VERSION)) {
    mkdirSync(claudeCodeCache(), { recursive: true });
    const r = spawnSync(
      "npm",
      [
        "install",
        "--prefix",
        claudeCodeCache(),
        "--no-save",
        "--no-audit",
        "--no-fund",
        "--loglevel=error",
        `@anthropic-ai/claude-code@${CLAUDE_CODE_VERSION}`,
      ],
      { encoding: "utf8", timeout: 5 * PROCESS_TIMEOUT_MS }, // a ~235 MB download
    );
    if (r.status !== 0) throw new Error(`installing @anthropic-ai/claude-code@${CLAUDE_CODE_VERSION} failed:\n${r.stderr}`);
  }
  const version = versionOf(bin);
  if (!version.includes(CLAUDE_CODE_VERSION)) throw new Error(`${bin} --version printed ${JSON.stringify(version)}, not ${CLAUDE_CODE_VERSION}`);
  return bin;
}

function versionOf(bin: string): string {
  if (!existsSync(bin)) return "";
  const r = spawnSync(bin, ["--version"], {
    encoding: "utf8",
    env: { ...process.env, DISABLE_AUTOUPDATER: "1", CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: "1" },
    timeout: PROCESS_TIMEOUT_MS,
  });
  return r.stdout.trim();
}

export interface ClaudeRun {
  pid: number;
  done: Promise<{ code: number | null; signal: NodeJS.Signals | null; stdout: string; stderr: string }>;
  kill: () => void;
}

/** Starts `claude <args>` in `cwd` against the fake API at `apiUrl`, with `home` as its HOME. */
export function startClaude(args: string[], options: { cwd: string; home: string; apiUrl: string; env?: Record<string, string> }): ClaudeRun {
  // Claude Code's own scratch files (per-project notes, its messaging socket) go under the test's
  // HOME rather than into /tmp/claude-<uid> and /tmp/cc-socks, where they would outlive the test
  const scratch = join(options.home, "tmp");
  mkdirSync(scratch, { recursive: true, mode: 0o700 });
  const child = spawn(claudeBinary(), args, {
    cwd: options.cwd,
    env: hermeticEnv({
      HOME: options.home,
      ANTHROPIC_BASE_URL: options.apiUrl,
      ANTHROPIC_API_KEY: "sk-ant-test-dummy",
      CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: "1",
      DISABLE_AUTOUPDATER: "1",
      DISABLE_TELEMETRY: "1",
      CLAUDE_CODE_TMPDIR: scratch,
      ...options.env,
    }),
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString("utf8")));
  child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString("utf8")));
  const done = new Promise<{ code: number | null; signal: NodeJS.Signals | null; stdout: string; stderr: string }>((resolve) =>
    child.on("close", (code, signal) => resolve({ code, signal, stdout, stderr })),
  );
  return { pid: child.pid as number, done, kill: () => child.kill("SIGKILL") };
}

/**
 * The environment in which a project-installed hook finds Orchard as a teammate's machine would:
 * `orchard` on PATH (a bin directory holding a link to this build, as `npm install -g` makes one)
 * and the workspace from ORCHARD_HOME — the project's settings name no path of this machine.
 */
export function orchardOnPath(root: string, home: string): Record<string, string> {
  const bin = join(root, "bin");
  if (!existsSync(join(bin, "orchard"))) {
    mkdirSync(bin, { recursive: true });
    symlinkSync(CLI, join(bin, "orchard"));
  }
  return { PATH: `${bin}${delimiter}${pathWithoutOrchard()}`, ORCHARD_HOME: home };
}

/** `orchard claude-code install --project` in the scenario's primary (portable: no `--home`), committed and pushed as a team would. */
export function installInProject(s: Scenario): void {
  const install = s.orchard(["claude-code", "install", "--project"], { noHome: true });
  expect(install.code, install.stderr).toBe(0);
  git(s.primary, "add", "-A");
  git(s.primary, "commit", "-q", "-m", "orchard as claude code's worktree backend");
  git(s.primary, "push", "-q", "origin", "main");
}
