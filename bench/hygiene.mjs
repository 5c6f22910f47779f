#!/usr/bin/env node
// Hygiene and cleanup at fleet scale. For N = 50, 200, 400 managed worktrees (a realistic mix:
// released and merged, own commits merged by a real merge, pushed, idle with unpushed commits,
// released with uncommitted work, live, missing directories) it measures:
//   - `hygiene`: wall time and processes started (ORCHARD_TRACE lines), against a naive loop
//     that a shell script would run: per worktree `git status`, `git rev-list --count HEAD --not
//     --remotes`, `git merge-base --is-ancestor HEAD main`, one after another;
//   - `cleanup run` (default include): wall time, processes, items done, per removed worktree. Wall time until
//     the call answers: the detached purge of the removed trees is outside it, by design; the bench then
//     waits for the trash to be empty ("purge after", outside every other column) before it measures again,
//     so the purge never lands in another measure's time. No row here is CPU (bench/_cgroup.mjs is for those).
// Uses the built library (dist/index.js) with a hermetic git environment.
// Usage: npm run build && node bench/hygiene.mjs [--sizes 50,200,400]
import { execFileSync, spawnSync } from "node:child_process";
import { mkdirSync, rmSync, writeFileSync } from "node:fs";

import { join } from "node:path";
import { hermeticRoot } from "./_hermetic.mjs";
import { drain } from "./_measure.mjs";

const sizesArg = process.argv.indexOf("--sizes");
const SIZES = sizesArg > 0 ? process.argv[sizesArg + 1].split(",").map(Number) : [50, 200, 400];

const root = hermeticRoot("hygiene");
const { Orchard } = await import("../dist/index.js");

const git = (cwd, ...args) => execFileSync("git", args, { cwd, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] }).trim();

// Counting processes: the library traces every process it starts to stderr when ORCHARD_TRACE=1.
let traced = 0;
const write = process.stderr.write.bind(process.stderr);
process.stderr.write = (chunk, ...rest) => {
  const text = String(chunk);
  if (text.startsWith("[orchard trace]")) {
    traced += text.split("\n").filter((l) => l.startsWith("[orchard trace]")).length;
    return true;
  }
  return write(chunk, ...rest);
};
async function measure(fn) {
  traced = 0;
  process.env.ORCHARD_TRACE = "1";
  const started = performance.now();
  const result = await fn();
  const ms = performance.now() - started;
  delete process.env.ORCHARD_TRACE;
  return { ms, processes: traced, result };
}

async function buildFleet(n) {
  const dir = join(root, `fleet-${n}`);
  const origin = join(dir, "origin.git");
  const primary = join(dir, "app");
  mkdirSync(dir, { recursive: true });
  git(dir, "init", "-q", "--bare", "-b", "main", origin);
  git(dir, "init", "-q", "-b", "main", primary);
  mkdirSync(join(primary, "src"));
  for (let i = 0; i < 200; i++) writeFileSync(join(primary, "src", `f${i}.txt`), `line ${i}\n`);
  git(primary, "add", "-A");
  git(primary, "commit", "-q", "-m", "initial");
  git(primary, "remote", "add", "origin", origin);
  git(primary, "push", "-q", "-u", "origin", "main");
  git(primary, "remote", "set-head", "origin", "main");
  const orchard = await Orchard.open({ repo: primary, home: join(dir, "home") });
  const kinds = ["released", "released", "released", "merged", "merged", "pushed", "idle", "dirty", "live", "missing"];
  const merged = [];
  const pushed = [];
  for (let i = 0; i < n; i++) {
    const kind = kinds[i % kinds.length];
    const branch = `agent/${kind}-${i}`;
    const w = await orchard.add({ branch, bootstrap: false, ...(kind === "live" ? { owner: `agent-${i}` } : {}) });
    if (kind === "merged" || kind === "pushed" || kind === "idle") {
      writeFileSync(join(w.path, `work-${i}.txt`), `work ${i}\n`);
      git(w.path, "add", "-A");
      git(w.path, "commit", "-q", "-m", `work ${i}`);
    }
    if (kind === "merged") merged.push(branch);
    if (kind === "pushed") pushed.push(branch);
    if (kind === "dirty") writeFileSync(join(w.path, "notes.txt"), "uncommitted\n");
    if (kind === "released" || kind === "dirty" || kind === "merged") await orchard.release({ target: w.handle });
    if (kind === "missing") rmSync(w.path, { recursive: true, force: true });
  }
  for (let i = 0; i < merged.length; i += 50) git(primary, "merge", "-q", "--no-edit", "-m", "merge agents", ...merged.slice(i, i + 50));
  git(primary, "push", "-q", "origin", "main", ...pushed.map((b) => `${b}:${b}`));
  return { orchard, primary, home: join(dir, "home") };
}

/** What a shell loop would do: three git processes per worktree, one after another. */
function naiveHygiene(primary) {
  const started = performance.now();
  const list = git(primary, "worktree", "list", "--porcelain")
    .split("\n")
    .filter((l) => l.startsWith("worktree "))
    .map((l) => l.slice(9))
    .slice(1);
  let processes = 1;
  for (const wt of list) {
    for (const args of [
      ["status", "--porcelain"],
      ["rev-list", "--count", "HEAD", "--not", "--remotes"],
      ["merge-base", "--is-ancestor", "HEAD", "main"],
    ]) {
      spawnSync("git", ["-C", wt, ...args], { encoding: "utf8" });
      processes++;
    }
  }
  return { ms: performance.now() - started, processes };
}

const rows = [];
for (const n of SIZES) {
  process.stdout.write(`building a fleet of ${n}…\n`);
  const { orchard, primary, home } = await buildFleet(n);
  const naive = naiveHygiene(primary);
  const hygiene = await measure(() => orchard.hygiene({}));
  const disk = await measure(() => orchard.hygiene({ disk: true }));
  const run = await measure(() => orchard.cleanupRun({}));
  orchard.flushBackground(); // what the CLI does once it has answered: the detached purge starts
  const purgeMs = drain(home); // the purge, outside the run's time and before the next measure
  const after = await orchard.hygiene({});
  orchard.close();
  const counts = hygiene.result.summary.byDisposition;
  rows.push({
    n,
    naiveMs: naive.ms,
    naiveProcs: naive.processes,
    hygieneMs: hygiene.ms,
    hygieneProcs: hygiene.processes,
    diskMs: disk.ms,
    diskBytes: disk.result.summary.disk.bytes,
    runMs: run.ms,
    purgeMs,
    runProcs: run.processes,
    runDone: run.result.done,
    runRounds: run.result.rounds,
    backlogBefore: hygiene.result.cleanupBacklog.count,
    backlogAfter: after.cleanupBacklog.count,
    mix: Object.entries(counts)
      .filter(([, v]) => v > 0)
      .map(([k, v]) => `${k} ${v}`)
      .join(", "),
  });
}

const fmt = (ms) => (ms >= 1000 ? `${(ms / 1000).toFixed(2)} s` : `${Math.round(ms)} ms`);
const table = [
  [
    "N",
    "naive loop",
    "procs",
    "orchard hygiene",
    "procs",
    "time ×",
    "procs ×",
    "hygiene --disk",
    "cleanup run",
    "procs",
    "items done",
    "procs/item",
    "purge after",
  ],
  ...rows.map((r) => [
    String(r.n),
    fmt(r.naiveMs),
    String(r.naiveProcs),
    fmt(r.hygieneMs),
    String(r.hygieneProcs),
    (r.naiveMs / r.hygieneMs).toFixed(2),
    (r.naiveProcs / r.hygieneProcs).toFixed(2),
    fmt(r.diskMs),
    fmt(r.runMs),
    String(r.runProcs),
    String(r.runDone),
    (r.runProcs / Math.max(1, r.runDone)).toFixed(2),
    fmt(r.purgeMs),
  ]),
];
const widths = table[0].map((_, i) => Math.max(...table.map((row) => row[i].length)));
process.stdout.write("\n" + table.map((row) => row.map((c, i) => c.padStart(widths[i])).join("  ")).join("\n") + "\n\n");
for (const r of rows)
  process.stdout.write(
    `N=${r.n}: ${r.mix}; ${(r.diskBytes / 1048576).toFixed(1)} MiB on disk; backlog ${r.backlogBefore} → ${r.backlogAfter} after cleanup run (${r.runRounds} round(s))\n`,
  );
process.stdout.write(
  "× = naive / orchard (above 1: orchard is faster / starts fewer processes). The naive loop proves less: no squash-merge or\n" +
    "patch-equivalence proofs, no liveness, no husks, no patch-ids, no disk — orchard's hygiene does all of these.\n",
);
rmSync(root, { recursive: true, force: true });
