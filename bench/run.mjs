// `npm run bench`: the per-call cost table (table.mjs) after `npm run build`. Flags go to the
// scripts: `npm run bench -- --n 200 --json` (N = 50, 200, 400 for the fleet rows; default 20,
// a couple of minutes on 2 cores), GSD's read-only calls against GSD's own module (gsd-read.mjs,
// 500 worktrees; BENCH_GSD_N=50 for a quick run), then time to ready on a real project's lockfile (ready.mjs, N by
// ORCHARD_BENCH_READY_N, a few minutes more). Name scripts of this folder to run them instead, one after
// another: `npm run bench -- hygiene recycle` (fleet hygiene/cleanup, recycle vs create;
// `lock-wait`: an add during a long cleanup run; `wave -- --waves 100,1000`: cleanup-wave against
// git's own loop, bench/wave.mjs). `npm run bench -- --scale`: the scale table
// (bench/scale.mjs: N = 100, 400, 1,000; `--scale-2000` adds 2,000), tens of minutes.
import { readdirSync } from "node:fs";
import { spawnSync } from "node:child_process";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
const args = process.argv.slice(2);
const flags = [];
const names = [];
for (let i = 0; i < args.length; i++) {
  if (args[i].startsWith("--")) {
    flags.push(args[i]);
    const bare = ["--json", "--scale", "--scale-2000"].includes(args[i]);
    if (args[i + 1] !== undefined && !args[i + 1].startsWith("--") && !bare) flags.push(args[++i]);
  } else names.push(args[i]);
}
// `--scale` (and `--scale-2000`): the scale table of issue 25 (bench/scale.mjs) instead, a long run
const scale = flags.includes("--scale") || flags.includes("--scale-2000");
const wanted = names.length ? names : scale ? ["scale"] : ["table", "everyday", "registry", "gsd-read", "ready"];
const scripts = readdirSync(here)
  .filter((f) => f.endsWith(".mjs") && f !== "run.mjs" && !f.startsWith("_"))
  .filter((f) => wanted.some((w) => f.startsWith(w)));
let failed = 0;
for (const script of scripts) {
  if (!flags.includes("--json")) process.stdout.write(`\n## ${script}\n`);
  const r = spawnSync(process.execPath, [join(here, script), ...flags], { stdio: "inherit" });
  if (r.status !== 0) failed++;
}
process.exit(failed ? 1 : 0);
