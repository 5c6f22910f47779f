#!/usr/bin/env node
// GSD's read-only calls through `orchard-worktrees/gsd` (dist/gsd.cjs) against GSD's own module
// (get-shit-done-cc's worktree-safety.cjs) on the same repository (issue 48 item 4; goal ≤ 1.0×):
//   resolveWorktreeContext     from a linked worktree
//   listLinkedWorktreePaths    from the primary
//   snapshotWorktreeInventory  from the primary
//   inspectWorktreeHealth      from the primary
// N worktrees (default 500; BENCH_GSD_N=50 for a quick run), one agent branch each, every 50th
// directory removed (an orphan for the health findings). Two ways, each A B A B … (order
// alternating), the ratio the median of the pairwise ratios:
//   process  one node process per call (require the module, one call), as gsd-tools runs one
//            command: wall and CPU (the process and its children, the worker thread included);
//   warm     in one process, the median of --calls calls after a first one (the worker started),
//            as a long-lived caller pays each call: wall.
// Both modules' answers are checked to be equal first (the same answer, at what cost).
// What Orchard reads (src/gsd/fast.ts): the context one `rev-parse`; the other three the linked
// worktrees' `gitdir` records (src/gsd/listing.ts: git's listing read as git builds it, no git run,
// where that is provably git's answer; else the admin files vetted and one `git worktree list`),
// the inventory and health a stat of each directory.
// --workspace: Orchard's workspace (ORCHARD_HOME) and its cache exist, as where Orchard is in use
// (the admin dirs' vetting, when git's listing is asked, is then kept in that cache between
// processes: git/input/admin-pass.ts); without it, the default: a GSD user who never ran Orchard.
//   npm run build && node bench/gsd-read.mjs [--runs 7] [--calls 9] [--workspace] [--json]   (BENCH_GSD_N=500)
// (`npm run bench` runs it; `npm run bench -- gsd-read` alone.)
// --base <other gsd.cjs> (e.g. /work/main/dist/gsd.cjs): that build measured in the same runs, each
// of its calls against GSD's as Orchard's are (its own columns), for an A/B of two builds.
import { spawnSync } from "node:child_process";
import { mkdirSync, rmSync } from "node:fs";
import { cpus, loadavg } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const N = Number(process.env.BENCH_GSD_N || 500); // read before hermeticRoot clears the environment's ORCHARD_*/GIT_*
const { hermeticRoot } = await import("./_hermetic.mjs");
const { median, say, timed } = await import("./_measure.mjs");
const { waveRepo } = await import("./_scale-wave.mjs");

const here = dirname(fileURLToPath(import.meta.url));
const flag = (name, fallback) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1] : fallback;
};
const RUNS = Math.max(3, Number(flag("runs", 7)));
const CALLS = Math.max(3, Number(flag("calls", 9)));
const JSON_OUT = process.argv.includes("--json");
const BASE = flag("base", null);
const MODULES = {
  gsd: resolve(here, "../node_modules/get-shit-done-cc/get-shit-done/bin/lib/worktree-safety.cjs"),
  orchard: resolve(here, "../dist/gsd.cjs"),
  ...(BASE ? { base: resolve(BASE) } : {}),
};
const loadAtStart = loadavg().map((x) => Math.round(x * 10) / 10);

const root = hermeticRoot("gsd-read");
process.env.ORCHARD_HOME = join(root, "home");
const WORKSPACE = process.argv.includes("--workspace");
if (WORKSPACE) mkdirSync(join(process.env.ORCHARD_HOME, "cache"), { recursive: true, mode: 0o700 }); // as the library leaves it
say(`gsd-read: ${N} worktrees, building…`);
const repo = waveRepo(root, "repo", N, true);
for (let i = 0; i < N; i += 50) rmSync(repo.entries[i].worktree_path, { recursive: true, force: true });
const linked = repo.entries[N > 1 ? 1 : 0].worktree_path;

// one clock for both modules (ages are rounded minutes: two calls a second apart may round apart); stale after 10 minutes
const options = { nowMs: Date.now() + 30 * 60_000, staleAfterMs: 10 * 60_000 };
const CALLS_OF = [
  { id: "resolveWorktreeContext", args: [linked] },
  { id: "listLinkedWorktreePaths", args: [repo.primary] },
  { id: "snapshotWorktreeInventory", args: [repo.primary, options] },
  { id: "inspectWorktreeHealth", args: [repo.primary, options] },
];

function node(script) {
  const r = spawnSync(process.execPath, ["-e", script], { cwd: repo.primary, encoding: "utf8", maxBuffer: 1 << 28 });
  if (r.status !== 0) throw new Error(`node -e exited ${r.status}: ${r.stderr.slice(0, 2000)}`);
  return r.stdout;
}
const callScript = (module, call) => `require(${JSON.stringify(module)})[${JSON.stringify(call.id)}](...${JSON.stringify(call.args)});`;
/** In one process: the first answer, then the wall ms of each later call. */
const warmScript = (module, call) =>
  `const m = require(${JSON.stringify(module)}); const args = ${JSON.stringify(call.args)};
   const first = m[${JSON.stringify(call.id)}](...args); const ms = [];
   for (let i = 0; i < ${CALLS}; i++) { const t = performance.now(); m[${JSON.stringify(call.id)}](...args); ms.push(performance.now() - t); }
   process.stdout.write(JSON.stringify({ first, ms }));`;

const rows = [];
for (const call of CALLS_OF) {
  // the same answer first, in GSD's fields (Orchard adds the context's `primary`)
  const [a, b] = [MODULES.gsd, MODULES.orchard].map((m) => JSON.parse(node(warmScript(m, call))).first);
  if (call.id === "resolveWorktreeContext") delete b.primary;
  if (JSON.stringify(a) !== JSON.stringify(b))
    throw new Error(`${call.id}: the answers differ:\n${JSON.stringify(a).slice(0, 500)}\n${JSON.stringify(b).slice(0, 500)}`);
  // each run: every module once, the order rotating (orchard, GSD[, base]), each against GSD's of the same run
  const keys = Object.keys(MODULES);
  const runs = [];
  for (let i = 0; i < RUNS; i++) {
    const order = keys.map((_, j) => keys[(i + j) % keys.length]);
    runs.push(Object.fromEntries(order.map((k) => [k, timed(() => node(callScript(MODULES[k], call)))])));
  }
  const proc = runs.map((r) => [r.orchard, r.gsd]);
  const warmRuns = [];
  for (let i = 0; i < Math.max(3, Math.ceil(RUNS / 2)); i++) {
    const order = keys.map((_, j) => keys[(i + j) % keys.length]);
    warmRuns.push(Object.fromEntries(order.map((k) => [k, median(JSON.parse(node(warmScript(MODULES[k], call))).ms)])));
  }
  const warm = warmRuns.map((w) => [w.orchard, w.gsd]);
  const row = {
    id: call.id,
    n: N,
    process: {
      orchardMs: median(proc.map((p) => p[0].wall)),
      gsdMs: median(proc.map((p) => p[1].wall)),
      ratio: median(proc.map((p) => p[0].wall / p[1].wall)),
      orchardCpuMs: median(proc.map((p) => p[0].cpu)),
      gsdCpuMs: median(proc.map((p) => p[1].cpu)),
      cpuRatio: median(proc.map((p) => p[0].cpu / Math.max(1, p[1].cpu))),
    },
    warm: { orchardMs: median(warm.map((w) => w[0])), gsdMs: median(warm.map((w) => w[1])), ratio: median(warm.map((w) => w[0] / w[1])) },
    ...(BASE
      ? {
          base: {
            ms: median(runs.map((r) => r.base.wall)),
            ratio: median(runs.map((r) => r.base.wall / r.gsd.wall)),
            cpuRatio: median(runs.map((r) => r.base.cpu / Math.max(1, r.gsd.cpu))),
            warmRatio: median(warmRuns.map((w) => w.base / w.gsd)),
          },
        }
      : {}),
    load: loadavg()[0],
  };
  rows.push(row);
  say(
    `  ${call.id} n=${N}: process ${Math.round(row.process.orchardMs)} vs ${Math.round(row.process.gsdMs)} ms → ${row.process.ratio.toFixed(2)}× (cpu ${row.process.cpuRatio.toFixed(2)}×); warm ${row.warm.orchardMs.toFixed(1)} vs ${row.warm.gsdMs.toFixed(1)} ms → ${row.warm.ratio.toFixed(2)}×` +
      (row.base ? `; base ${row.base.ratio.toFixed(2)}× (cpu ${row.base.cpuRatio.toFixed(2)}×), warm ${row.base.warmRatio.toFixed(2)}×` : ""),
  );
}
rmSync(root, { recursive: true, force: true });

const info = {
  cpus: cpus().length,
  node: process.version,
  n: N,
  workspace: WORKSPACE,
  base: BASE,
  runs: RUNS,
  calls: CALLS,
  loadAtStart,
  loadAtEnd: loadavg().map((x) => Math.round(x * 10) / 10),
};
if (JSON_OUT) process.stdout.write(`${JSON.stringify({ info, rows }, null, 2)}\n`);
else {
  const fmt = (ms) => (ms >= 1000 ? `${(ms / 1000).toFixed(2)} s` : `${ms.toFixed(ms < 10 ? 1 : 0)} ms`);
  process.stdout.write(
    `\nGSD's read-only calls, orchard-worktrees/gsd vs GSD's own module, ${N} worktrees${WORKSPACE ? ", a workspace" : ""} (${info.cpus} cores, load ${info.loadAtStart[0]} → ${info.loadAtEnd[0]}; goal ≤ 1.0×)\n\n` +
      `| call | process: orchard / GSD (wall) | ratio | CPU ratio | warm call: orchard / GSD | ratio |${BASE ? " base: ratio / CPU / warm |" : ""}\n| --- | --- | --- | --- | --- | --- |${BASE ? " --- |" : ""}\n` +
      rows
        .map(
          (r) =>
            `| \`${r.id}\` | ${fmt(r.process.orchardMs)} / ${fmt(r.process.gsdMs)} | ${r.process.ratio.toFixed(2)}× | ${r.process.cpuRatio.toFixed(2)}× | ${fmt(r.warm.orchardMs)} / ${fmt(r.warm.gsdMs)} | ${r.warm.ratio.toFixed(2)}× |` +
            (r.base ? ` ${r.base.ratio.toFixed(2)}× / ${r.base.cpuRatio.toFixed(2)}× / ${r.base.warmRatio.toFixed(2)}× |` : ""),
        )
        .join("\n") +
      "\n",
  );
}
