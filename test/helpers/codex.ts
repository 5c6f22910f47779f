// The real Codex CLI for the integration tests: a pinned version installed on demand from the
// package registry into a cache outside the repository (never a dependency of `npm install`), run
// against the fake Responses API with a private HOME and CODEX_HOME and no network of its own.
// The platform binary is started directly (not through the package's node launcher), so the
// process the test starts is the one a hook's lease must name.
import { spawn, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, realpathSync, writeFileSync } from "node:fs";
import { homedir } from "node:os";
import { dirname, join } from "node:path";
import { hermeticEnv } from "./env.js";
import { PROCESS_TIMEOUT_MS } from "./time.js";
import { git, type Scenario } from "./scenario.js";

/** A worktree as `codex exec --worktree` leaves it under `codexHome` for thread `thread` (its real path). */
export function codexWorktree(s: Scenario, codexHome: string, thread: string, id = "a1b2"): string {
  const path = join(codexHome, "worktrees", id, "app");
  mkdirSync(dirname(path), { recursive: true });
  git(s.primary, "worktree", "add", "-q", "--detach", path, "main");
  const admin = s.adminDir(path);
  writeFileSync(join(admin, "codex-thread.json"), JSON.stringify({ version: 1, ownerThreadId: thread }));
  writeFileSync(join(admin, "config.worktree"), `[core]\n\tworktree = ${realpathSync(path)}\n`);
  return realpathSync(path);
}

export const CODEX_VERSION = "0.171.0";

export function codexCache(): string {
  return process.env.ORCHARD_CODEX_CACHE || join(homedir(), ".cache", "orchard-test", `codex-${CODEX_VERSION}`);
}

/** The platform package's binary (`@openai/codex-<platform>-<arch>/vendor/<triple>/bin/codex`), or null before install. */
export function codexBinary(): string | null {
  const pkg = join(codexCache(), "node_modules", "@openai", `codex-${process.platform}-${process.arch}`, "vendor");
  if (!existsSync(pkg)) return null;
  for (const triple of readdirSync(pkg)) {
    const bin = join(pkg, triple, "bin", "codex");
    if (existsSync(bin)) return bin;
  }
  return null;
}

function versionOf(bin: string | null): string {
  if (bin === null) return "";
  return spawnSync(bin, ["--version"], { encoding: "utf8", timeout: PROCESS_TIMEOUT_MS }).stdout?.trim() ?? "";
}

/** Installs the pinned Codex into the cache unless it is there; returns the binary. Throws, never skips. */
export function ensureCodex(): string {
  if (!versionOf(codexBinary()).includes(CODEX_VERSION)) {
    mkdirSync(codexCache(), { recursive: true });
    const r = spawnSync(
      "npm",
      ["install", "--prefix", codexCache(), "--no-save", "--no-audit", "--no-fund", "--loglevel=error", `@openai/codex@${CODEX_VERSION}`],
      { encoding: "utf8", timeout: 5 * PROCESS_TIMEOUT_MS }, // a ~200 MB download
    );
    if (r.status !== 0) throw new Error(`installing @openai/codex@${CODEX_VERSION} failed:\n${r.stderr}`);
  }
  const bin = codexBinary();
  const version = versionOf(bin);
  if (bin === null || !version.includes(CODEX_VERSION)) throw new Error(`codex --version printed ${JSON.stringify(version)}, not ${CODEX_VERSION}`);
  return bin;
}

/** A CODEX_HOME whose config points Codex's model at the fake Responses API at `apiUrl`. */
export function codexHomeFor(dir: string, apiUrl: string): string {
  mkdirSync(dir, { recursive: true });
  writeFileSync(
    join(dir, "config.toml"),
    [
      `model = "gpt-test"`,
      `model_provider = "fake"`,
      `[model_providers.fake]`,
      `name = "fake"`,
      `base_url = ${JSON.stringify(apiUrl)}`,
      `wire_api = "responses"`,
      "",
    ].join("\n"),
  );
  return dir;
}

export interface CodexRun {
  pid: number;
  done: Promise<{ code: number | null; signal: NodeJS.Signals | null; stdout: string; stderr: string }>;
}

/**
 * Starts `codex <args>` in `cwd` with `codexHome` (and `home` as HOME). Hooks are run without
 * Codex's interactive trust step (`--dangerously-bypass-hook-trust`, which `codex exec` offers for
 * automation): the test vets the one hook file it wrote.
 */
export function startCodex(args: string[], options: { cwd: string; home: string; codexHome: string; env?: Record<string, string> }): CodexRun {
  const bin = codexBinary();
  if (bin === null) throw new Error("Codex is not installed: ensureCodex() first");
  const child = spawn(bin, args, {
    cwd: options.cwd,
    env: hermeticEnv({ HOME: options.home, CODEX_HOME: options.codexHome, ...options.env }),
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString("utf8")));
  child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString("utf8")));
  const done = new Promise<{ code: number | null; signal: NodeJS.Signals | null; stdout: string; stderr: string }>((resolve) =>
    child.on("close", (code, signal) => resolve({ code, signal, stdout, stderr })),
  );
  return { pid: child.pid as number, done };
}
