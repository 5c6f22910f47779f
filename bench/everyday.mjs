#!/usr/bin/env node
// The verbs a person types by hand (issue 48), in CPU time (user + sys of the command and its
// children), each against its baseline in the same run, A B A B …, as the median of the pairwise
// ratios, with the goal beside it:
//   path         `orchard path T-17` (what every `orchard cd` runs), 40 worktrees   vs `node -e 0`        ≤ 1.3×
//   complete     `orchard __complete handles` (one TAB), 40 worktrees              vs `node -e 0`        ≤ 1.3×
//   remove-40    `orchard remove <one clean released worktree>`, 40 worktrees      vs `node -e 0` then `git worktree remove`  ≤ 2×
//   remove-400   the same at 400 worktrees                                          vs the same           ≤ 2×
//   remove-*-floor  beside each remove row, not a goal: the design's floor, a bare script that does only
//                what a remove cannot do without (a node start, better-sqlite3 and one write, the same
//                five gits, the tree to the trash and one rm; bench/_remove-floor.cjs), vs the same baseline
// path, complete: CPU is read from /proc (this process's waited-for children), in clock ticks: each
// sample runs a call BATCH times in a row (default 5) and divides, so a tick (10 ms) is a fraction of
// a call. Neither starts a process it does not wait for.
// remove rows: `orchard remove` answers and leaves the deletion of the tree to a detached purger,
// which /proc's waited-for accounting never sees, while the baseline's `git worktree remove` deletes
// inline. So each call (ours and the baseline's alike) runs in a cgroup of its own making (bench/_cgroup.mjs; as root:
// cgroup v1 `cpuacct`, else cgroup v2 `cpu.stat`): `sh -c 'echo $$ > <cgroup>/cgroup.procs && exec
// "$@"' <command>` puts the call in before it starts; the bench then waits until cgroup.procs is
// empty (every process the call started, detached ones included, has ended) and reads the group's
// CPU (cpuacct.usage, ns; usage_usec). The wrapper's own shell (measured at the start, ≈ 1 ms, the
// same for every call) is subtracted. Where no cgroup can be made, the bench says so loudly, the
// remove rows are marked "purge NOT counted", and each call still waits for the trash to drain.
// Linux only (the /proc accounting). The repository has FILES files (default 200: 400 worktrees
// are checked out for the remove rows).
// --cli <orchard.js> measures another build (default: this tree's dist); --base <orchard.js> runs another
// build (e.g. main's) against the same fleet: for path and complete its rows beside this build's, pair by pair
// (A = this build, B = the base, then each against `node -e 0`); for the remove rows its remove in the same
// samples (this build, the other, the baseline, in turn), so an A/B of two builds shares one fleet and one load.
// `--no-cgroup`: the remove rows as where no cgroup can be made (the purge not counted), to compare.
// `--plain-over N`: only N worktrees of the remove rows are managed, the rest plain `git worktree add`s.
//   npm run build && node bench/everyday.mjs [--runs 7] [--batch 5] [--files 200] [--big 400] [--only path,remove] [--base <orchard.js>] [--plain-over 40] [--no-cgroup] [--json]
import { execFileSync, spawnSync } from "node:child_process";
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { cpus, loadavg } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { hermeticRoot } from "./_hermetic.mjs";
import { counter } from "./_cgroup.mjs";
import { cpuNow, median } from "./_measure.mjs";

const here = dirname(fileURLToPath(import.meta.url));
const flag = (name, fallback) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1] : fallback;
};
const RUNS = Math.max(5, Number(flag("runs", 7)));
const BATCH = Math.max(1, Number(flag("batch", 5)));
const FILES = Number(flag("files", 200));
const BIG = Number(flag("big", 400));
const CLI = resolve(flag("cli", join(here, "../dist/bin/orchard.js")));
const BASE = flag("base", "") ? resolve(flag("base", "")) : null;
const PLAIN_OVER = flag("plain-over", null) === null ? null : Number(flag("plain-over", null));
const VERSUS = BASE; // the remove rows' other build
const ONLY = flag("only", "").split(",").filter(Boolean);
const JSON_OUT = process.argv.includes("--json");
// a name ending in a digit is one row (`remove-40` is not `remove-400`); otherwise a prefix (`remove`: both)
// (a remove row's floor, `remove-40-floor`, comes with its row)
const wanted = (id) => {
  const row = id.replace(/-floor$/, "");
  return ONLY.length === 0 || ONLY.some((w) => row === w || (!/\d$/.test(w) && row.startsWith(w)));
};
const say = (line) => process.stderr.write(`${line}\n`);
const loadAtStart = loadavg().map((x) => Math.round(x * 10) / 10);

const root = hermeticRoot("everyday");
const git = (cwd, ...args) => execFileSync("git", args, { cwd, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] }).trim();

function makeRepo(dir) {
  const origin = join(dir, "origin.git");
  const primary = join(dir, "app");
  mkdirSync(dir, { recursive: true });
  git(dir, "init", "-q", "--bare", "-b", "main", origin);
  git(dir, "init", "-q", "-b", "main", primary);
  for (let d = 0; d < 10; d++) {
    mkdirSync(join(primary, "src", `d${d}`), { recursive: true });
    for (let f = 0; f < FILES / 10; f++) writeFileSync(join(primary, "src", `d${d}`, `f${f}.ts`), `export const v${f} = ${d * 1000 + f};\n`.repeat(20));
  }
  git(primary, "add", "-A");
  git(primary, "commit", "-q", "-m", "initial");
  git(primary, "remote", "add", "origin", origin);
  git(primary, "push", "-q", "-u", "origin", "main");
  git(primary, "remote", "set-head", "origin", "main");
  return { primary, home: join(dir, "home") };
}

/** A repository with `n` managed worktrees (every third released), `task` T-<i> each; with `--plain-over 40`, only
 * the first 40 are managed and the rest plain `git worktree add`s (git's listing and admin dirs grow as much; the
 * registry does not: a quick fleet on a loaded machine, where 400 adds take most of an hour). */
function fleet(name, n) {
  const repo = makeRepo(join(root, name));
  const managed = Math.min(n, PLAIN_OVER ?? n);
  say(`${name}: building ${managed} managed and ${n - managed} plain worktrees…`);
  for (let i = managed; i < n; i++) git(repo.primary, "worktree", "add", "-q", "-b", `fill/w${i}`, join(root, `${name}-fill`, `w${i}`), "main");
  for (let i = 0; i < managed; i++) {
    const handle = cli(repo, ["--json", "add", `fleet/w${i}`, "--owner", `agent-${i}`, "--task", `T-${i}`]).handle;
    if (i % 3 === 0) cli(repo, ["release", handle, "--owner", `agent-${i}`]);
  }
  return repo;
}
function cli({ primary, home }, args) {
  const out = execFileSync(process.execPath, [CLI, "--home", home, ...args], { cwd: primary, encoding: "utf8" });
  return args.includes("--json") ? JSON.parse(out) : out;
}

/** CPU ms of `calls` (each [cmd, args]) run one after another in `cwd`, divided by `per` (default: per call); throws on a failure. */
function cpuOf(cwd, calls, per = calls.length) {
  const before = cpuNow();
  for (const [cmd, args] of calls) {
    const r = spawnSync(cmd, args, { cwd, stdio: ["ignore", "ignore", "pipe"], encoding: "utf8" });
    if (r.status !== 0) throw new Error(`${cmd} ${args.join(" ")} exited ${r.status}: ${r.stderr}`);
  }
  return (cpuNow() - before) / per;
}

const REMOVES = wanted("remove-40") || wanted(`remove-${BIG}`);
const CG = REMOVES ? counter("remove rows", !process.argv.includes("--no-cgroup")) : null;
/** CPU ms of `calls`, each with every process it starts until they all end (a cgroup); without one, only the
 * waited-for processes, each call then waiting for the trash of `home` to drain (the purge not counted). Divided by `per`. */
const cpuOfAll = (cwd, home, calls, per = calls.length) => calls.reduce((sum, [cmd, args]) => sum + CG.call(cwd, cmd, args, { home }).cpu, 0) / per;

const rows = [];
/** `pair(i)` returns [A ms, B ms] (and, with --base, the other build's ms) of CPU per call; one warm-up pair, then RUNS counted. */
function row(id, measure, baseline, goal, pair) {
  if (!wanted(id)) return;
  say(`measuring ${id}…`);
  pair(-1);
  const a = [];
  const b = [];
  const v = [];
  for (let i = 0; i < RUNS; i++) {
    const [x, y, z] = pair(i);
    a.push(x);
    b.push(y);
    if (z !== undefined) v.push(z);
  }
  const r = { id, measure, baseline, goal, a: median(a), b: median(b), ratio: median(a.map((x, i) => x / b[i])), runs: RUNS, batch: BATCH };
  if (v.length > 0) Object.assign(r, { versus: median(v), versusRatio: median(v.map((z, i) => z / b[i])), aOverVersus: median(a.map((x, i) => x / v[i])) });
  rows.push(r);
  say(`  ${id}: ${r.a.toFixed(1)} ms vs ${r.b.toFixed(1)} ms, ${r.ratio.toFixed(2)}× (goal ${goal})`);
  if (r.versus !== undefined)
    say(`  ${id} --base: ${r.versus.toFixed(1)} ms, ${r.versusRatio.toFixed(2)}× the baseline; this build / that one ${r.aOverVersus.toFixed(2)}×`);
}

const node0 = () => Array.from({ length: BATCH }, () => [process.execPath, ["-e", "0"]]);
if (wanted("path") || wanted("complete")) {
  const small = fleet("path", 40);
  const calls = (cli, ...args) => Array.from({ length: BATCH }, () => [process.execPath, [cli, "--home", small.home, ...args]]);
  const orchard = (...args) => calls(CLI, ...args);
  row("path", "`orchard path T-17` (every `orchard cd`), 40 worktrees, CPU", "node -e 0", "≤ 1.3×", () => [
    cpuOf(small.primary, orchard("path", "T-17")),
    cpuOf(small.primary, node0()),
  ]);
  row("complete", "`orchard __complete handles` (one TAB), 40 worktrees, CPU", "node -e 0", "≤ 1.3×", () => [
    cpuOf(small.primary, orchard("__complete", "handles")),
    cpuOf(small.primary, node0()),
  ]);
  if (BASE) {
    const base = (...args) => calls(BASE, ...args);
    for (const [id, what, args] of [
      ["path", "`orchard path T-17`", ["path", "T-17"]],
      ["complete", "`orchard __complete handles`", ["__complete", "handles"]],
    ]) {
      row(`${id}-base`, `${what}, the base build (${BASE})`, "node -e 0", "", () => [cpuOf(small.primary, base(...args)), cpuOf(small.primary, node0())]);
      row(`${id}-ab`, `${what}, this build against the base build`, "the base build", "", () => [
        cpuOf(small.primary, orchard(...args)),
        cpuOf(small.primary, base(...args)),
      ]);
    }
  }
}

/** `orchard remove` of released worktrees, BATCH a sample, against `node -e 0` + `git worktree remove` of as many plain ones. */
function removeRow(n) {
  const id = `remove-${n}`;
  if (!wanted(id)) return;
  const repo = fleet(id, n);
  let made = 0;
  const released = () =>
    Array.from({ length: BATCH }, () => {
      const i = made++;
      const w = cli(repo, ["--json", "add", `gone/r${i}`, "--owner", "bench"]);
      cli(repo, ["release", w.handle, "--owner", "bench"]);
      return w.handle;
    });
  const plainWorktrees = () =>
    Array.from({ length: BATCH }, () => {
      const path = join(root, "plain", `${id}-${made++}`);
      const branch = `plain/${id}-${made}`;
      git(repo.primary, "worktree", "add", "-q", "-b", branch, path, "main");
      return { path, branch };
    });
  const plain = () => plainWorktrees().map((w) => w.path);
  const counted = CG.counted ? "CPU of every process it starts (cgroup), the purge included" : "CPU, purge NOT counted (no cgroup)";
  row(id, `\`orchard remove <one clean released worktree>\`, ${n} worktrees, ${counted}`, "node -e 0 + git worktree remove", "≤ 2×", (i) => {
    const handles = released();
    const paths = plain();
    const removes = (cli, hs) =>
      cpuOfAll(
        repo.primary,
        repo.home,
        hs.map((h) => [process.execPath, [cli, "--home", repo.home, "remove", h]]),
      );
    const other = VERSUS === null ? null : released();
    // with --base, the two builds take turns going first
    const first = other !== null && i % 2 !== 0 ? removes(VERSUS, other) : undefined;
    const a = removes(CLI, handles);
    const b = cpuOfAll(repo.primary, repo.home, [...node0(), ...paths.map((p) => ["git", ["worktree", "remove", p]])], BATCH); // a node start and a removal each
    return other === null ? [a, b] : [a, b, first ?? removes(VERSUS, other)];
  });
  if (CG.counted) split(id, repo, released, plain);
  floorRow(id, n, repo, released, plainWorktrees);
}

/** The gits of an `orchard remove`, in order, as `ORCHARD_TRACE=1` reports them: what _remove-floor.cjs runs too. */
const FLOOR_GITS = ["rev-parse", "config", "status", "for-each-ref", "update-ref"];

/**
 * The design's floor beside a remove row (bench/_remove-floor.cjs): a bare script doing the node start,
 * the SQLite write, the five gits and the purge a remove cannot do without, on a plain worktree of the
 * same fleet, against the same baseline. Not a goal: what no implementation of the design goes under.
 */
function floorRow(id, n, repo, released, plainWorktrees) {
  const traced = spawnSync(process.execPath, [CLI, "--home", repo.home, "remove", released()[0]], {
    cwd: repo.primary,
    encoding: "utf8",
    env: { ...process.env, ORCHARD_TRACE: "1" },
  });
  const gits = [...traced.stderr.matchAll(/^\[orchard trace\] git \["([^"]+)"/gm)].map((m) => m[1]);
  const same = gits.join(" ") === FLOOR_GITS.join(" ");
  if (!same) say(`NOTE: the floor runs ${FLOOR_GITS.join(", ")}; this build's remove ran ${gits.join(", ") || "no git"}: the floor row is not its floor`);
  const require = createRequire(import.meta.url);
  const sqlite = {
    lib: require.resolve("better-sqlite3/lib/database.js"),
    addon: join(dirname(require.resolve("better-sqlite3/package.json")), "build", "Release", "better_sqlite3.node"),
    file: join(root, `${id}-floor.db`),
  };
  const script = join(here, "_remove-floor.cjs");
  const job = (w) =>
    JSON.stringify({ sqlite, primary: repo.primary, gitDir: join(repo.primary, ".git"), worktree: w.path, branch: w.branch, trash: join(root, "floor-trash") });
  const what = `the design's floor at ${n} worktrees: a bare script, the same ${FLOOR_GITS.length} gits, one SQLite write, one rm (bench/_remove-floor.cjs)${same ? "" : ", NOT this build's gits"}`;
  row(`${id}-floor`, what, "node -e 0 + git worktree remove", "none: a floor", () => {
    const floors = plainWorktrees();
    const paths = plainWorktrees().map((w) => w.path);
    const a = cpuOfAll(
      repo.primary,
      repo.home,
      floors.map((w) => [process.execPath, [script, job(w)]]),
    );
    const b = cpuOfAll(repo.primary, repo.home, [...node0(), ...paths.map((p) => ["git", ["worktree", "remove", p]])], BATCH);
    return [a, b];
  });
}

/**
 * Where a remove's CPU goes (not a ratio: what the row's number is made of): the node process's own CPU
 * (its threads included, read at its exit by a preload, bench/_own-cpu.cjs), less a node start measured
 * with the same preload, and every other process it starts (the gits, the purge), against the baseline's
 * `git worktree remove`. Medians of RUNS calls.
 */
function split(id, repo, released, plain) {
  const file = join(root, "own-cpu");
  const own = (cmd, args) => {
    rmSync(file, { force: true });
    const env = { NODE_OPTIONS: `--require ${join(dirname(fileURLToPath(import.meta.url)), "_own-cpu.cjs")}`, BENCH_OWN_CPU_FILE: file };
    const saved = { ...process.env };
    Object.assign(process.env, env);
    try {
      const all = CG.call(repo.primary, cmd, args, { home: repo.home }).cpu;
      return { all, own: Number(readFileSync(file, "utf8").trim().split("\n")[0]) };
    } finally {
      process.env = saved;
    }
  };
  const samples = Array.from({ length: RUNS }, () => {
    const [h] = released().slice(0, 1);
    const [p] = plain().slice(0, 1);
    const orchard = own(process.execPath, [CLI, "--home", repo.home, "remove", h]);
    const start = own(process.execPath, ["-e", "0"]).own;
    const git = CG.call(repo.primary, "git", ["worktree", "remove", p]).cpu;
    return { process: orchard.own - start, children: orchard.all - orchard.own, start, git };
  });
  const m = (k) => median(samples.map((x) => x[k]));
  splits.push({ id, start: m("start"), process: m("process"), children: m("children"), git: m("git") });
}
const splits = [];
removeRow(40);
removeRow(BIG);

const loadAtEnd = loadavg().map((x) => Math.round(x * 10) / 10);
const info = {
  cpu: CG?.kind ?? "proc",
  wrapperMs: CG?.wrapperMs ?? 0,
  cpus: cpus().length,
  model: cpus()[0]?.model ?? "?",
  node: process.version,
  files: FILES,
  runs: RUNS,
  batch: BATCH,
  loadAtStart,
  loadAtEnd,
};
if (JSON_OUT) process.stdout.write(JSON.stringify({ machine: info, rows, splits }, null, 2) + "\n");
else {
  process.stdout.write(
    `\n${info.cpus} cores (${info.model}), node ${info.node}, load ${loadAtStart.join(" ")} → ${loadAtEnd.join(" ")}; ${FILES} files, ` +
      `medians of ${RUNS} samples of ${BATCH} calls, CPU (user + sys, children included` +
      (CG?.counted
        ? `; remove rows: every process a call starts, detached included, in a ${CG.kind} group, wrapper's ${CG.wrapperMs.toFixed(2)} ms subtracted`
        : "") +
      `)\n\n| measure | orchard | baseline | ratio | goal |\n| --- | --- | --- | --- | --- |\n`,
  );
  for (const r of rows)
    process.stdout.write(`| ${r.measure} | ${r.a.toFixed(1)} ms | ${r.b.toFixed(1)} ms (${r.baseline}) | ${r.ratio.toFixed(2)}× | ${r.goal} |\n`);
  if (splits.length > 0)
    process.stdout.write(
      `\nWhere a remove's CPU goes (medians of ${RUNS} calls; not a ratio):\n\n| row | node start | orchard's own process beyond it | its gits and purge | the baseline's git worktree remove |\n| --- | --- | --- | --- | --- |\n` +
        splits
          .map((x) => `| ${x.id} | ${x.start.toFixed(1)} ms | ${x.process.toFixed(1)} ms | ${x.children.toFixed(1)} ms | ${x.git.toFixed(1)} ms |\n`)
          .join(""),
    );
  for (const r of rows.filter((x) => x.versus !== undefined))
    process.stdout.write(
      `| ${r.measure}, --base ${VERSUS} | ${r.versus.toFixed(1)} ms | ${r.b.toFixed(1)} ms | ${r.versusRatio.toFixed(2)}× | this build / that one: ${r.aOverVersus.toFixed(2)}× |\n`,
    );
}
execFileSync("rm", ["-rf", root]);
