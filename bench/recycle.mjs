#!/usr/bin/env node
// Recycle vs create+bootstrap: is recycling a released worktree measurably cheaper than making a
// new one? A repo whose (trusted) bootstrap generates a large `node_modules` (FILES files,
// MEGABYTES MB) that `bootstrap.preserve` keeps. Each run times `add` (worktree add + bootstrap)
// and then `recycle` of that same worktree once released (switch, clean keeping node_modules,
// move, lock, context, commands skipped). Prints the medians and their ratio.
// Usage: npm run build && node bench/recycle.mjs [--runs 5] [--files 20000] [--mb 200]
import { execFileSync } from "node:child_process";
import { mkdirSync, rmSync, writeFileSync } from "node:fs";

import { join } from "node:path";
import { hermeticRoot } from "./_hermetic.mjs";

const arg = (name, fallback) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : fallback;
};
const RUNS = arg("runs", 5);
const FILES = arg("files", 20_000);
const MEGABYTES = arg("mb", 200);

const root = hermeticRoot("recycle", { ORCHARD_TRUST: "1" });
const { Orchard } = await import("../dist/index.js");

const git = (cwd, ...args) => execFileSync("git", args, { cwd, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] }).trim();

function makeRepo() {
  const origin = join(root, "origin.git");
  const primary = join(root, "app");
  git(root, "init", "-q", "--bare", "-b", "main", origin);
  git(root, "init", "-q", "-b", "main", primary);
  writeFileSync(join(primary, ".gitignore"), "node_modules/\n");
  writeFileSync(join(primary, "package-lock.json"), JSON.stringify({ lockfileVersion: 3, packages: {} }) + "\n");
  // The "install": FILES files of equal size spread over 100 package directories.
  const size = Math.floor((MEGABYTES * 1024 * 1024) / FILES);
  writeFileSync(
    join(primary, "install.mjs"),
    `import { mkdirSync, writeFileSync } from "node:fs";
const chunk = Buffer.alloc(${size}, 97);
for (let i = 0; i < ${FILES}; i++) {
  const dir = "node_modules/pkg-" + (i % 100) + "/lib";
  if (i < 100) mkdirSync(dir, { recursive: true });
  writeFileSync(dir + "/f" + i + ".js", chunk);
}
`,
  );
  writeFileSync(join(primary, "README.md"), "# bench\n");
  git(primary, "add", "-A");
  git(primary, "commit", "-q", "-m", "initial");
  git(primary, "remote", "add", "origin", origin);
  git(primary, "push", "-q", "-u", "origin", "main");
  git(primary, "remote", "set-head", "origin", "main");
  writeFileSync(
    join(primary, ".orchard.json"),
    JSON.stringify({ bootstrap: { run: ["node install.mjs"], inputs: ["package-lock.json"], preserve: ["node_modules"], timeout: "10m" } }, null, 2),
  );
  return primary;
}

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};

async function timed(fn) {
  const started = performance.now();
  const result = await fn();
  return { ms: performance.now() - started, result };
}

function check(result, action) {
  if (!result.ok || result.action !== action)
    throw new Error(`expected ${action}, got ${JSON.stringify({ ok: result.ok, action: result.action, reasons: result.reasons, error: result.error })}`);
}

const primary = makeRepo();
const home = join(root, "home");
mkdirSync(home);
const orchard = await Orchard.open({ repo: primary, home });
const create = [];
const recycle = [];
try {
  for (let run = 0; run < RUNS; run++) {
    const added = await timed(() => orchard.add({ branch: `create-${run}` }));
    check(added.result, "created");
    create.push(added.ms);
    await orchard.release({ target: added.result.handle });
    const recycled = await timed(() => orchard.recycle({ target: added.result.handle, branch: `recycled-${run}` }));
    check(recycled.result, "recycled");
    if (recycled.result.bootstrap.status !== "reused") throw new Error(`recycle did not keep node_modules: ${JSON.stringify(recycled.result.bootstrap)}`);
    recycle.push(recycled.ms);
    await orchard.release({ target: recycled.result.handle });
    git(primary, "worktree", "remove", "--force", "--force", recycled.result.path);
    process.stderr.write(`run ${run + 1}/${RUNS}: create+bootstrap ${added.ms.toFixed(0)} ms, recycle ${recycled.ms.toFixed(0)} ms\n`);
  }
} finally {
  orchard.close();
  rmSync(root, { recursive: true, force: true });
}
const c = median(create);
const r = median(recycle);
console.log(`node_modules: ${FILES} files, ${MEGABYTES} MB; ${RUNS} runs`);
console.log(`create+bootstrap  median ${c.toFixed(0)} ms  (runs: ${create.map((x) => x.toFixed(0)).join(", ")})`);
console.log(`recycle           median ${r.toFixed(0)} ms  (runs: ${recycle.map((x) => x.toFixed(0)).join(", ")})`);
console.log(`recycle is ${(c / r).toFixed(1)}x cheaper than create+bootstrap`);
