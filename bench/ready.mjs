#!/usr/bin/env node
// Time to ready on a real public lockfile (issue 50 item 1): the dependency set of mocha
// 12.0.0-rc.6 and its development tools, every top-level version pinned exactly, locked by npm from
// the registry (bench/fixtures/ready: 726 lockfile entries),
// pinned here. Side by side, interleaved (plain, orchard, plain, orchard …): plain `git worktree
// add` + `npm ci` against `orchard add` with `bootstrap.share: ["node_modules"]`, ready = installed
// (the command returned with node_modules in place). Worktree 1 of orchard installs and keeps the
// copy; worktrees 2..N take it from the copy. Ratios: orchard's first add against the median plain
// ready (goal ≤ 1.1×), the median of orchard's 2..N against the same (goal ≤ 0.2×). The bootstrap
// steps of each add are shown (install, `share: keep`, `share`) and what the add spent outside them.
// Usage: npm run build && node bench/ready.mjs [--ready-n 4] [--method auto|clone|hardlink|copy]
//        [--home-dir <dir on the filesystem to measure, e.g. a loop-mounted XFS>] [--json]
//        [--base <another build's dist/bin/orchard.js>: its adds too, in the same rounds (A/B), with a home of its own]
// Each add's CPU (user + sys, its children included) is read beside its wall time: under load the
// wall time of a run moves more than the change being measured.
// Env: ORCHARD_BENCH_READY_N (N when --ready-n is not given). `npm run bench -- ready` runs it.
import { execFileSync, spawnSync } from "node:child_process";
import { copyFileSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { homedir, loadavg } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { hermeticRoot } from "./_hermetic.mjs";

const arg = (name, fallback) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1] : fallback;
};
const N = Number(arg("ready-n", process.env.ORCHARD_BENCH_READY_N ?? 4)); // not --n: that flag is the fleet size of the other scripts
const METHOD = arg("method", "auto");
const JSON_ONLY = process.argv.includes("--json");
const NPM_CACHE = process.env.npm_config_cache || join(homedir(), ".npm"); // the warm cache, before HOME moves
const here = dirname(fileURLToPath(import.meta.url));
const CLI = join(resolve(here, ".."), "dist", "bin", "orchard.js");
const BASE = arg("base", null) ? resolve(arg("base")) : null;
const FIXTURE = join(here, "fixtures", "ready");

const root = hermeticRoot("ready", { ORCHARD_TRUST: "1", npm_config_cache: NPM_CACHE, npm_config_update_notifier: "false" });
const parent = join(arg("home-dir", root), `orchard-ready-${process.pid}`);
const home = join(parent, "home");
const baseHome = join(parent, "home-base");
const plainDir = join(parent, "plain");
mkdirSync(home, { recursive: true });
if (BASE) mkdirSync(baseHome, { recursive: true });
mkdirSync(plainDir, { recursive: true });
const git = (cwd, ...args) => execFileSync("git", args, { cwd, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] }).trim();
const INSTALL = "npm ci --ignore-scripts --no-audit --no-fund --prefer-offline";

function makeRepo() {
  const primary = join(root, "app");
  git(root, "init", "-q", "-b", "main", primary);
  for (const f of ["package.json", "package-lock.json"]) copyFileSync(join(FIXTURE, f), join(primary, f));
  writeFileSync(join(primary, ".gitignore"), "node_modules/\n");
  git(primary, "add", "-A");
  git(primary, "commit", "-q", "-m", "the pinned lockfile");
  const bootstrap = { run: [INSTALL], inputs: ["package-lock.json"], share: ["node_modules"], shareMethod: METHOD };
  writeFileSync(join(primary, ".orchard.json"), JSON.stringify({ bootstrap }) + "\n");
  writeFileSync(join(primary, ".git", "info", "exclude"), ".orchard.json\n");
  return primary;
}

/** Children's CPU (user + sys) of this process so far, in ms: what the waited-for children and theirs spent. */
function childCpuMs() {
  const f = readFileSync("/proc/self/stat", "utf8").split(") ")[1].split(" ");
  return ((Number(f[13]) + Number(f[14])) * 1000) / 100; // cutime, cstime (fields 16, 17), in clock ticks of 1/100 s
}

function timed(cmd, args, cwd) {
  const started = performance.now();
  const cpu0 = childCpuMs();
  const r = spawnSync(cmd, args, { cwd, encoding: "utf8", maxBuffer: 64 * 1024 * 1024 });
  const ms = performance.now() - started;
  if (r.status !== 0) throw new Error(`${cmd} ${args.join(" ")}: exit ${r.status}\n${r.stdout}\n${r.stderr}`);
  return { ms, cpu: childCpuMs() - cpu0, stdout: r.stdout };
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const s = (ms) => `${(ms / 1000).toFixed(2)} s`;
const primary = makeRepo();

/** Plain: `git worktree add` + `npm ci`, timed together; the worktree is removed afterwards (not timed). */
function plain(i) {
  const dir = join(plainDir, `plain-${i}`);
  const add = timed("git", ["worktree", "add", "-q", "-b", `plain-${i}`, dir], primary);
  const ci = timed("sh", ["-c", INSTALL], dir);
  rmSync(dir, { recursive: true, force: true });
  git(primary, "worktree", "prune");
  return { ms: add.ms + ci.ms, cpu: add.cpu + ci.cpu };
}

/** `orchard add` (whole process): its wall time and the bootstrap steps that took time. */
function orchard(i, cli = CLI, at = home, prefix = "wt") {
  const r = timed(process.execPath, [cli, "--home", at, "--repo", primary, "--json", "add", `${prefix}-${i}`], primary);
  const json = JSON.parse(r.stdout);
  const steps = json.bootstrap.steps.filter((st) => st.status === "ran");
  const install = steps.find((st) => st.name.startsWith("run: "))?.ms ?? 0;
  const keep = steps.find((st) => st.name === "share: keep")?.ms ?? 0;
  const share = steps.find((st) => st.name === "share")?.ms ?? 0;
  const stepsMs = steps.reduce((sum, st) => sum + st.ms, 0);
  return { ms: r.ms, cpu: r.cpu, status: json.bootstrap.status, method: json.bootstrap.share?.method ?? null, install, keep, share, outside: r.ms - stepsMs };
}

const load = [loadavg()[0]];
const plains = [];
const adds = [];
const bases = [];
for (let i = 1; i <= N; i++) {
  // the order turns each round, so no one always runs on another's warm pages
  const turn = [() => plains.push(plain(i)), () => adds.push(orchard(i))];
  if (BASE) turn.push(() => bases.push(orchard(i, BASE, baseHome, "base")));
  for (let k = 0; k < turn.length; k++) turn[(k + i - 1) % turn.length]();
  load.push(loadavg()[0]);
}
for (const runs of [adds, bases].filter((r) => r.length))
  if (runs[0].status !== "ran" || runs.slice(1).some((a) => a.status !== "shared")) throw new Error(`unexpected bootstrap: ${JSON.stringify(runs)}`);
const fs = execFileSync("df", ["--output=fstype", home], { encoding: "utf8" }).trim().split("\n").pop();
const plainMs = median(plains.map((p) => p.ms));
const plainCpu = median(plains.map((p) => p.cpu));
/** One build's adds against the plain runs: wall and CPU ratios of the first and of the median of 2..N. */
function summary(runs) {
  const later = runs.slice(1);
  return {
    used: later[0]?.method ?? runs[0].method,
    firstMs: Math.round(runs[0].ms),
    firstRatio: +(runs[0].ms / plainMs).toFixed(3),
    firstCpuRatio: +(runs[0].cpu / plainCpu).toFixed(3),
    laterMedianMs: Math.round(median(later.map((a) => a.ms))),
    laterRatio: +(median(later.map((a) => a.ms)) / plainMs).toFixed(3),
    laterCpuRatio: +(median(later.map((a) => a.cpu)) / plainCpu).toFixed(3),
    adds: runs.map((a) => ({ ...a, ms: Math.round(a.ms), cpu: Math.round(a.cpu), outside: Math.round(a.outside) })),
  };
}
const result = {
  fixture: "mocha 12.0.0-rc.6's dependency set (726 lockfile entries)",
  n: N,
  method: METHOD,
  filesystem: fs,
  load: [Math.min(...load), Math.max(...load)].map((l) => +l.toFixed(1)),
  plainMedianMs: Math.round(plainMs),
  plainMedianCpuMs: Math.round(plainCpu),
  plain: plains.map((p) => ({ ms: Math.round(p.ms), cpu: Math.round(p.cpu) })),
  ...summary(adds),
  ...(BASE ? { base: { cli: BASE, ...summary(bases) } } : {}),
};
if (JSON_ONLY) console.log(JSON.stringify(result));
else {
  console.log(`mocha 12.0.0-rc.6's dependency set (726 lockfile entries), ${METHOD} on ${fs}, N = ${N}, load ${result.load.join("–")}`);
  console.log(`plain worktree add + npm ci: median ${s(plainMs)}, CPU ${s(plainCpu)} (${plains.map((p) => `${s(p.ms)} / CPU ${s(p.cpu)}`).join(", ")})`);
  const show = (name, r) => {
    const f = r.adds[0];
    const later = r.adds.slice(1);
    console.log(
      `${name} add 1: ${s(f.ms)} → ${r.firstRatio}× of plain (goal ≤ 1.1×), CPU ${s(f.cpu)} → ${r.firstCpuRatio}×: install ${s(f.install)}, share: keep ${s(f.keep)}, outside the steps ${s(f.outside)}`,
    );
    console.log(
      `${name} add 2..${N} (used ${r.used}): median ${s(r.laterMedianMs)} → ${r.laterRatio}× of plain (goal ≤ 0.2×), CPU ${r.laterCpuRatio}×: ` +
        later.map((a) => `${s(a.ms)} / CPU ${s(a.cpu)} (share ${s(a.share)}, outside ${s(a.outside)})`).join(", "),
    );
  };
  show("orchard", result);
  if (BASE) show("base", result.base);
}
rmSync(parent, { recursive: true, force: true });
rmSync(root, { recursive: true, force: true });
