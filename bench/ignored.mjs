#!/usr/bin/env node
// The cost of the ignored-file scan (SPEC §4.7) in `hygiene`. A GSD-like fleet of N managed
// worktrees (default 200), each holding what real agent worktrees hold in ignored paths: a
// `node_modules/` of 40 files (disposable: listed as one entry, never walked) and the `.env`
// bootstrap copied (identical to the primary's: compared once, sizes first); every fifth also
// holds unique work — `.planning/` (3 files), `TO-DOS.md` and a changed `.env`. Measures
// `hygiene` per call (median of 7) with this build, then the scan's own parts in this build: the
// statuses hygiene reads with and without `--ignored=matching`, and the walk (medians of 9). With
// `--baseline <dir of a built dist>` a baseline build's hygiene too, calls alternating. Each build
// builds its own fleet (same content, its own primary and workspace), so a baseline from before a
// registry schema change works: e.g. a build of the commit before the scan (b5a3165^, schema 1).
// Usage: npm run build && node bench/ignored.mjs [--size 200] [--baseline ../before/dist]
import { execFileSync } from "node:child_process";
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { hermeticRoot } from "./_hermetic.mjs";

const arg = (name) => {
  const i = process.argv.indexOf(name);
  return i > 0 ? process.argv[i + 1] : undefined;
};
const N = Number(arg("--size") ?? 200);
const baseline = arg("--baseline");
const root = hermeticRoot("ignored");
const git = (cwd, ...args) => execFileSync("git", args, { cwd, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] }).trim();
const put = (dir, rel, content) => {
  mkdirSync(join(dir, rel, ".."), { recursive: true });
  writeFileSync(join(dir, rel), content);
};

async function buildFleet(Orchard, dir) {
  mkdirSync(dir);
  const origin = join(dir, "origin.git");
  const primary = join(dir, "app");
  git(dir, "init", "-q", "--bare", "-b", "main", origin);
  git(dir, "init", "-q", "-b", "main", primary);
  for (let i = 0; i < 200; i++) put(primary, `src/f${i}.txt`, `line ${i}\n`);
  writeFileSync(join(primary, ".gitignore"), "node_modules/\n.planning/\nTO-DOS.md\n.env\n");
  git(primary, "add", "-A");
  git(primary, "commit", "-q", "-m", "initial");
  git(primary, "remote", "add", "origin", origin);
  git(primary, "push", "-q", "-u", "origin", "main");
  git(primary, "remote", "set-head", "origin", "main");
  const env = "API_KEY=primary\n" + "X=1\n".repeat(50);
  writeFileSync(join(primary, ".env"), env);
  const orchard = await Orchard.open({ repo: primary, home: join(dir, "home") });
  const paths = [];
  for (let i = 0; i < N; i++) {
    const w = await orchard.add({ branch: `agent/w-${i}`, bootstrap: false });
    paths.push(w.path);
    for (let k = 0; k < 40; k++) put(w.path, `node_modules/pkg-${k % 8}/file-${k}.js`, `module.exports = ${k};\n`);
    writeFileSync(join(w.path, ".env"), env);
    if (i % 5 === 0) {
      for (let k = 0; k < 3; k++) put(w.path, `.planning/phase-${k}/PLAN.md`, `# phase ${k}\n`);
      writeFileSync(join(w.path, "TO-DOS.md"), "- todo\n");
      writeFileSync(join(w.path, ".env"), env.replace("primary", `worktree-${i}`));
    }
    await orchard.release({ target: w.handle });
  }
  orchard.close();
  return { primary, paths };
}

/** One build with its own fleet under `root/<name>`, opened and warmed. */
async function open(dist, name) {
  const { Orchard } = await import(pathToFileURL(join(resolve(dist), "index.js")).href);
  process.stdout.write(`building a fleet of ${N} with ${name}…\n`);
  const dir = join(root, name);
  const { primary, paths } = await buildFleet(Orchard, dir);
  const orchard = await Orchard.open({ repo: primary, home: join(dir, "home") });
  await orchard.hygiene({}); // warm the file cache
  return { orchard, primary, paths, times: [], result: null };
}

/** Calls alternate between the builds, so a change in machine load hits both alike; medians of 7. */
async function measure(builds) {
  for (let i = 0; i < 7; i++)
    for (const b of builds) {
      const started = performance.now();
      b.result = await b.orchard.hygiene({});
      b.times.push(performance.now() - started);
    }
  return builds.map((b) => {
    b.orchard.close();
    const sorted = [...b.times].sort((x, y) => x - y);
    return { ms: sorted[3], byDisposition: b.result.summary.byDisposition };
  });
}

/** The scan's parts in this build, on its fleet: statuses without and with ignored entries, then the walk. */
async function parts(dist, { primary, paths }) {
  const load = async (rel) => await import(pathToFileURL(join(resolve(dist), rel)).href);
  const { readStatuses } = await load("git/read.js");
  const { scanIgnored } = await load("core/facts/ignored.js");
  const { disposableMatcher } = await load("core/facts/disposable.js");
  const { STATUS_PARALLELISM: slices } = await load("core/shared/pool.js");
  const disposable = disposableMatcher([]);
  const times = { plain: [], ignored: [], walk: [] };
  let unique = 0;
  const timed = async (list, fn) => {
    const started = performance.now();
    const value = await fn();
    list.push(performance.now() - started);
    return value;
  };
  for (let i = 0; i < 9; i++) {
    await timed(times.plain, () => readStatuses(paths, { ignored: false, slices }));
    const statuses = await timed(times.ignored, () => readStatuses(paths, { ignored: true, slices }));
    unique = await timed(times.walk, () => statuses.reduce((n, status, k) => n + scanIgnored({ worktree: paths[k], status, primary, disposable }).length, 0));
  }
  const median = (xs) => [...xs].sort((x, y) => x - y)[4];
  return { plain: median(times.plain), ignored: median(times.ignored), walk: median(times.walk), unique };
}

const here = new URL("../dist/", import.meta.url).pathname;
const builds = [await open(here, "this"), ...(baseline ? [await open(baseline, "baseline")] : [])];
const [after, before] = await measure(builds);
const own = await parts(here, builds[0]);
const mix = (d) =>
  Object.entries(d)
    .filter(([, v]) => v > 0)
    .map(([k, v]) => `${k} ${v}`)
    .join(", ");
process.stdout.write(`N=${N}: hygiene ${Math.round(after.ms)} ms per call with the scan (${mix(after.byDisposition)})\n`);
process.stdout.write(
  `N=${N}: statuses ${Math.round(own.plain)} ms without --ignored, ${Math.round(own.ignored)} ms with --ignored=matching; ` +
    `walk and compare ${own.walk.toFixed(1)} ms (${own.unique} unique ignored files)\n`,
);
if (before)
  process.stdout.write(
    `N=${N}: hygiene ${Math.round(before.ms)} ms per call in the baseline (${mix(before.byDisposition)}); after/before = ${(after.ms / before.ms).toFixed(2)}\n`,
  );
rmSync(root, { recursive: true, force: true });
