#!/usr/bin/env node
// The per-call cost table of issue 15: each row runs orchard (A) and its baseline (B) side by
// side, A B A B …, and reports both medians and the median of the pairwise ratios A/B (pairing
// keeps a ratio meaningful while the machine's speed drifts). Whole processes, wall time.
//   version   `orchard --version`                          vs `node -e 0`
//   create    `orchard add <new branch>`                   vs `git worktree add -b <new branch>`
//   adopt     `orchard add <same branch>` (exact repeat)   vs `git worktree add -b <new branch>`
//   list      `orchard list` over N worktrees              vs a sequential `git status -uall` loop
//   list-full `orchard list --full`                        vs the same loop
//   hygiene   `orchard hygiene` over N worktrees           vs the same loop; and, under the table, its CPU split:
//             Orchard's own process, the statuses it waits for, and the loop's (on few cores the wall is their sum over the cores)
//   reap      `orchard reap-orphans` of R dead merged ones vs a `git worktree remove -f -f` loop
//             (reap+: until the detached purge has deleted the trash as well). reap is wall time until the command
//             answers: the detached purge of the trash is outside it, by design; each sample then waits for the trash
//             to be empty before the baseline's loop and the next sample, so no purge lands in another call's time
//   mcp-*     one warm MCP server: orchard_add (adopt), orchard_heartbeat, orchard_status per call, each
//             in turn with floor-mcp on the fleet as it is then (bench/_mcp-rows.mjs); floor-mcp-sdk: a
//             server of the same SDK that runs a warm adopt's git and nothing else; floor-mcp-sdk-adopt: that
//             server also doing an adopt's own writes and scan (a lock file, every cwd, the lease in SQLite
//             and in the lock file): the warm add's floor
//   floor-*   what no per-call CLI here can go below, against the same baselines: the statuses `cores`
//             at a time; `node -e 0` then `git worktree list`; `node -e 0` then one `git status` (adopt);
//             `node -e 0` then `git worktree add` (create); `git worktree list` and one `git status` side by
//             side (floor-mcp); `orchard --help` (start: the bundle and its command line, no library)
//   floor-*-steps  a call's own git in its order, one shell (_steps-floor.mjs), with the row it floors
//   floor-adopt-start, floor-create-start  `orchard --help` (Orchard's start), then that call's own git: no command
//             line of Orchard's can cost less (the exact repeat's floor)
// The repository has FILES files (default 2,000). Usage:
//   npm run build && node bench/table.mjs [--n 20|50|200|400] [--runs 5] [--files 2000]
//     [--reap R (default min(50, N))] [--cli dist/bin/orchard.js] [--compare <cli>] [--json] [--only version,list]
// --cli measures another build of the CLI (e.g. main's, for a before/after). --compare <cli> also
// runs that build in the list, list-full, hygiene, create and adopt rows, A B A' in turn, reported
// as row `id~` against the same baseline: a before/after in one run, on the same fleet and the same load.
import { execFileSync, spawnSync } from "node:child_process";
import { mkdirSync, readFileSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { cpus, loadavg, totalmem } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { hermeticRoot } from "./_hermetic.mjs";
import { cpuNow, drain } from "./_measure.mjs";
import { STEPS, stepsScript } from "./_steps-floor.mjs";
import { mcpRows } from "./_mcp-rows.mjs";

const here = dirname(fileURLToPath(import.meta.url));
const flag = (name, fallback) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1] : fallback;
};
const N = Number(flag("n", 20));
const RUNS = Math.max(5, Number(flag("runs", 5)));
const FILES = Number(flag("files", 2000));
const REAP = Number(flag("reap", Math.min(50, N)));
const CLI = resolve(flag("cli", join(here, "../dist/bin/orchard.js")));
const COMPARE = flag("compare", null) === null ? null : resolve(flag("compare", null));
const JSON_OUT = process.argv.includes("--json");
const ONLY = flag("only", "").split(",").filter(Boolean);
const startOf = (row) => /^floor-(adopt|create)-start$/.exec(row)?.[1];
const wanted = (row) =>
  ONLY.length === 0 ||
  ONLY.some((w) => row.startsWith(w)) ||
  Object.entries(STEPS).some(([of, steps]) => steps === row && wanted(of)) ||
  (startOf(row) !== undefined && wanted(startOf(row)));
const say = (line) => process.stderr.write(`${line}\n`);

const root = hermeticRoot("table");
const git = (cwd, ...args) => execFileSync("git", args, { cwd, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] }).trim();
const home = join(root, "home");
const origin = join(root, "origin.git");
const primary = join(root, "app");

function makeRepo() {
  git(root, "init", "-q", "--bare", "-b", "main", origin);
  git(root, "init", "-q", "-b", "main", primary);
  for (let d = 0; d < 20; d++) {
    mkdirSync(join(primary, "src", `d${d}`), { recursive: true });
    for (let f = 0; f < FILES / 20; f++) writeFileSync(join(primary, "src", `d${d}`, `f${f}.ts`), `export const v${f} = ${d * 1000 + f};\n`.repeat(20));
  }
  git(primary, "add", "-A");
  git(primary, "commit", "-q", "-m", "initial");
  git(primary, "remote", "add", "origin", origin);
  git(primary, "push", "-q", "-u", "origin", "main");
  git(primary, "remote", "set-head", "origin", "main");
}

/** Wall milliseconds of one whole process (its output discarded); throws if it fails. */
function timed(cmd, args, options = {}) {
  const started = performance.now();
  const r = spawnSync(cmd, args, { cwd: primary, stdio: ["ignore", "ignore", "pipe"], encoding: "utf8", ...options });
  const ms = performance.now() - started;
  if (r.status !== 0 && !options.anyExit) throw new Error(`${cmd} ${args.join(" ")} exited ${r.status}: ${r.stderr}`);
  return ms;
}
const orchard = (...args) => timed(process.execPath, [CLI, "--home", home, ...args]);
const compared = (...args) => (COMPARE === null ? undefined : timed(process.execPath, [COMPARE, "--home", home, ...args]));
const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

const rows = [];
/** Runs `pair(i)` RUNS times; each returns [A ms, B ms]; `prepare(i)` runs untimed before each. */
/** A pair may return a third time, A', reported as a second row `id+` (or `id` + `suffix`; `also` names it) against the same B. */
function row(id, measure, baseline, goal, pair, prepare = () => undefined, also = null, suffix = "+") {
  if (!wanted(id)) return;
  say(`measuring ${id}…`);
  const a = [];
  const b = [];
  const a2 = [];
  pair(-1, prepare(-1)); // warm-up, not counted
  for (let i = 0; i < RUNS; i++) {
    const [x, y, x2] = pair(i, prepare(i));
    a.push(x);
    b.push(y);
    if (x2 !== undefined) a2.push(x2);
  }
  rows.push({ id, measure, baseline, goal, a: median(a), b: median(b), ratio: median(a.map((x, i) => x / b[i])), runs: RUNS });
  if (also && a2.length === RUNS)
    rows.push({ id: `${id}${suffix}`, measure: also, baseline, goal: "—", a: median(a2), b: median(b), ratio: median(a2.map((x, i) => x / b[i])), runs: RUNS });
}

/**
 * hygiene's CPU, split (not a ratio; medians of RUNS): Orchard's own process (read at its exit by a preload,
 * _own-cpu.cjs), everything it waited for (the status shells and their gits), and the loop's. On a machine of
 * few cores the statuses and Orchard's own process share them: no wall can be below their sum over the cores.
 */
function hygieneCpu(paths) {
  const file = join(root, "own-cpu");
  const env = { ...process.env, NODE_OPTIONS: `--require ${join(dirname(fileURLToPath(import.meta.url)), "_own-cpu.cjs")}`, BENCH_OWN_CPU_FILE: file };
  const samples = Array.from({ length: RUNS }, () => {
    rmSync(file, { force: true });
    const before = cpuNow();
    timed(process.execPath, [CLI, "--home", home, "--json", "hygiene"], { env });
    const all = cpuNow() - before;
    const own = Number(readFileSync(file, "utf8").trim().split("\n")[0]);
    const loopBefore = cpuNow();
    statusLoop(paths);
    return { own, children: all - own, loop: cpuNow() - loopBefore };
  });
  const m = (k) => median(samples.map((x) => x[k]));
  return { own: m("own"), children: m("children"), loop: m("loop"), cores: cpus().length };
}

let gitAdds = 0;
function gitWorktreeAdd() {
  const path = join(root, "plain", `g${gitAdds}`);
  return timed("git", ["worktree", "add", "-q", "-b", `plain/g${gitAdds++}`, path, "main"]);
}
const managed = () => JSON.parse(execFileSync(process.execPath, [CLI, "--home", home, "--json", "list"], { cwd: primary, encoding: "utf8" })).worktrees;
function statusLoop(paths) {
  const started = performance.now();
  for (const p of paths) spawnSync("git", ["-C", p, "status", "-uall", "--porcelain"], { stdio: "ignore" });
  return performance.now() - started;
}

function deadPid() {
  return Number(spawnSync(process.execPath, ["-e", "process.stdout.write(String(process.pid))"], { encoding: "utf8" }).stdout);
}
let reapRound = 0;
/** R foreign worktrees on merged branches, locked by a dead Claude Code agent, the lock 10 min old. */
function orphans(count) {
  const paths = [];
  const round = reapRound++;
  for (let i = 0; i < count; i++) {
    const path = join(root, "orphans", `r${round}-${i}`);
    git(primary, "worktree", "add", "-q", "-b", `orphan/r${round}-${i}`, path, "main");
    git(primary, "worktree", "lock", "--reason", `claude agent a${i} (pid ${deadPid()})`, path);
    const when = new Date(Date.now() - 600_000);
    utimesSync(join(git(path, "rev-parse", "--path-format=absolute", "--git-dir"), "locked"), when, when);
    paths.push(path);
  }
  return paths;
}

function machine() {
  const version = (cmd, ...args) => execFileSync(cmd, args, { encoding: "utf8" }).trim();
  return {
    cpus: cpus().length,
    model: cpus()[0]?.model ?? "?",
    memGiB: Math.round(totalmem() / 2 ** 30),
    node: process.version,
    git: version("git", "--version").replace("git version ", ""),
    loadAtStart: loadavg().map((x) => Math.round(x * 10) / 10),
  };
}

const info = { ...machine(), cli: CLI, ...(COMPARE ? { compare: COMPARE } : {}), n: N, reap: REAP, files: FILES, runs: RUNS };
say(`repository of ${FILES} files, ${N} managed worktrees, ${RUNS} runs per row, cli ${CLI}`);
makeRepo();

// exactly `orchard --version` (the helper would put `--home` before it); `--help` loads the bundle and the command line, no library
const version = (arg) => () => [timed(process.execPath, [CLI, arg]), timed(process.execPath, ["-e", "0"])];
row("version", "`orchard --version` vs `node -e 0`", "node -e 0", "≤ 1.5×", version("--version"));
row(
  "floor-start",
  "floor: `orchard --help` (the bundle and its command line: what any command loads first) vs `node -e 0`",
  "node -e 0",
  "—",
  version("--help"),
);

// the fleet is built for the admission rows too: `add` lists every worktree and reads every ref
// (and for the MCP rows: an agent's call in a fleet of N)
if (["list", "hygiene", "create", "adopt", "floor-statuses", "floor-list", "floor-adopt", "floor-mcp", "mcp"].some(wanted)) {
  say(`building ${N} managed worktrees…`);
  for (let i = 0; i < N; i++) {
    const add = [CLI, "--home", home, "--json", "add", `fleet/w${i}`, "--owner", `agent-${i}`];
    const handle = JSON.parse(execFileSync(process.execPath, add, { cwd: primary, encoding: "utf8" })).handle;
    if (i % 3 === 0) execFileSync(process.execPath, [CLI, "--home", home, "release", handle, "--owner", `agent-${i}`], { cwd: primary, stdio: "ignore" });
  }
  const paths = managed().map((w) => w.path);
  const vs =
    (...args) =>
    () => [orchard(...args), statusLoop(paths), compared(...args)];
  const also = (what) => (COMPARE === null ? null : `${what}, ${COMPARE}`);
  const none = () => undefined;
  row("list", `\`list\` (${N}) vs a sequential \`git status -uall\` loop`, "status loop", "≤ 0.10×", vs("list", "--json"), none, also(`\`list\` (${N})`), "~");
  row("list-full", `\`list --full\` (${N}) vs the same loop`, "status loop", "—", vs("list", "--full", "--json"), none, also(`\`list --full\` (${N})`), "~");
  row(
    "hygiene",
    `\`hygiene\` (${N}) vs the same loop`,
    "status loop",
    "≤ 0.75× (the statuses in parallel: floor-statuses)",
    vs("hygiene", "--json"),
    none,
    also(`\`hygiene\` (${N})`),
    "~",
  );
  if (wanted("hygiene")) info.hygieneCpu = hygieneCpu(paths);
  const statusesInParallel = () =>
    timed("xargs", ["-0", `-P${cpus().length}`, "-I{}", "git", "-C", "{}", "status", "-uall", "--porcelain"], {
      input: paths.join("\0"),
      stdio: ["pipe", "ignore", "pipe"],
    });
  row("floor-statuses", `floor: the same ${N} statuses, ${cpus().length} at a time, vs the same loop`, "status loop", "—", () => [
    statusesInParallel(),
    statusLoop(paths),
  ]);
  const nodeThen = (...args) => timed(process.execPath, ["-e", "0"]) + timed("git", args);
  row("floor-list", `floor: \`node -e 0\` then \`git worktree list\` (${N}) vs the same loop`, "status loop", "—", () => [
    nodeThen("worktree", "list", "--porcelain", "-z"),
    statusLoop(paths),
  ]);
  row("floor-adopt", "floor: `node -e 0` then one `git status` vs `git worktree add`", "git worktree add", "—", () => [
    nodeThen("-C", paths[0], "status", "--porcelain=v2", "-z", "--branch", "--untracked-files=all", "--ignored=matching"),
    gitWorktreeAdd(),
  ]);
  if (wanted("floor-mcp")) {
    // a warm adopt's own git: the listing and its worktree's status side by side, then nothing else
    say("measuring floor-mcp…");
    const status = ["status", "--porcelain=v2", "-z", "--branch", "--untracked-files=all", "--ignored=matching"];
    const sideBySide = () =>
      timed("sh", ["-c", `git worktree list --porcelain -z >/dev/null & git -C "$1" ${status.join(" ")} >/dev/null & wait`, "sh", paths[0]]);
    sideBySide();
    const times = Array.from({ length: RUNS }, sideBySide);
    rows.push({
      id: "floor-mcp",
      measure: `floor: \`git worktree list\` (${N}) and one \`git status\` side by side (a warm adopt's own git)`,
      baseline: null,
      goal: "—",
      a: median(times),
      b: null,
      ratio: null,
      runs: RUNS,
    });
  }
}

let creates = 0;
const alsoCompared = (what) => (COMPARE === null ? null : `${what}, ${COMPARE}`);
row(
  "create",
  "`add`, create, vs `git worktree add`",
  "git worktree add",
  "≤ 1.5× of floor-create (node start + `git worktree add`)",
  () => [orchard("add", `bench/c${creates++}`, "--owner", "bench"), gitWorktreeAdd(), compared("add", `bench/c${creates++}`, "--owner", "bench")],
  () => undefined,
  alsoCompared("`add`, create"),
  "~",
);
row("floor-create", "floor: `node -e 0` then `git worktree add` vs `git worktree add`", "git worktree add", "—", () => [
  timed(process.execPath, ["-e", "0"]) + gitWorktreeAdd(),
  gitWorktreeAdd(),
]);
if (wanted("adopt")) orchard("add", "bench/adopt", "--owner", "bench");
row(
  "adopt",
  "`add`, exact repeat (adopt), vs `git worktree add`",
  "git worktree add",
  "≤ 1.0×",
  () => [orchard("add", "bench/adopt", "--owner", "bench"), gitWorktreeAdd(), compared("add", "bench/adopt", "--owner", "bench")],
  () => undefined,
  alsoCompared("`add`, exact repeat (adopt)"),
  "~",
);

// the steps floors of the CLI rows (bench/_steps-floor.mjs): `node -e 0`, then the row's own git in one shell;
// `-start` (adopt, create): `orchard --help` instead, Orchard's own start (the bundle, its command line) and that git
const nodeAndSteps = (script, args = [], start = ["-e", "0"]) => timed(process.execPath, start) + timed("sh", ["-c", script, "sh", ...args]);
let stepsN = 0;
const one = (of) => of === "adopt" || of === "create"; // against `git worktree add`; the others against the status loop
for (const of of ["adopt", "create", "list", "hygiene"].filter((x) => wanted(`floor-${x}-steps`) || wanted(`floor-${x}-start`))) {
  const paths = one(of) ? [] : managed().map((w) => w.path);
  const adopt = of === "adopt" ? [CLI, "--home", home, "--json", "add", "bench/adopt", "--owner", "bench"] : null;
  const worktree = adopt ? JSON.parse(execFileSync(process.execPath, adopt, { cwd: primary, encoding: "utf8" })).path : undefined;
  const script = stepsScript(of, { worktree, branch: "bench/adopt", cores: cpus().length });
  const args = () => (of === "create" ? [join(root, "steps", `s${++stepsN}`), `steps/s${stepsN}`, git(primary, "rev-parse", "main")] : paths);
  const what = `floor: \`node -e 0\` then ${of === "adopt" ? "an exact repeat" : of}'s git, one shell`;
  const vs = one(of) ? ["`git worktree add`", "git worktree add", gitWorktreeAdd] : [`the status loop (${N})`, "status loop", () => statusLoop(paths)];
  row(`floor-${of}-steps`, `${what}, vs ${vs[0]}`, vs[1], "—", (_, a) => [nodeAndSteps(script, of === "list" ? [] : a), vs[2]()], args);
  if (one(of))
    row(
      `floor-${of}-start`,
      `${what.replace("`node -e 0`", "`orchard --help`")}, vs ${vs[0]}`,
      vs[1],
      "—",
      (_, a) => [nodeAndSteps(script, a, [CLI, "--help"]), vs[2]()],
      args,
    );
}

row(
  "reap",
  `\`reap-orphans\` of ${REAP} dead merged worktrees vs a \`git worktree remove -f -f\` loop`,
  "remove loop",
  "≤ 0.8×",
  () => {
    const a = orchard("reap-orphans", "--json");
    const drained = a + drain(home); // the baseline and the next sample run on a quiet disk, not beside the purge
    const paths = orphans(REAP); // made after orchard's sweep, which would take them too
    const started = performance.now();
    for (const p of paths) spawnSync("git", ["worktree", "remove", "-f", "-f", p], { cwd: primary, stdio: "ignore" });
    return [a, performance.now() - started, drained];
  },
  () => orphans(REAP),
  `\`reap-orphans\` of ${REAP} until its trash is deleted too (the detached purge) vs the same loop`,
);

if (["mcp"].some(wanted)) await mcpRows({ CLI, home, primary, RUNS, wanted, rows, say, median, timed });

// issue 25: rows with a floor get `vsFloor` (and with steps, `vsSteps`): the ratio of the two paired ratios (same baseline), or of the medians
const FLOORS = {
  create: "floor-create",
  adopt: "floor-adopt-start",
  hygiene: "floor-statuses",
  "mcp-add": "floor-mcp-sdk-adopt",
  "mcp-status": "floor-mcp-sdk",
};
const against = (r, f) => (r.ratio !== null && f.ratio !== null ? r.ratio / f.ratio : r.a / f.a);
for (const r of rows) {
  const f = rows.find((x) => x.id === FLOORS[r.id]);
  const steps = rows.find((x) => x.id === STEPS[r.id]);
  if (steps) r.vsSteps = against(r, steps);
  if (!f) continue;
  r.floor = f.id;
  r.vsFloor = against(r, f);
}
const fmt = (ms) => (ms === null ? "—" : ms >= 1000 ? `${(ms / 1000).toFixed(2)} s` : `${Math.round(ms)} ms`);
info.loadAtEnd = loadavg().map((x) => Math.round(x * 10) / 10);
if (JSON_OUT) process.stdout.write(JSON.stringify({ machine: info, rows }, null, 2) + "\n");
else {
  process.stdout.write(
    `\n${info.cpus} cores (${info.model}), ${info.memGiB} GiB, node ${info.node}, git ${info.git}, load ${info.loadAtStart.join(" ")} → ${info.loadAtEnd.join(" ")}; ` +
      `N=${N}, ${FILES} files, medians of ${RUNS}\n\n| measure | orchard | baseline | ratio | vs floor | vs its steps | goal |\n| --- | --- | --- | --- | --- | --- | --- |\n`,
  );
  for (const r of rows)
    process.stdout.write(
      `| ${r.measure} | ${fmt(r.a)} | ${fmt(r.b)} | ${r.ratio === null ? "—" : `${r.ratio.toFixed(2)}×`} | ${r.vsFloor === undefined ? "—" : `${r.vsFloor.toFixed(2)}× ${r.floor}`} | ${r.vsSteps === undefined ? "—" : `${r.vsSteps.toFixed(2)}×`} | ${r.goal} |\n`,
    );
  const h = info.hygieneCpu;
  if (h)
    process.stdout.write(
      `\nhygiene's CPU (medians of ${RUNS}; not a ratio): Orchard's own process ${fmt(h.own)}, the statuses and gits it waits for ${fmt(h.children)}: ` +
        `${fmt(h.own + h.children)} on ${h.cores} cores, no wall below ${fmt((h.own + h.children) / h.cores)}; the loop's CPU ${fmt(h.loop)}\n`,
    );
}
rmSync(root, { recursive: true, force: true });
