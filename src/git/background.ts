// Work that runs after the command has answered, in one detached node process: deleting trash
// entries (two at a time, by `rm -rf`, which never follows a symbolic link; `fs.rm` where there is
// no rm) and refreshing a new worktree's index once it is older than git's timestamp granularity.
// Nothing here decides: the caller proved every trash entry deletable and names exact paths; a
// refresh only rewrites stat data in an index nobody wrote since (git's own `update-index
// --refresh`, hooks off).
import { gitEnv, hardenedEnv } from "./env.js";
import { spawnDetached } from "./run.js";

export interface IndexRefresh {
  worktree: string;
  /** The worktree's index file and its mtime when the caller saw it: a changed (or locked) index is left alone. */
  index: string;
  mtimeMs: number;
  /** Epoch ms before which the refresh would leave the checkout's files racily clean. */
  notBefore: number;
}

export interface BackgroundJob {
  /** Trash entries: `<entry>/tree` is deleted first, then the entry with its journal; a tree that
   * cannot be deleted (an immutable file) leaves the entry with a `failed` note (rm's first line).
   * An entry that is no longer a real directory holding its journal is skipped. */
  purge: string[];
  refresh: IndexRefresh[];
}

const PURGE_PARALLELISM = 2;

// Plain CommonJS for `node -e`: the job is argv[1] (paths only; the environment is inherited).
const SCRIPT = `"use strict";
const fs = require("node:fs");
const { join } = require("node:path");
const { spawn, spawnSync } = require("node:child_process");
const job = JSON.parse(process.argv[1]);
const quietly = (p) => p.catch(() => undefined);
// rm -rf deletes a tree with half the CPU of fs.rm; without rm (Windows), fs.rm
const nodeRm = (path) => fs.promises.rm(path, { recursive: true, force: true, maxRetries: 2 });
const rmrf = (path) =>
  process.platform === "win32"
    ? nodeRm(path)
    : new Promise((done, fail) => {
        const child = spawn("rm", ["-rf", "--", path], { stdio: ["ignore", "ignore", "pipe"] });
        let said = "";
        child.stderr.on("data", (d) => (said = (said + d).slice(0, 4096)));
        child.on("error", () => nodeRm(path).then(done, fail));
        child.on("close", (code) => (code === 0 ? done() : fail(new Error(said.split("\\n")[0] || "rm -rf exited " + code))));
      });
// re-checked at the moment of use: a real directory reached through no link, holding Orchard's journal
const isOurs = (entry) => {
  try {
    return fs.lstatSync(entry).isDirectory() && fs.realpathSync(entry) === entry && fs.lstatSync(join(entry, "journal.json")).isFile();
  } catch {
    return false;
  }
};
async function refresh(r) {
  await new Promise((done) => setTimeout(done, Math.max(0, r.notBefore - Date.now())));
  let st;
  try { st = fs.statSync(r.index); } catch { return; }
  if (st.mtimeMs !== r.mtimeMs || fs.existsSync(r.index + ".lock")) return;
  spawnSync("git", ["update-index", "-q", "--refresh"], { cwd: r.worktree, env: { ...process.env, ...r.config }, stdio: "ignore", timeout: 120000 });
}
async function purge() {
  let next = 0;
  const worker = async () => {
    while (next < job.purge.length) {
      const entry = job.purge[next++];
      if (!isOurs(entry)) continue;
      try {
        await rmrf(join(entry, "tree"));
      } catch (error) {
        await quietly(fs.promises.writeFile(join(entry, "failed"), String(error && error.message) + "\\n"));
        continue;
      }
      await quietly(fs.promises.rm(entry, { recursive: true, force: true, maxRetries: 2 }));
    }
  };
  await Promise.all(Array.from({ length: Math.min(job.parallelism, job.purge.length) }, worker));
}
Promise.all([purge(), ...job.refresh.map(refresh)]);
`;

/** The GIT_CONFIG_* entries of an env (the rest the job inherits). */
const configOf = (env: NodeJS.ProcessEnv): Record<string, string> =>
  Object.fromEntries(Object.entries(env).filter((e): e is [string, string] => e[0].startsWith("GIT_CONFIG_") && e[1] !== undefined));

/** Starts the job detached; its pid, or null when it could not start (the work then waits for the next command). */
export function startBackground(job: BackgroundJob, cwd: string): number | null {
  if (job.purge.length === 0 && job.refresh.length === 0) return null;
  // each refresh runs in its repository's git env (hooks and untrusted programs off: programs.ts)
  const refresh = job.refresh.map((r) => ({ ...r, config: configOf(gitEnv(r.worktree, { read: false })) }));
  const args = ["-e", SCRIPT, JSON.stringify({ ...job, refresh, parallelism: PURGE_PARALLELISM })];
  return spawnDetached(process.execPath, args, { cwd, env: hardenedEnv({ read: false }) });
}
