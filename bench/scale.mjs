#!/usr/bin/env node
// The scale table of issue 25 (`npm run bench -- --scale`; N = 2,000 too with `--scale-2000`).
// One fleet of a small repository (20 files, so checkouts are cheap) grows to each N through the
// library's own `add` (half released, half held by a live lease); at each N, whole CLI processes:
//   hygiene        `hygiene`                 vs a sequential `git status -uall` loop over the N
//   hygiene-disk   `hygiene --disk`          vs the same loop plus one `du -s` of the N worktrees
//   list-full      `list --full`             vs the same loop
//   plan           `cleanup plan`            vs the same loop
//   add            `add` beside N siblings   vs `git worktree add -b` beside them (per call)
//   reap           `reap-orphans` of 200     vs a `git worktree remove -f -f` loop of 200 like them
//   cleanup-run    `cleanup run` (the N/2 released ones) vs `git worktree remove` + `git branch -D`
//                  of N/2 plain worktrees like them (+: until its detached purge emptied the trash;
//                  /floor: against the status loop of all N, which a run judges first, plus that loop)
// then `cleanup-wave` of W = 100, 1,000 (one worktree each) and 20,000 (branches only: the
// harness removed the worktrees) agent branches of one commit each, made by plumbing in one
// `fast-import`, vs `git merge --no-ff` + `git worktree remove` + `git branch -d` per entry in a
// twin repository (20,000: the loop runs on the first --wave-sample entries, per-item extrapolated),
// and vs the floor of its steps (wave-floor, wave/floor: bench/_scale-wave.mjs), and `list`
// against the last fleet's registry grown to 1,000,000 events (its own events copied) vs `list` before. Each row: wall and CPU (the process's waited-for children, /proc/self/stat),
// except reap, cleanup-run and the waves, which remove: their calls run in a cgroup (bench/_cgroup.mjs), so their CPU
// is every process they start, the detached purge included, and their wall is until they answer (the `+` rows: until
// the purge has ended too); nothing runs after such a call until its purge has ended. Without a cgroup (or
// --no-cgroup) the bench warns loudly, the purge is NOT counted (the notes say so), and each call waits for the trash.
// Per item, the ratio to git, and per-item growth (per item at the largest N ÷ at the smallest).
// Goals: growth ≤ 1.2×, ratio ≤ 1.3×. Usage: npm run build && node bench/scale.mjs
//   [--sizes 100,400,1000] [--waves 100,1000,20000] [--wave-sample 2000] [--runs 3] [--events 1000000] [--no-cgroup] [--json]
import { spawnSync } from "node:child_process";
import { existsSync, rmSync } from "node:fs";
import { cpus, loadavg } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { hermeticRoot } from "./_hermetic.mjs";
import { git, makeRepo, pairs, record, rows, run, say, timed } from "./_measure.mjs";
import { waveRows } from "./_scale-wave.mjs";
import { counter } from "./_cgroup.mjs";

const here = dirname(fileURLToPath(import.meta.url));
const flag = (name, fallback) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1] : fallback;
};
const list = (s) => String(s).split(",").filter(Boolean).map(Number);
const SIZES = list(flag("sizes", process.argv.includes("--scale-2000") ? "100,400,1000,2000" : "100,400,1000"));
const WAVES = list(flag("waves", "100,1000,20000"));
const WAVE_SAMPLE = Number(flag("wave-sample", 2000));
const RUNS = Number(flag("runs", 3));
const EVENTS = Number(flag("events", 1_000_000));
const REAP = 200;
const JSON_OUT = process.argv.includes("--json");
const CLI = resolve(flag("cli", join(here, "../dist/bin/orchard.js")));
const root = hermeticRoot("scale");
const { Orchard } = await import(resolve(dirname(CLI), "../index.js"));

const orchardIn =
  (primary, home) =>
  (...args) =>
    run(primary, process.execPath, [CLI, "--home", home, ...args]);
const CG = counter("reap, cleanup-run and wave rows", !process.argv.includes("--no-cgroup"));
/** A call that removes: wall until it answers, CPU of every process it starts, the purge included (bench/_cgroup.mjs). */
const removingIn =
  (primary, home) =>
  (...args) => {
    const r = CG.call(primary, process.execPath, [CLI, "--home", home, ...args], { home });
    return { wall: r.wall, cpu: r.cpu, settled: r.settled, value: r.stdout };
  };

// ---- the fleet rows ----
async function fleetRows() {
  const dir = join(root, "fleet");
  const primary = makeRepo(dir);
  const home = join(dir, "home");
  const orchard = orchardIn(primary, home);
  let made = 0;
  let plain = 0;
  let reapRound = 0;
  const grow = async (count) => {
    const lib = await Orchard.open({ repo: primary, home });
    for (let k = 0; k < count; k++, made++) {
      const i = made;
      if (i % 2 === 0) {
        const w = await lib.add({ branch: `fleet/w${i}`, bootstrap: false });
        await lib.release({ target: w.handle });
      } else await lib.add({ branch: `fleet/w${i}`, bootstrap: false, owner: `agent-${i}`, ttl: "1d" });
    }
    await lib.close();
  };
  const managed = () => JSON.parse(orchard("--json", "list")).worktrees;
  const statusLoop = (paths) => () => {
    for (const p of paths) spawnSync("git", ["-C", p, "status", "-uall", "--porcelain"], { stdio: "ignore" });
  };
  const plainWorktrees = (count) => {
    const made = [];
    for (let i = 0; i < count; i++, plain++) {
      const path = join(dir, "plain", `p${plain}`);
      git(primary, "worktree", "add", "-q", "-b", `plain/p${plain}`, path, "main");
      made.push({ path, branch: `plain/p${plain}` });
    }
    return made;
  };
  const deadPid = () => Number(spawnSync(process.execPath, ["-e", "process.stdout.write(String(process.pid))"], { encoding: "utf8" }).stdout);
  const orphans = (count) => {
    const round = reapRound++;
    const pid = deadPid();
    const paths = [];
    for (let i = 0; i < count; i++) {
      const path = join(dir, "orphans", `r${round}-${i}`);
      git(primary, "worktree", "add", "-q", "-b", `orphan/r${round}-${i}`, path, "main");
      git(primary, "worktree", "lock", "--reason", `claude agent a${i} (pid ${pid})`, path);
      paths.push(path);
    }
    const when = new Date(Date.now() - 600_000);
    for (const p of paths) spawnSync("touch", ["-d", when.toISOString(), join(git(p, "rev-parse", "--path-format=absolute", "--git-dir"), "locked")]);
    return paths;
  };

  for (const n of SIZES) {
    say(`fleet: growing to ${n} managed worktrees…`);
    await grow(n - managed().length);
    const paths = managed().map((w) => w.path);
    if (paths.length !== n) throw new Error(`the fleet has ${paths.length} worktrees, not ${n}`);
    const loop = statusLoop(paths);
    say(`measuring at n=${n} (load ${loadavg()[0].toFixed(1)})…`);
    record(
      "hygiene",
      n,
      n,
      pairs(RUNS, () => orchard("--json", "hygiene"), loop),
    );
    const du = () => run(primary, "du", ["-s", "--", ...paths]);
    record(
      "hygiene-disk",
      n,
      n,
      pairs(
        RUNS,
        () => orchard("--json", "hygiene", "--disk"),
        () => (loop(), du()),
      ),
    );
    record(
      "list-full",
      n,
      n,
      pairs(RUNS, () => orchard("--json", "list", "--full"), loop),
    );
    record(
      "plan",
      n,
      n,
      pairs(RUNS, () => orchard("--json", "cleanup", "plan"), loop),
    );
    let adds = 0;
    record(
      "add",
      n,
      1,
      pairs(
        Math.max(RUNS, 5),
        () => orchard("--json", "add", `bench/a${n}-${adds++}`, "--owner", "bench", "--no-bootstrap"),
        () => plainWorktrees(1),
      ),
    );
    // reap: 200 orphans for orchard, then 200 like them for git's loop
    {
      orphans(REAP);
      const a = removingIn(primary, home)("--json", "reap-orphans");
      const gitPaths = orphans(REAP);
      const b = timed(() => {
        for (const p of gitPaths) spawnSync("git", ["worktree", "remove", "-f", "-f", p], { cwd: primary, stdio: "ignore" });
      });
      const reaped = JSON.parse(a.value).reaped; // a row counts only if the work was done
      const left = gitPaths.filter((p) => existsSync(p)).length; // and git's loop did all of it too
      const done = `reaped ${reaped}/${REAP}${left ? `; git's loop left ${left}` : ""}; CPU: ${CG.label}`;
      record("reap", n, REAP, [[a, b]], done);
      record("reap+", n, REAP, [[{ wall: a.wall + a.settled, cpu: a.cpu }, b]], `${done}; until the trash is empty`);
    }
    // cleanup run of the released half, then git's loop on as many plain worktrees
    {
      const judged = timed(loop); // the floor's first half: a run judges every worktree before it removes one
      const a = removingIn(primary, home)("--json", "cleanup", "run");
      a.value = JSON.parse(a.value);
      const released = paths.filter((p) => !existsSync(p)).length; // the worktrees it removed (the released ones)
      const gitItems = plainWorktrees(released);
      const b = timed(() => {
        for (const w of gitItems) {
          spawnSync("git", ["worktree", "remove", w.path], { cwd: primary, stdio: "ignore" });
          spawnSync("git", ["branch", "-D", w.branch], { cwd: primary, stdio: "ignore" });
        }
      });
      const done = a.value.done ?? a.value.result?.done;
      record("cleanup-run", n, released, [[a, b]], `items done: ${JSON.stringify(done)}; CPU: ${CG.label}`);
      record("cleanup-run+", n, released, [[{ wall: a.wall + a.settled, cpu: a.cpu }, b]], `until the trash is empty; CPU: ${CG.label}`);
      const floor = { wall: judged.wall + b.wall, cpu: judged.cpu + b.cpu };
      record("cleanup-run/floor", n, released, [[a, floor]], "against the floor: the status loop of all N (what the plan judges) plus git's loop");
    }
    // the plain worktrees of the add row stay (siblings), the removed half is made again next round
  }

  // list against a registry of EVENTS events: the fleet's own events, copied
  say(`registry: list before and after growing the events to ${EVENTS}…`);
  const before = [];
  for (let i = 0; i < RUNS + 2; i++) before.push(timed(() => orchard("--json", "list")));
  const db = join(home, "orchard.db");
  const count = () => Number(run(dir, "sqlite3", [db, "SELECT count(*) FROM events"]).trim());
  let events = count();
  while (events < EVENTS) {
    const more = Math.min(events, EVENTS - events);
    run(dir, "sqlite3", [
      db,
      `INSERT INTO events (at, kind, repo, handle, task, owner, data, host) SELECT at, kind, repo, handle, task, owner, data, host FROM events ORDER BY id LIMIT ${more}`,
    ]);
    events = count();
  }
  const after = [];
  for (let i = 0; i < RUNS + 2; i++) after.push(timed(() => orchard("--json", "list")));
  record(
    "list-1M-events",
    managed().length,
    1,
    after.map((x, i) => [x, before[i]]),
    `${events} events; baseline: the same list before (the fleet's own events)`,
  );
}

const info = { cpus: cpus().length, node: process.version, git: git(root, "--version"), loadAtStart: loadavg().map((x) => Math.round(x * 10) / 10) };
const only = flag("only", "fleet,wave").split(",");
if (only.includes("fleet")) await fleetRows();
if (only.includes("wave")) waveRows({ root, waves: WAVES, sample: WAVE_SAMPLE, removingIn, label: CG.label });
info.loadAtEnd = loadavg().map((x) => Math.round(x * 10) / 10);

// growth: per item at the largest n ÷ per item at the smallest, per row id
const ids = [...new Set(rows.map((r) => r.id))];
const growth = Object.fromEntries(
  ids.map((id) => {
    const rs = rows.filter((r) => r.id === id).sort((x, y) => x.n - y.n);
    const first = rs[0];
    const last = rs[rs.length - 1];
    return [
      id,
      rs.length > 1
        ? { from: first.n, to: last.n, wall: last.wall / last.items / (first.wall / first.items), cpu: last.cpu / last.items / (first.cpu / first.items) }
        : null,
    ];
  }),
);
if (JSON_OUT) process.stdout.write(JSON.stringify({ machine: info, rows, growth }, null, 2) + "\n");
else {
  const fmt = (ms) => (ms >= 1000 ? `${(ms / 1000).toFixed(2)} s` : `${ms.toFixed(ms < 10 ? 2 : 0)} ms`);
  process.stdout.write(
    `\n${info.cpus} cores, node ${info.node}, ${info.git}, load ${info.loadAtStart.join(" ")} → ${info.loadAtEnd.join(" ")}; medians of ${RUNS} interleaved pairs where repeated\n\n` +
      "| row | N | items | orchard wall (cpu) | git wall (cpu) | ratio wall (cpu) | per item | load | note |\n| --- | --- | --- | --- | --- | --- | --- | --- | --- |\n",
  );
  for (const r of rows)
    process.stdout.write(
      `| ${r.id} | ${r.n} | ${r.items} | ${fmt(r.wall)} (${fmt(r.cpu)}) | ${fmt(r.gitWall)} (${fmt(r.gitCpu)}) | ${r.ratio.toFixed(2)}× (${r.cpuRatio.toFixed(2)}×) | ${fmt(r.wall / r.items)} | ${r.load.toFixed(1)} | ${r.note} |\n`,
    );
  process.stdout.write("\n| row | per-item growth wall (cpu) | goal |\n| --- | --- | --- |\n");
  for (const [id, g] of Object.entries(growth))
    if (g) process.stdout.write(`| ${id} | ${g.wall.toFixed(2)}× (${g.cpu.toFixed(2)}×), N ${g.from} → ${g.to} | ≤ 1.2× |\n`);
  process.stdout.write("ratio goal: ≤ 1.3× of git's own work on the same items\n");
}
rmSync(root, { recursive: true, force: true });
