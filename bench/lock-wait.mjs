#!/usr/bin/env node
// How long an `add` waits while a long `cleanup run` works (issue 25 item 2): N released worktrees,
// `cleanup run` started, and once its first removal is seen, `orchard add` of a new branch is
// timed — against an add beside the same fleet before the run and against one item's removal (`git worktree remove`
// of a worktree like them). Goal: the add's extra wait ≤ one removal (the items in flight run
// together, four at a time). --adds K adds, one after another, while the run works (median and
// worst reported). The fleet is made through the library. Usage: npm run build && node
// bench/lock-wait.mjs [--n 40] [--adds 5] [--json]
import { execFileSync, spawn, spawnSync } from "node:child_process";
import { existsSync, rmSync } from "node:fs";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { hermeticRoot } from "./_hermetic.mjs";

const arg = (name, fallback) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : fallback;
};
const N = arg("n", 40);
const ADDS = arg("adds", 5);
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
/**
 * An add traced (ORCHARD_TRACE=1): the time it waited for the mutation lock, read from its own
 * trace — an add that finds the lock held lists the worktrees without it, waits, and lists again
 * once it holds it: the wait is the gap between the end of the first listing and the start of
 * the second (0 when it listed once: the lock was free).
 */
function tracedAdd(branch) {
  const r = spawnSync(process.execPath, [CLI, "--home", home, "--repo", primary, "--json", "add", branch, "--owner", "bench", "--no-bootstrap"], {
    encoding: "utf8",
    env: { ...process.env, ORCHARD_TRACE: "1" },
  });
  if (r.status !== 0) throw new Error(`orchard add ${branch}: ${r.stdout}${r.stderr}`);
  const lists = r.stderr
    .split("\n")
    .filter((l) => l.startsWith('[orchard trace] git ["worktree","list"'))
    .map((l) => /-> \S+ (\d+)ms from \+(\d+)ms/.exec(l))
    .filter(Boolean)
    .map((m) => ({ took: Number(m[1]), from: Number(m[2]) }));
  return lists.length < 2 ? 0 : lists[1].from - (lists[0].from + lists[0].took);
}

git(root, "init", "-q", "-b", "main", primary);
for (let i = 0; i < 20; i++) execFileSync("sh", ["-c", `echo line ${i} > f${i}.txt`], { cwd: primary });
git(primary, "add", "-A");
git(primary, "commit", "-q", "-m", "initial");

// one removal, as git does it: the floor of what an add may wait for
git(primary, "worktree", "add", "-q", "-b", "probe", join(root, "probe"));
let start = process.hrtime.bigint();
git(primary, "worktree", "remove", "--force", join(root, "probe"));
const removal = ms(start);

// the fleet through the library's own add and release (the CLI per item would take minutes at 1,000)
const { Orchard } = await import(resolve(CLI, "../../index.js"));
const lib = await Orchard.open({ repo: primary, home });
const paths = [];
for (let i = 0; i < N; i++) {
  const w = await lib.add({ branch: `done-${i}`, owner: "bench", bootstrap: false });
  await lib.release({ target: w.handle, owner: "bench" });
  paths.push(w.path);
}
await lib.close();
// the quiet adds beside the same N siblings (an add lists every worktree and reads every ref)
const quiet = [];
for (let k = 0; k < 3; k++) {
  start = process.hrtime.bigint();
  orchard("add", `quiet-add-${k}`, "--owner", "bench", "--no-bootstrap");
  quiet.push(ms(start));
}
const quietAdd = quiet.sort((a, b) => a - b)[1];
const cleanup = spawn(process.execPath, [CLI, "--home", home, "--repo", primary, "--json", "cleanup", "run"], { stdio: "ignore" });
let running = true;
cleanup.on("close", () => (running = false));
const cleanupStart = process.hrtime.bigint();
while (paths.every((p) => existsSync(p))) await new Promise((r) => setTimeout(r, 5));
// ADDS adds while the run works, one after another, each as soon as the one before answered
const busy = [];
for (let k = 0; k < ADDS && running; k++) {
  start = process.hrtime.bigint();
  const lockWait = tracedAdd(`busy-add-${k}`);
  busy.push({ ms: ms(start), lockWait, removedAtAnswer: paths.filter((p) => !existsSync(p)).length });
  await new Promise((r) => setTimeout(r, 200));
}
await new Promise((r) => (running ? cleanup.on("close", r) : r()));
const cleanupMs = ms(cleanupStart);
const busyAdd = busy.map((b) => b.ms).sort((a, b) => a - b)[Math.floor(busy.length / 2)] ?? NaN;
const worstAdd = Math.max(...busy.map((b) => b.ms));
const removedAtAnswer = busy[0]?.removedAtAnswer ?? 0;
const lockWaits = busy.map((b) => b.lockWait).sort((a, b) => a - b);
const lockWait = lockWaits[Math.floor(lockWaits.length / 2)] ?? NaN;
const worstLockWait = Math.max(...lockWaits);

const wait = Math.max(0, busyAdd - quietAdd);
// one item as the run does it (four in flight): its wall time
const itemMs = (cleanupMs * 4) / N;
const result = {
  n: N,
  removalMs: removal,
  itemMs,
  quietAddMs: quietAdd,
  busyAddMs: busyAdd,
  worstAddMs: worstAdd,
  lockWaitMs: lockWait,
  worstLockWaitMs: worstLockWait,
  busy,
  extraWaitMs: wait,
  cleanupMs,
  removedAtAnswer,
  goal: "extra wait ≤ 1 item",
};
if (JSON_OUT) process.stdout.write(JSON.stringify(result) + "\n");
else {
  const f = (x) => `${x.toFixed(0)} ms`;
  process.stdout.write(
    `${busy.length} adds during cleanup run of ${N}: median ${f(busyAdd)}, worst ${f(worstAdd)} (quiet add ${f(quietAdd)}); median extra wait ${f(wait)} = ${(wait / itemMs).toFixed(2)}× one item of the run (${f(itemMs)}, four in flight; goal ≤ 1.0×), ${(wait / removal).toFixed(2)}× one bare git worktree remove (${f(removal)})\n` +
      `  the lock itself (from each add's trace): median ${f(lockWait)} = ${(lockWait / itemMs).toFixed(2)}× one item, worst ${f(worstLockWait)} = ${(worstLockWait / itemMs).toFixed(2)}× (waits: ${lockWaits.map((w) => Math.round(w)).join(", ")} ms)\n` +
      `  worst extra wait ${f(Math.max(0, worstAdd - quietAdd))} = ${(Math.max(0, worstAdd - quietAdd) / itemMs).toFixed(2)}× one item; the cleanup had removed ${removedAtAnswer} of ${N} when the first add answered; the whole run took ${f(cleanupMs)}\n`,
  );
}
rmSync(root, { recursive: true, force: true });
