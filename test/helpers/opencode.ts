// The real OpenCode server for the integration tests: a pinned `opencode-ai` installed on demand
// from the package registry into a cache outside the repository, run as `opencode serve` on
// loopback with a private HOME and XDG directories, experimental workspaces on, and nothing that
// reaches the network (no auto-update, no models fetch, no LSP downloads).
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { existsSync, mkdirSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";
import { hermeticEnv } from "./env.js";
import { PROCESS_TIMEOUT_MS, WAIT_TIMEOUT_MS } from "./time.js";

export const OPENCODE_VERSION = "1.18.33";

export function opencodeCache(): string {
  return process.env.ORCHARD_OPENCODE_CACHE || join(homedir(), ".cache", "orchard-test", `opencode-${OPENCODE_VERSION}`);
}

export function opencodeBinary(): string {
  return join(opencodeCache(), "node_modules", `opencode-${process.platform}-${process.arch}`, "bin", "opencode");
}

function versionOf(bin: string): string {
  if (!existsSync(bin)) return "";
  return spawnSync(bin, ["--version"], { encoding: "utf8", timeout: PROCESS_TIMEOUT_MS }).stdout?.trim() ?? "";
}

/** Installs the pinned OpenCode into the cache unless it is there; returns the binary. Throws, never skips. */
export function ensureOpencode(): string {
  const bin = opencodeBinary();
  if (versionOf(bin) !== OPENCODE_VERSION) {
    mkdirSync(opencodeCache(), { recursive: true });
    const r = spawnSync(
      "npm",
      ["install", "--prefix", opencodeCache(), "--no-save", "--no-audit", "--no-fund", "--loglevel=error", `opencode-ai@${OPENCODE_VERSION}`],
      { encoding: "utf8", timeout: 5 * PROCESS_TIMEOUT_MS },
    );
    if (r.status !== 0) throw new Error(`installing opencode-ai@${OPENCODE_VERSION} failed:\n${r.stderr}`);
  }
  const version = versionOf(bin);
  if (version !== OPENCODE_VERSION) throw new Error(`${bin} --version printed ${JSON.stringify(version)}, not ${OPENCODE_VERSION}`);
  return bin;
}

export interface OpencodeServer {
  pid: number;
  url: string;
  /** Everything the server wrote on stderr (its logs, a plugin's console.error). */
  logs: () => string;
  stop: () => Promise<void>;
}

/** Starts `opencode serve` in `cwd` and resolves once it listens. */
export function startOpencodeServer(options: { cwd: string; home: string; env?: Record<string, string> }): Promise<OpencodeServer> {
  const xdg = (name: string) => join(options.home, name);
  const child: ChildProcess = spawn(opencodeBinary(), ["serve", "--port", "0", "--hostname", "127.0.0.1", "--print-logs", "--log-level", "WARN"], {
    cwd: options.cwd,
    env: hermeticEnv({
      HOME: options.home,
      XDG_CONFIG_HOME: xdg(".config"),
      XDG_DATA_HOME: xdg(".local/share"),
      XDG_CACHE_HOME: xdg(".cache"),
      XDG_STATE_HOME: xdg(".local/state"),
      OPENCODE_EXPERIMENTAL_WORKSPACES: "true",
      OPENCODE_DISABLE_AUTOUPDATE: "true",
      OPENCODE_DISABLE_MODELS_FETCH: "true",
      OPENCODE_DISABLE_LSP_DOWNLOAD: "true",
      ...options.env,
    }),
    stdio: ["ignore", "pipe", "pipe"],
  });
  let out = "";
  const closed = new Promise<void>((resolve) => child.on("close", () => resolve()));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`opencode serve did not listen within ${WAIT_TIMEOUT_MS} ms:\n${out}`)), WAIT_TIMEOUT_MS);
    const read = (chunk: Buffer) => {
      out += chunk.toString("utf8");
      const url = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(out)?.[1];
      if (url) {
        clearTimeout(timer);
        resolve({
          pid: child.pid as number,
          url,
          logs: () => out,
          stop: async () => {
            child.kill("SIGKILL");
            await closed;
          },
        });
      }
    };
    child.stdout?.on("data", read);
    child.stderr?.on("data", read);
    child.on("close", (code) => reject(new Error(`opencode serve exited (${code}) before it listened:\n${out}`)));
  });
}
