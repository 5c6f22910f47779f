#!/usr/bin/env node
// One worktree's verbs that are not `remove` (issue 48 item 2), in CPU time (user + sys of the command
// and its children), this build against another (`--base`, e.g. main's) in the same fleet and the same
// samples, taking turns going first; the median of the pairwise ratios. At each fleet size (`--n`):
//   hook-remove   `orchard claude-code worktree-remove` of a clean session worktree (Claude Code's WorktreeRemove)
//   status        `orchard status <handle>` of a worktree with a commit the default branch lacks
//   merge         `orchard merge <handle>` of a released worktree with one commit (then origin/main is pushed to main
//                 outside the measure, so every sample proves against one target commit)
// hook-remove and merge remove the worktree: the command answers and a detached purger deletes the tree. Their
// calls (both builds') run in a cgroup each (bench/_cgroup.mjs): the CPU of every process a call starts, the purge
// included, and no call starts before the previous call's purge has ended. Without a cgroup the bench warns loudly,
// the rows say "purge NOT counted", and each call waits for the trash to drain. `--no-cgroup`: as without one.
// A row's cost should not grow with the fleet: compare its CPU at the two sizes. The first `--managed` (default 40)
// worktrees are Orchard's, the rest plain `git worktree add`s (git's listing and admin dirs grow as much).
// Linux only (/proc accounting).
//   npm run build && node bench/one-verbs.mjs --base /work/main/dist/bin/orchard.js [--n 40,400] [--runs 7] [--managed 40] [--no-cgroup]
import { execFileSync, spawnSync } from "node:child_process";
import { cpus, loadavg } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { counter } from "./_cgroup.mjs";
import { hermeticRoot } from "./_hermetic.mjs";
import { cpuNow, makeRepo, median, say } from "./_measure.mjs";

const here = dirname(fileURLToPath(import.meta.url));
const flag = (name, fallback) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1] : fallback;
};
const RUNS = Math.max(3, Number(flag("runs", 7)));
const SIZES = flag("n", "40,400").split(",").map(Number);
const MANAGED = Number(flag("managed", 40));
const CLI = resolve(flag("cli", join(here, "../dist/bin/orchard.js")));
const BASE = flag("base", "") ? resolve(flag("base", "")) : null;
if (BASE === null) throw new Error("--base <orchard.js>: the build to compare with (e.g. /work/main/dist/bin/orchard.js)");
const loadAtStart = loadavg().map((x) => Math.round(x * 10) / 10);
const root = hermeticRoot("one-verbs");
const git = (cwd, ...args) => execFileSync("git", args, { cwd, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] }).trim();

function fleet(n) {
  const primary = makeRepo(join(root, `n${n}`));
  const repo = { primary, home: join(root, `n${n}`, "home") };
  const managed = Math.min(n, MANAGED);
  say(`n=${n}: building ${managed} managed and ${n - managed} plain worktrees…`);
  for (let i = managed; i < n; i++) git(primary, "worktree", "add", "-q", "-b", `fill/w${i}`, join(root, `n${n}-fill`, `w${i}`), "main");
  for (let i = 0; i < managed; i++) {
    const handle = cli(CLI, repo, ["--json", "add", `fleet/w${i}`, "--owner", `agent-${i}`, "--no-bootstrap"]).handle;
    if (i % 3 === 0) cli(CLI, repo, ["release", handle, "--owner", `agent-${i}`]);
  }
  return repo;
}
function cli(build, { primary, home }, args, input) {
  const r = spawnSync(process.execPath, [build, "--home", home, ...args], { cwd: primary, encoding: "utf8", input });
  if (r.status !== 0 && !(args[0] === "claude-code" && r.status === 1)) throw new Error(`orchard ${args.join(" ")} exited ${r.status}: ${r.stderr}`);
  return args.includes("--json") ? JSON.parse(r.stdout) : r.stdout;
}
const CG = counter("hook-remove and merge", !process.argv.includes("--no-cgroup"));
/** CPU ms of one call that removes, every process it starts (the cgroup), or its waited-for ones then a drained trash. */
const removing =
  (build, { primary, home }, args, input) =>
  () =>
    CG.call(primary, process.execPath, [build, "--home", home, ...args], { input, home, anyExit: args[0] === "claude-code" }).cpu;
/** CPU ms of one call (spawnSync waits: its children count). */
function cpuOf(fn) {
  const before = cpuNow();
  fn();
  return cpuNow() - before;
}

const rows = [];
function row(id, n, sample) {
  if (id !== "status") id = `${id}, ${CG.label}`;
  say(`measuring ${id} at ${n}…`);
  sample(-1);
  const a = [];
  const b = [];
  for (let i = 0; i < RUNS; i++) {
    const [x, y] = sample(i);
    a.push(x);
    b.push(y);
  }
  const r = { id, n, a: median(a), b: median(b), ratio: median(a.map((x, i) => x / b[i])) };
  rows.push(r);
  say(`  ${id} n=${n}: ${r.a.toFixed(1)} ms vs base ${r.b.toFixed(1)} ms, ${r.ratio.toFixed(2)}×`);
}
/** Both builds, each on its own fresh subject, taking turns going first. */
const turns = (i, mine, theirs) => {
  if (i % 2 === 0) {
    const x = mine();
    return [x, theirs()];
  }
  const y = theirs();
  return [mine(), y];
};

let made = 0;
for (const n of SIZES) {
  const repo = fleet(n);
  const session = (build) => {
    const name = `s${made++}`;
    const payload = { session_id: "bench", transcript_path: "/nowhere.jsonl", cwd: repo.primary, hook_event_name: "WorktreeCreate", name };
    return cli(build, repo, ["claude-code", "worktree-create"], JSON.stringify(payload)).trim();
  };
  const hookRemove = (build, path) =>
    removing(
      build,
      repo,
      ["claude-code", "worktree-remove"],
      JSON.stringify({ session_id: "bench", cwd: repo.primary, hook_event_name: "WorktreeRemove", worktree_path: path }),
    );
  row("hook-remove", n, (i) => {
    const [mine, theirs] = [session(CLI), session(BASE)];
    return turns(i, hookRemove(CLI, mine), hookRemove(BASE, theirs));
  });
  const unmerged = cli(CLI, repo, ["--json", "add", `unmerged/u${n}`, "--owner", "bench", "--no-bootstrap"]);
  git(unmerged.path, "commit", "-q", "--allow-empty", "-m", "not on main");
  git(unmerged.path, "commit", "-q", "--allow-empty", "-m", "nor this");
  execFileSync("sh", ["-c", "echo change > change.txt && git add change.txt && git commit -q -m change"], { cwd: unmerged.path });
  row("status", n, (i) =>
    turns(
      i,
      () => cpuOf(() => cli(CLI, repo, ["status", unmerged.handle])),
      () => cpuOf(() => cli(BASE, repo, ["status", unmerged.handle])),
    ),
  );
  const toMerge = () => {
    const branch = `merge/m${made++}`;
    const w = cli(CLI, repo, ["--json", "add", branch, "--owner", "bench", "--no-bootstrap"]);
    execFileSync("sh", ["-c", `echo ${branch} > ${branch.replace("/", "-")}.txt && git add -A && git commit -q -m ${branch}`], { cwd: w.path });
    cli(CLI, repo, ["release", w.handle, "--owner", "bench"]);
    return w.handle;
  };
  const merge = (build, handle) => removing(build, repo, ["merge", handle]);
  row("merge", n, (i) => {
    const [mine, theirs] = [toMerge(), toMerge()];
    const r = turns(i, merge(CLI, mine), merge(BASE, theirs));
    git(repo.primary, "push", "-q", "origin", "main");
    return r;
  });
}

const loadAtEnd = loadavg().map((x) => Math.round(x * 10) / 10);
process.stdout.write(
  `\n${cpus().length} cores (${cpus()[0]?.model ?? "?"}), node ${process.version}, load ${loadAtStart.join(" ")} → ${loadAtEnd.join(" ")}; ` +
    `medians of ${RUNS} samples, CPU (user + sys, children included; hook-remove, merge: ${CG.counted ? `every process a call starts, detached included, in a ${CG.kind} group, wrapper's ${CG.wrapperMs.toFixed(2)} ms subtracted` : "purge NOT counted"}); base ${BASE}\n\n| verb | worktrees | this build | base | this / base |\n| --- | --- | --- | --- | --- |\n`,
);
for (const r of rows) process.stdout.write(`| ${r.id} | ${r.n} | ${r.a.toFixed(1)} ms | ${r.b.toFixed(1)} ms | ${r.ratio.toFixed(2)}× |\n`);
execFileSync("rm", ["-rf", root]); // the fleets, their worktrees and workspaces
