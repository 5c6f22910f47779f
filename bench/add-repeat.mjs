#!/usr/bin/env node
// `orchard add`'s exact repeat (and, with --create, a create) of one build against another and against
// `git worktree add`, interleaved in one run (the order rotating each round), on one fleet kept between
// runs: wall and CPU (user + sys, the waited-for children's included, read from /proc). The fleet is a
// 2,000-file repository with N worktrees added by `git worktree add --no-checkout` and adopted with a task
// and an owner (a third released): the listing, the rows and the admin dirs of a fleet of N, built in
// minutes instead of N checkouts; the repeated worktree itself is a full checkout made by `orchard add`.
// Each baseline worktree is removed after it is timed, each create removed after it is timed (release,
// remove), so the fleet stays at N; the untimed remove's detached purge is waited for (the trash empty) before the
// next sample, so it never lands in another call's time.
//   npm run build && node bench/add-repeat.mjs --base <other build's dist/bin/orchard.js> [--n 200] [--rounds 21]
//     [--fleet <dir> (kept; built there when absent)] [--create]
import { execFileSync, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { cpus, loadavg } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { hermeticRoot } from "./_hermetic.mjs";
import { drain } from "./_measure.mjs";

const here = dirname(fileURLToPath(import.meta.url));
const flag = (name, fallback) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1] : fallback;
};
const N = Number(flag("n", 200));
const ROUNDS = Number(flag("rounds", 21));
const CLI = resolve(flag("cli", join(here, "../dist/bin/orchard.js")));
const BASE = flag("base", null) === null ? null : resolve(flag("base", null));
const CREATE = process.argv.includes("--create");
if (BASE === null) throw new Error("--base <the other build's dist/bin/orchard.js> is required");

const root = flag("fleet", null) === null ? hermeticRoot("add-repeat") : resolve(flag("fleet", null));
if (flag("fleet", null) !== null) {
  mkdirSync(root, { recursive: true });
  hermeticRoot("add-repeat-env"); // the hermetic environment; the fleet is kept in `root`
  process.env.HOME = root;
  process.env.GIT_CONFIG_GLOBAL = join(root, "gitconfig");
}
const say = (line) => process.stderr.write(`${line}\n`);
const git = (cwd, ...args) => execFileSync("git", args, { cwd, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] }).trim();
const primary = join(root, "app");
const home = join(root, "home");
const orchardSync = (cli, ...args) => execFileSync(process.execPath, [cli, "--home", home, ...args], { cwd: primary, encoding: "utf8" });

function buildFleet() {
  writeFileSync(join(root, "gitconfig"), "");
  const origin = join(root, "origin.git");
  git(root, "init", "-q", "--bare", "-b", "main", origin);
  git(root, "init", "-q", "-b", "main", primary);
  for (let d = 0; d < 20; d++) {
    mkdirSync(join(primary, "src", `d${d}`), { recursive: true });
    for (let f = 0; f < 100; f++) writeFileSync(join(primary, "src", `d${d}`, `f${f}.ts`), `export const v${f} = ${d * 1000 + f};\n`.repeat(20));
  }
  git(primary, "add", "-A");
  git(primary, "commit", "-q", "-m", "initial");
  git(primary, "remote", "add", "origin", origin);
  git(primary, "push", "-q", "-u", "origin", "main");
  git(primary, "remote", "set-head", "origin", "main");
  for (let i = 0; i < N; i++) {
    const path = join(root, "fleet", `w${i}`);
    git(primary, "worktree", "add", "-q", "--no-checkout", "-b", `fleet/w${i}`, path, "main");
    const { handle } = JSON.parse(orchardSync(CLI, "--json", "adopt", path, "--owner", `agent-${i}`, "--task", `T-${i}`));
    if (i % 3 === 0) orchardSync(CLI, "release", handle, "--owner", `agent-${i}`);
    if (i % 50 === 49) say(`  ${i + 1} of ${N}`);
  }
  orchardSync(CLI, "--json", "add", "bench/adopt", "--owner", "bench");
}
if (!existsSync(join(home, "worktrees"))) {
  say(`building a fleet of ${N} worktrees in ${root}…`);
  buildFleet();
}

const TICK_MS = 1000 / Number(execFileSync("getconf", ["CLK_TCK"], { encoding: "utf8" }).trim() || 100);
function cpuNow() {
  const f = readFileSync("/proc/self/stat", "utf8").split(") ")[1].split(" ");
  return (Number(f[11]) + Number(f[12]) + Number(f[13]) + Number(f[14])) * TICK_MS;
}
function timed(cmd, args) {
  const c = cpuNow();
  const t = performance.now();
  const r = spawnSync(cmd, args, { cwd: primary, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] });
  const wall = performance.now() - t;
  const cpu = cpuNow() - c;
  if (r.status !== 0) throw new Error(`${cmd} ${args.join(" ")} exited ${r.status}: ${r.stderr}`);
  return { wall, cpu, out: r.stdout };
}
const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

let made = 0;
function create(cli) {
  const r = timed(process.execPath, [cli, "--home", home, "--json", "add", `create/c${process.pid}-${made++}`, "--owner", "bench", "--no-bootstrap"]);
  const { handle } = JSON.parse(r.out);
  orchardSync(CLI, "release", handle, "--owner", "bench");
  orchardSync(CLI, "remove", handle);
  drain(home); // its detached purge ends before the next sample starts
  return r;
}
const repeat = (cli) => timed(process.execPath, [cli, "--home", home, "--json", "add", "bench/adopt", "--owner", "bench"]);
let plain = 0;
function gitWorktreeAdd() {
  const i = plain++;
  const path = join(root, "plain", `g${process.pid}-${i}`);
  const r = timed("git", ["worktree", "add", "-q", "-b", `plain/g${process.pid}-${i}`, path, "main"]);
  git(primary, "worktree", "remove", "--force", path);
  // not `git branch -D`: it rewrites .git/config (its section, even when there is none), and every repeat after it
  // would vet the changed config again (three gits more than the repeat the table's adopt row times)
  git(primary, "update-ref", "-d", `refs/heads/plain/g${process.pid}-${i}`);
  return r;
}
const kinds = {
  base: () => (CREATE ? create(BASE) : repeat(BASE)),
  this: () => (CREATE ? create(CLI) : repeat(CLI)),
  git: gitWorktreeAdd,
};
const order = Object.keys(kinds);
const samples = Object.fromEntries(order.map((k) => [k, []]));
for (const k of order) kinds[k](); // warm-up, not counted
const loadAtStart = loadavg()[0];
for (let r = 0; r < ROUNDS; r++) for (const k of [...order.slice(r % 3), ...order.slice(0, r % 3)]) samples[k].push(kinds[k]());
const ratio = (a, b, field) => median(samples[a].map((x, i) => x[field] / samples[b][i][field]));
const out = {
  what: CREATE ? "create" : "exact repeat",
  n: N,
  rounds: ROUNDS,
  cpus: cpus().length,
  load: [loadAtStart, loadavg()[0]].map((x) => Math.round(x * 10) / 10),
  ...Object.fromEntries(order.map((k) => [k, { wall: Math.round(median(samples[k].map((x) => x.wall))), cpu: median(samples[k].map((x) => x.cpu)) }])),
};
for (const field of ["wall", "cpu"])
  out[`ratios (${field}, median of paired)`] = {
    "base / git": Math.round(ratio("base", "git", field) * 100) / 100,
    "this / git": Math.round(ratio("this", "git", field) * 100) / 100,
    "this / base": Math.round(ratio("this", "base", field) * 100) / 100,
  };
console.log(JSON.stringify(out, null, 2));
