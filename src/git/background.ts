// Work that runs after the command has answered, in one detached process: deleting trash entries
// (two at a time, by `rm -rf`, which never follows a symbolic link). Where there is a POSIX shell
// the process is `/bin/sh` running PURGE_SH (a shell and an rm: a few ms of CPU, where a node start
// alone is ≈ 50 ms); on Windows, or where there is no `rm`, it is node running PURGE_JS (`fs.rm`
// where there is no rm). Nothing here decides: the caller proved every trash entry deletable and
// names exact paths, passed as arguments, never written into a script. It never touches a
// worktree's index or locks (SPEC v3 §4.10: a new index is refreshed before `add` answers,
// core/shared/index-refresh.ts).
import { hardenedEnv } from "./env.js";
import { spawnDetached } from "./spawn.js";

export interface BackgroundJob {
  /** Trash entries: `<entry>/tree` is deleted first, then the entry with its journal; a tree that
   * cannot be deleted (an immutable file) leaves the entry with a `failed` note (rm's first line).
   * An entry that is no longer a real directory holding its journal is skipped. */
  purge: string[];
}

const PURGE_PARALLELISM = 2;

// Plain CommonJS for `node -e`: the job is argv[1] (paths only).
const PURGE_JS = `"use strict";
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
        let started = true;
        child.stderr.on("data", (d) => (said = (said + d).slice(0, 4096)));
        // no rm: fs.rm (a spawn error is followed by a close, which is then not rm's answer)
        child.on("error", () => ((started = false), nodeRm(path).then(done, fail)));
        child.on("close", (code) => started && (code === 0 ? done() : fail(new Error(said.split("\\n")[0] || "rm -rf exited " + code))));
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

// POSIX sh, the same steps as PURGE_JS: `sh -c PURGE_SH orchard-purge <node> <PURGE_JS> <its job> <entry>…`.
// Each entry is re-checked at the moment of use: a real directory (not a link), reached through no
// link (`cd -P` sets PWD to its physical path, which must be the path itself), holding a regular
// `journal.json`; then, from inside it, `tree` is deleted and, from its physical parent, the entry.
// A tree rm cannot delete leaves the entry with a `failed` note: rm's first line of stderr. Two
// workers take every other entry (the node job shares one queue: the same work, split statically);
// a single entry starts no second shell. Without `rm` on PATH the job is handed to node instead.
const PURGE_SH = `node=$1 js=$2 job=$3
shift 3
command -v rm >/dev/null 2>&1 || exec "$node" -e "$js" "$job"
nl='
'
purge() {
  [ -d "$1" ] && [ ! -h "$1" ] && cd -P -- "$1" 2>/dev/null && [ "$PWD" = "$1" ] && [ -f journal.json ] && [ ! -h journal.json ] || return 0
  if said=$(rm -rf -- tree 2>&1 >/dev/null); then
    cd -P .. && rm -rf -- "\${1##*/}"
  else
    code=$?
    said=\${said%%"$nl"*}
    printf '%s\\n' "\${said:-rm -rf exited $code}" >failed 2>/dev/null
  fi
  return 0
}
every_other() {
  turn=$1
  shift
  for entry do
    [ "$turn" = 0 ] && purge "$entry"
    turn=$((1 - turn))
  done
}
if [ $# -gt 1 ]; then every_other 1 "$@" & fi
every_other 0 "$@"
wait
`;

/** Starts the job detached; its pid, or null when it could not start (the work then waits for the next command). */
export function startBackground(job: BackgroundJob, cwd: string): number | null {
  if (job.purge.length === 0) return null;
  const json = JSON.stringify({ ...job, parallelism: PURGE_PARALLELISM });
  if (process.platform !== "win32") {
    // the shell gets only PATH (to find rm) and the C locale (rm's message): nothing in the
    // environment (a shell function exported by bash, ENV, CDPATH) can change what it runs
    const env = { PATH: process.env.PATH ?? "/usr/bin:/bin", LC_ALL: "C" };
    const pid = spawnDetached("/bin/sh", ["-c", PURGE_SH, "orchard-purge", process.execPath, PURGE_JS, json, ...job.purge], { cwd, env });
    if (pid !== null) return pid;
  }
  return spawnDetached(process.execPath, ["-e", PURGE_JS, json], { cwd, env: hardenedEnv({ read: false }) });
}
