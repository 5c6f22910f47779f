#!/usr/bin/env node
// How long an `add` waits while a long `cleanup run` works (issue 25 item 2): N released worktrees,
// `cleanup run` started, and once its first removal is seen, `orchard add` of a new branch is
// timed — against an add on the quiet repo and against one item's removal (`git worktree remove`
// of a worktree like them). Goal: the add's extra wait ≤ one removal (the items in flight run
// together, four at a time). Usage: npm run build && node bench/lock-wait.mjs [--n 40] [--json]
import { execFileSync, spawn, spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { hermeticRoot } from "./_hermetic.mjs";

const arg = (name, fallback) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : fallback;
};
const N = arg("n", 40);
const JSON_OUT = process.argv.includes("--json");
const CLI = resolve(fileURLToPath(import.meta.url), "../../dist/bin/orchard.js");
const root = hermeticRoot("lock-wait");
const home = join(root, "home");
const primary = join(root, "app");
const git = (cwd, ...args) => execFileSync("git", args, { cwd, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] }).trim();
const orchard = (...args) => {
  const r = spawnSync(process.execPath, [CLI, "--home", home, "--repo", primary, "--json", ...args], { encoding: "utf8" });
  if (r.status !== 0) throw new Error(`orchard ${args.join(" ")}: ${r.stdout}${r.stderr}`);
  return JSON.parse(r.stdout);
};
const ms = (start) => Number(process.hrtime.bigint() - start) / 1e6;

git(root, "init", "-q", "-b", "main", primary);
for (let i = 0; i < 20; i++) execFileSync("sh", ["-c", `echo line ${i} > f${i}.txt`], { cwd: primary });
git(primary, "add", "-A");
git(primary, "commit", "-q", "-m", "initial");

// one removal, as git does it: the floor of what an add may wait for
git(primary, "worktree", "add", "-q", "-b", "probe", join(root, "probe"));
let start = process.hrtime.bigint();
git(primary, "worktree", "remove", "--force", join(root, "probe"));
const removal = ms(start);

start = process.hrtime.bigint();
orchard("add", "quiet-add", "--owner", "bench");
const quietAdd = ms(start);

const paths = [];
for (let i = 0; i < N; i++) {
  const w = orchard("add", `done-${i}`, "--owner", "bench");
  orchard("release", w.handle, "--owner", "bench");
  paths.push(w.path);
}
const cleanup = spawn(process.execPath, [CLI, "--home", home, "--repo", primary, "--json", "cleanup", "run"], { stdio: "ignore" });
const cleanupStart = process.hrtime.bigint();
while (paths.every((p) => existsSync(p))) await new Promise((r) => setTimeout(r, 5));
start = process.hrtime.bigint();
orchard("add", "busy-add", "--owner", "bench");
const busyAdd = ms(start);
const removedAtAnswer = paths.filter((p) => !existsSync(p)).length;
await new Promise((r) => cleanup.on("close", r));
const cleanupMs = ms(cleanupStart);

const wait = Math.max(0, busyAdd - quietAdd);
// one item as the run does it (four in flight): its wall time
const itemMs = (cleanupMs * 4) / N;
const result = {
  n: N,
  removalMs: removal,
  itemMs,
  quietAddMs: quietAdd,
  busyAddMs: busyAdd,
  extraWaitMs: wait,
  cleanupMs,
  removedAtAnswer,
  goal: "extra wait ≤ 1 item",
};
if (JSON_OUT) process.stdout.write(JSON.stringify(result) + "\n");
else {
  const f = (x) => `${x.toFixed(0)} ms`;
  process.stdout.write(
    `add during cleanup run of ${N}: ${f(busyAdd)} (quiet add ${f(quietAdd)}); extra wait ${f(wait)} = ${(wait / itemMs).toFixed(2)}× one item of the run (${f(itemMs)}, four in flight; goal ≤ 1.0×), ${(wait / removal).toFixed(2)}× one bare git worktree remove (${f(removal)})\n` +
      `  the cleanup had removed ${removedAtAnswer} of ${N} when the add answered; the whole run took ${f(cleanupMs)}\n`,
  );
}
