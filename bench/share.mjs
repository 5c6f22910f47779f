#!/usr/bin/env node
// bootstrap.share (issue 37): time to ready and physical disk of N worktrees of one real lockfile.
// The repository holds this project's own package.json and package-lock.json (372 packages from
// the npm registry); its bootstrap is `npm ci --ignore-scripts` with the machine's warm npm cache,
// and `bootstrap.share: ["node_modules"]` with the method asked for. Worktree 1 installs and keeps
// the copy; worktrees 2..N are timed (`orchard add`, whole process) against `npm ci` in a fresh
// worktree of the same repository (the baseline, medians of --baseline runs). Disk: `du` of the
// managed worktrees and the kept copies together (each inode once) against one install plus N
// checkouts. With --home-dir (a filesystem of the bench's own, e.g. a loop-mounted XFS image), the
// physical disk is the filesystem's used space before and after (statfs): du counts a reflinked
// extent once per file.
// Usage: npm run build && node bench/share.mjs [--n 20] [--method auto|clone|hardlink|copy]
//        [--home-dir <dir on the filesystem to measure>] [--baseline 3]
import { execFileSync, spawnSync } from "node:child_process";
import { copyFileSync, mkdirSync, rmSync, statfsSync, writeFileSync } from "node:fs";
import { homedir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { hermeticRoot } from "./_hermetic.mjs";

const arg = (name, fallback) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1] : fallback;
};
const N = Number(arg("n", 20));
const METHOD = arg("method", "auto");
const BASELINE = Number(arg("baseline", 3));
const NPM_CACHE = process.env.npm_config_cache || join(homedir(), ".npm"); // the warm cache, before HOME moves
const project = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const CLI = join(project, "dist", "bin", "orchard.js");

const root = hermeticRoot("share", { ORCHARD_TRUST: "1", npm_config_cache: NPM_CACHE, npm_config_update_notifier: "false" });
const homeParent = arg("home-dir", root);
const home = join(homeParent, `orchard-share-home-${process.pid}`);
const git = (cwd, ...args) => execFileSync("git", args, { cwd, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] }).trim();
const INSTALL = "npm ci --ignore-scripts --no-audit --no-fund --prefer-offline";

function makeRepo() {
  const primary = join(root, "app");
  git(root, "init", "-q", "-b", "main", primary);
  for (const f of ["package.json", "package-lock.json"]) copyFileSync(join(project, f), join(primary, f));
  writeFileSync(join(primary, ".gitignore"), "node_modules/\n");
  git(primary, "add", "-A");
  git(primary, "commit", "-q", "-m", "a real lockfile");
  const bootstrap = { run: [INSTALL], inputs: ["package-lock.json"], share: ["node_modules"], shareMethod: METHOD };
  writeFileSync(join(primary, ".orchard.json"), JSON.stringify({ bootstrap }) + "\n");
  writeFileSync(join(primary, ".git", "info", "exclude"), ".orchard.json\n");
  return primary;
}

function timed(cmd, args, cwd) {
  const started = performance.now();
  const r = spawnSync(cmd, args, { cwd, encoding: "utf8", maxBuffer: 64 * 1024 * 1024 });
  const ms = performance.now() - started;
  if (r.status !== 0) throw new Error(`${cmd} ${args.join(" ")}: exit ${r.status}\n${r.stderr}`);
  return { ms, stdout: r.stdout };
}

/** Allocated bytes of the paths together, each inode once (one `du` invocation). */
function du(...paths) {
  const out = execFileSync("du", ["-s", "-c", "--block-size=1", ...paths], { encoding: "utf8" });
  return Number(/^(\d+)\s+total$/m.exec(out)[1]);
}
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const mib = (b) => `${(b / 2 ** 20).toFixed(1)} MiB`;
const s = (ms) => `${(ms / 1000).toFixed(2)} s`;

/** Bytes in use on the filesystem of `dir` (statfs): the physical truth where du cannot see shared extents. */
const usedOn = (dir) => {
  const st = statfsSync(dir);
  return (st.blocks - st.bfree) * st.bsize;
};
const primary = makeRepo();
mkdirSync(home, { recursive: true });
const usedBefore = usedOn(home);
const orchard = (...args) => timed(process.execPath, [CLI, "--home", home, "--repo", primary, "--json", ...args], primary);

const first = orchard("add", "wt-1");
const firstJson = JSON.parse(first.stdout);
if (firstJson.bootstrap.share?.action !== "kept") throw new Error(`worktree 1 kept no copy: ${first.stdout}`);
const shared = [];
let method = null;
for (let i = 2; i <= N; i++) {
  const r = orchard("add", `wt-${i}`);
  const json = JSON.parse(r.stdout);
  if (json.bootstrap.status !== "shared") throw new Error(`wt-${i} was not shared: ${r.stdout}`);
  method = json.bootstrap.share.method;
  shared.push(r.ms);
}
const worktrees = join(home, "worktrees");
// du counts a reflinked extent once per file; on a filesystem of its own (--home-dir) statfs tells what is really used
const physical = arg("home-dir") ? usedOn(home) - usedBefore : du(worktrees, join(home, "share"));
const install = du(join(worktrees, "app@wt-1", "node_modules"));
const checkout = execFileSync("du", ["-s", "--block-size=1", "--exclude=node_modules", join(worktrees, "app@wt-2")], { encoding: "utf8" });
const checkoutBytes = Number(checkout.split(/\s/)[0]);
const ideal = install + N * checkoutBytes;

// the baseline: npm ci in a fresh plain worktree of the same repository, warm cache
const baseline = [];
for (let i = 0; i < BASELINE; i++) {
  const dir = join(root, `plain-${i}`);
  git(primary, "worktree", "add", "-q", "-b", `plain-${i}`, dir);
  const r = timed("sh", ["-c", INSTALL], dir);
  baseline.push(r.ms);
  rmSync(dir, { recursive: true, force: true });
  git(primary, "worktree", "prune");
}

const fs = execFileSync("df", ["--output=fstype", home], { encoding: "utf8" }).trim().split("\n").pop();
const result = {
  n: N,
  method: METHOD,
  used: method,
  filesystem: fs,
  firstAddMs: Math.round(first.ms),
  sharedAddMedianMs: Math.round(median(shared)),
  npmCiMedianMs: Math.round(median(baseline)),
  timeRatio: +(median(shared) / median(baseline)).toFixed(3),
  physicalBytes: physical,
  oneInstallPlusCheckoutsBytes: ideal,
  diskRatio: +(physical / ideal).toFixed(3),
};
console.log(JSON.stringify(result));
console.log(
  `${N} worktrees, ${METHOD} (used ${method}) on ${fs}: add 2..${N} ${s(result.sharedAddMedianMs)} vs npm ci ${s(result.npmCiMedianMs)} → ${result.timeRatio}×; ` +
    `disk ${mib(physical)} vs one install + ${N} checkouts ${mib(ideal)} → ${result.diskRatio}× (first add ${s(result.firstAddMs)})`,
);
rmSync(home, { recursive: true, force: true });
rmSync(root, { recursive: true, force: true });
