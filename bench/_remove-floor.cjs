// The floor of a remove in Node (everyday.mjs's `remove-*-floor` rows): a bare script that does what
// any `orchard remove` must pay for and nothing else, on a plain worktree, so the goal of a remove
// row can be read against what no implementation of this design goes under:
//   - a node start (a file script, as `orchard` is);
//   - better-sqlite3 loaded by path (its JavaScript and its addon) and one SQLite file opened in WAL
//     mode, one row read, one write transaction, closed;
//   - the five gits an `orchard remove` runs, with the same arguments (everyday.mjs checks the list
//     against `ORCHARD_TRACE=1` of a real remove): the repository located, its remotes, the worktree's
//     status, its refs, the branch deleted;
//   - the tree renamed into a trash directory, its admin dir deleted, and one detached `rm -rf` of it.
// Not here, and paid by every real remove: the registry's schema check and lock, the process scan
// (liveness), the index and HEAD reads, the trash journal, the proofs' own logic, the output.
// Argument: one JSON object { sqlite: {lib, addon, file}, primary, gitDir, worktree, branch, trash }.
"use strict";
const { spawnSync, spawn } = require("node:child_process");
const { mkdirSync, renameSync, rmSync } = require("node:fs");
const { basename, join } = require("node:path");

const job = JSON.parse(process.argv[2]);
const Database = require(job.sqlite.lib);
const db = new Database(job.sqlite.file, { nativeBinding: job.sqlite.addon });
db.pragma("journal_mode = WAL");
db.pragma("synchronous = NORMAL");
db.exec("CREATE TABLE IF NOT EXISTS worktrees (path TEXT PRIMARY KEY, lifecycle TEXT)");
db.prepare("SELECT * FROM worktrees WHERE path = ?").get(job.worktree);

/** A git pinned to a git dir and a work tree, as Orchard runs each (`--git-dir`, `--work-tree`). */
const pinned = (gitDir, workTree, ...args) => {
  const r = spawnSync("git", [`--git-dir=${gitDir}`, `--work-tree=${workTree}`, ...args], { cwd: workTree, encoding: "utf8" });
  if (r.status !== 0) throw new Error(`git ${args[0]} exited ${r.status}: ${r.stderr}`);
  return r.stdout;
};
const admin = join(job.gitDir, "worktrees", basename(job.worktree));
const git = (...args) => pinned(job.gitDir, job.primary, ...args);
git("rev-parse", "--path-format=absolute", "--git-common-dir", "--git-dir", "--is-bare-repository");
git("config", "-z", "--get-regexp", "^remote\\.");
pinned(admin, job.worktree, "status", "--porcelain=v2", "-z", "--branch", "--untracked-files=all", "--ignore-submodules=dirty", "--ignored=matching");
const ref = `refs/heads/${job.branch}`;
const refs = git(
  "for-each-ref",
  "--format=%(refname)%00%(objectname)%00%(upstream)%00%(upstream:track)%00%(symref)",
  "--",
  ref,
  "refs/heads/main",
  "refs/remotes",
);
const sha = refs
  .split("\n")
  .map((line) => line.split("\0"))
  .find(([name]) => name === ref)?.[1];
if (!sha) throw new Error(`${ref}: not among the refs`);

const entry = join(job.trash, `floor-${process.pid}`);
mkdirSync(entry, { recursive: true });
renameSync(job.worktree, join(entry, "tree"));
rmSync(admin, { recursive: true, force: true });
git("update-ref", "-d", "--end-of-options", ref, sha);
db.prepare("INSERT OR REPLACE INTO worktrees (path, lifecycle) VALUES (?, 'removed')").run(job.worktree);
db.close();
spawn("/bin/sh", ["-c", 'rm -rf -- "$1"', "orchard-floor-purge", entry], { detached: true, stdio: "ignore" }).unref();
