#!/usr/bin/env node
// cleanup-wave against git's own loop (issue 41 item 4): W agent branches of one commit each (one
// `fast-import`), each checked out in a worktree (W ≤ 1,000) or branches alone (larger waves), merged
// by `orchard cleanup-wave` in one repository and by `git merge --no-ff` + `git worktree remove` +
// `git branch -d` per entry in a twin, the two runs back to back (their order alternating), whole
// processes, wall and CPU (waited-for children). Each size is repeated --runs times (best of them and
// the median reported); a wave larger than --max-repeat runs once, as consecutive manifests of ≤ 1 MiB
// (SPEC v3 §4.2), and git's loop runs on the first manifest's entries only (its per-entry time grows
// with the merges before it, so it is compared on the same prefix; the whole wave's per-entry time
// is given beside it). cleanup-wave removes the worktrees: it answers and a detached purger deletes the trees.
// Each manifest's call runs in a cgroup (bench/_cgroup.mjs): its CPU is every process it starts, the purge
// included; its wall is until it answers (the purge outside, by design), and nothing runs after it (the next
// manifest, git's loop) until the purge has ended. Without a cgroup (or --no-cgroup) the bench warns loudly,
// the table says "purge NOT counted", and each call waits for the trash to drain. Not part of `npm test`. Usage:
//   npm run build && node bench/wave.mjs [--waves 100,1000,20000] [--runs 3] [--max-repeat 1000] [--cli <dist/bin/orchard.js>] [--no-cgroup] [--json]
// (`npm run bench -- wave --waves 100,1000` runs it through bench/run.mjs.)
import { spawnSync } from "node:child_process";
import { rmSync, writeFileSync } from "node:fs";
import { cpus, loadavg } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { counter } from "./_cgroup.mjs";
import { hermeticRoot } from "./_hermetic.mjs";
import { git, median, say, timed } from "./_measure.mjs";
import { chunks, waveRepo } from "./_scale-wave.mjs";

const here = dirname(fileURLToPath(import.meta.url));
const flag = (name, fallback) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1] : fallback;
};
const WAVES = String(flag("waves", "100,1000,20000")).split(",").filter(Boolean).map(Number);
const RUNS = Number(flag("runs", 3));
const MAX_REPEAT = Number(flag("max-repeat", 1000));
const CLI = resolve(flag("cli", join(here, "../dist/bin/orchard.js")));
const JSON_OUT = process.argv.includes("--json");
const root = hermeticRoot("wave");

const CG = counter("orchard's cleanup-wave calls", !process.argv.includes("--no-cgroup"));
function orchardWave(repo, manifests) {
  const home = join(repo.dir, "home");
  const perManifest = [];
  const entries = manifests.flatMap((m) => {
    const one = CG.call(repo.primary, process.execPath, [CLI, "--home", home, "--json", "cleanup-wave", "--manifest", m, "--allow-live"], { home });
    const done = JSON.parse(one.stdout).result.entries;
    perManifest.push({ wall: one.wall, cpu: one.cpu, entries: done.length });
    if (manifests.length > 1)
      say(
        `    manifest ${perManifest.length}/${manifests.length}: ${done.length} entries in ${fmt(one.wall)} (${fmt(one.wall / done.length)}/entry; load ${loadavg()[0].toFixed(1)})`,
      );
    return done;
  });
  const ok = entries.filter((e) => e.status === "merged_removed").length;
  if (ok !== entries.length || entries.length !== repo.entries.length)
    throw new Error(`the wave did ${ok}/${repo.entries.length}: ${JSON.stringify(entries.find((e) => e.status !== "merged_removed"))}`);
  const sum = (key) => perManifest.reduce((total, p) => total + p[key], 0);
  return { wall: sum("wall"), cpu: sum("cpu"), perManifest };
}

function gitLoop(repo, entries, withWorktrees) {
  return timed(() => {
    for (const e of entries) {
      spawnSync("git", ["merge", "-q", "--no-ff", "-m", `merge ${e.branch}`, e.branch], { cwd: repo.primary, stdio: "ignore" });
      if (withWorktrees) spawnSync("git", ["worktree", "remove", e.worktree_path], { cwd: repo.primary, stdio: "ignore" });
      spawnSync("git", ["branch", "-d", e.branch], { cwd: repo.primary, stdio: "ignore" });
    }
    const left = git(repo.primary, "for-each-ref", "--format=%(refname)", "refs/heads/worktree-agent-*").split("\n").filter(Boolean).length;
    if (left !== repo.entries.length - entries.length) throw new Error(`git's loop left ${left} branches`);
  });
}

function manifestsOf(repo) {
  return chunks(repo.entries).map((part, i) => {
    const file = join(repo.dir, `wave-${i}.json`);
    writeFileSync(file, JSON.stringify(part));
    return { file, count: part.length };
  });
}

const rows = [];
const fmt = (ms) => (ms >= 1000 ? `${(ms / 1000).toFixed(2)} s` : `${ms.toFixed(ms < 10 ? 2 : 0)} ms`);
const info = {
  cpus: cpus().length,
  model: cpus()[0]?.model ?? "?",
  node: process.version,
  git: git(root, "--version"),
  cli: CLI,
  cpu: CG.counted ? `${CG.kind}, the purge included` : "proc, purge NOT counted",
  loadAtStart: loadavg().map((x) => +x.toFixed(1)),
};

for (const w of WAVES) {
  const withWorktrees = w <= 1000;
  const repeat = w <= MAX_REPEAT ? RUNS : 1;
  const pairs = [];
  for (let r = 0; r < repeat; r++) {
    say(`wave of ${w} (${withWorktrees ? "a worktree each" : "branches only"}), run ${r + 1}/${repeat}: building…`);
    const mine = waveRepo(root, `w${w}-r${r}-orchard`, w, withWorktrees);
    const theirs = waveRepo(root, `w${w}-r${r}-git`, w, withWorktrees);
    const manifests = manifestsOf(mine);
    const sample = theirs.entries.slice(0, manifests[0].count);
    const load = loadavg()[0];
    say(`  measuring (load ${load.toFixed(1)}; ${manifests.length} manifest(s); git's loop on ${sample.length} entries)…`);
    let a;
    let b;
    if (r % 2 === 0) {
      a = orchardWave(
        mine,
        manifests.map((m) => m.file),
      );
      b = gitLoop(theirs, sample, withWorktrees);
    } else {
      b = gitLoop(theirs, sample, withWorktrees);
      a = orchardWave(
        mine,
        manifests.map((m) => m.file),
      );
    }
    const first = a.perManifest[0];
    const pair = {
      w,
      r,
      load,
      entries: w,
      sample: sample.length,
      a,
      b,
      ratio: first.wall / first.entries / (b.wall / sample.length),
      cpuRatio: first.cpu / first.entries / (b.cpu / sample.length),
    };
    pairs.push(pair);
    say(
      `  orchard ${fmt(a.wall)} (cpu ${fmt(a.cpu)}; ${fmt(a.wall / w)}/entry; first manifest ${fmt(first.wall / first.entries)}/entry) · git ${fmt(b.wall)} for ${sample.length} (cpu ${fmt(b.cpu)}; ${fmt(b.wall / sample.length)}/entry) → ${pair.ratio.toFixed(2)}× (cpu ${pair.cpuRatio.toFixed(2)}×)`,
    );
    rmSync(mine.dir, { recursive: true, force: true });
    rmSync(theirs.dir, { recursive: true, force: true });
  }
  const best = pairs.reduce((x, y) => (y.ratio < x.ratio ? y : x));
  rows.push({
    w,
    withWorktrees,
    runs: pairs.length,
    best: best.ratio,
    median: median(pairs.map((p) => p.ratio)),
    cpuMedian: median(pairs.map((p) => p.cpuRatio)),
    orchardPerEntry: median(pairs.map((p) => p.a.wall / p.w)),
    orchardFirstPerEntry: median(pairs.map((p) => p.a.perManifest[0].wall / p.a.perManifest[0].entries)),
    gitPerEntry: median(pairs.map((p) => p.b.wall / p.sample)),
    sample: pairs[0].sample,
    loads: pairs.map((p) => +p.load.toFixed(1)),
  });
}
info.loadAtEnd = loadavg().map((x) => +x.toFixed(1));
if (JSON_OUT) process.stdout.write(JSON.stringify({ machine: info, rows }, null, 2) + "\n");
else {
  process.stdout.write(
    `\n${info.cpus} cores (${info.model}), node ${info.node}, ${info.git}, load ${info.loadAtStart.join(" ")} → ${info.loadAtEnd.join(" ")}\n\n` +
      `| wave | runs | orchard per entry (whole wave) | orchard per entry (git's entries) | git's loop per entry | ratio, best (median) | CPU ratio (median; ${CG.label}) | load | goal |\n| --- | --- | --- | --- | --- | --- | --- | --- | --- |\n`,
  );
  for (const r of rows)
    process.stdout.write(
      `| ${r.w} (${r.withWorktrees ? "a worktree each" : "branches only"}) | ${r.runs} | ${fmt(r.orchardPerEntry)} | ${fmt(r.orchardFirstPerEntry)} | ${fmt(r.gitPerEntry)} (${r.sample} entries) | ${r.best.toFixed(2)}× (${r.median.toFixed(2)}×) | ${r.cpuMedian.toFixed(2)}× | ${r.loads.join(", ")} | ≤ 1.3× |\n`,
    );
}
rmSync(root, { recursive: true, force: true });
