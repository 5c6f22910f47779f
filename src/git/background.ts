// Work that runs after the command has answered, in one detached node process: deleting trash
// entries (two at a time, by `rm -rf`, which never follows a symbolic link; `fs.rm` where there is
// no rm). Nothing here decides: the caller proved every trash entry deletable and names exact
// paths. It never touches a worktree's index or locks (SPEC v3 §4.10: a new index is refreshed
// before `add` answers, core/shared/index-refresh.ts).
import { hardenedEnv } from "./env.js";
import { spawnDetached } from "./spawn.js";

export interface BackgroundJob {
  /** Trash entries: `<entry>/tree` is deleted first, then the entry with its journal; a tree that
   * cannot be deleted (an immutable file) leaves the entry with a `failed` note (rm's first line).
   * An entry that is no longer a real directory holding its journal is skipped. */
  purge: string[];
}

const PURGE_PARALLELISM = 2;

// Plain CommonJS for `node -e`: the job is argv[1] (paths only; the environment is inherited).
const SCRIPT = `"use strict";
const fs = require("node:fs");
const { join } = require("node:path");
const { spawn } = require("node:child_process");
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
purge();
`;

/** Starts the job detached; its pid, or null when it could not start (the work then waits for the next command). */
export function startBackground(job: BackgroundJob, cwd: string): number | null {
  if (job.purge.length === 0) return null;
  const args = ["-e", SCRIPT, JSON.stringify({ ...job, parallelism: PURGE_PARALLELISM })];
  return spawnDetached(process.execPath, args, { cwd, env: hardenedEnv({ read: false }) });
}
