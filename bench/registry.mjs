// Admission against a local PostgreSQL registry vs the SQLite path (issue "fleet"): the same `add`
// (create, --no-bootstrap) of fresh branches, alternating the backends call by call so both see the
// same machine load; medians of each and their ratio (goal ≤ 1.3×). The PostgreSQL URL comes from
// ORCHARD_BENCH_PG_URL (default the local server); the bench uses a schema of its own and drops it.
//   node bench/registry.mjs [--runs 9] [--files 2000] [--json]
import { execFileSync, spawnSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import { cpus, loadavg } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { hermeticRoot } from "./_hermetic.mjs";

const here = dirname(fileURLToPath(import.meta.url));
const flag = (name, fallback) => {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 && process.argv[i + 1] !== undefined ? process.argv[i + 1] : fallback;
};
const RUNS = Math.max(5, Number(flag("runs", 9)));
const FILES = Number(flag("files", 2000));
const CLI = resolve(flag("cli", join(here, "../dist/bin/orchard.js")));
const JSON_OUT = process.argv.includes("--json");
const PG = process.env.ORCHARD_BENCH_PG_URL || "postgres://postgres@127.0.0.1:5432/test";
const say = (line) => process.stderr.write(`${line}\n`);

const root = hermeticRoot("registry");
const git = (cwd, ...args) => execFileSync("git", args, { cwd, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] }).trim();
const psql = (sql) => spawnSync("psql", ["-X", "-q", "-v", "ON_ERROR_STOP=1", "-d", PG, "-c", sql], { encoding: "utf8" });

const schema = `orchard_bench_${process.pid}`;
if (psql(`CREATE SCHEMA ${schema}`).status !== 0) {
  say(`registry bench: no PostgreSQL at ${PG} (set ORCHARD_BENCH_PG_URL); skipped`);
  process.exit(0);
}
const pgUrl = `${PG}${PG.includes("?") ? "&" : "?"}options=${encodeURIComponent(`-c search_path=${schema}`)}`;

try {
  const primary = join(root, "app");
  git(root, "init", "-q", "--bare", "origin.git");
  git(root, "init", "-q", "-b", "main", "app");
  for (let i = 0; i < FILES; i++) writeFileSync(join(primary, `f${i}.txt`), `file ${i}\n`);
  git(primary, "add", "-A");
  git(primary, "commit", "-q", "-m", "init");
  git(primary, "remote", "add", "origin", join(root, "origin.git"));
  git(primary, "push", "-q", "origin", "main");
  git(primary, "remote", "set-head", "origin", "main");

  const backends = [
    { name: "sqlite", env: { ORCHARD_HOME: join(root, "home-sqlite") } },
    { name: "postgres", env: { ORCHARD_HOME: join(root, "home-pg"), ORCHARD_REGISTRY: pgUrl } },
  ];
  const times = { sqlite: [], postgres: [] };
  const add = (backend, branch) => {
    const start = process.hrtime.bigint();
    const r = spawnSync(process.execPath, [CLI, "--json", "add", branch, "--task", `bench-${branch}`, "--no-bootstrap"], {
      cwd: primary,
      env: { ...process.env, ...backend.env },
      encoding: "utf8",
    });
    const ms = Number(process.hrtime.bigint() - start) / 1e6;
    if (r.status !== 0) throw new Error(`${backend.name} add ${branch} failed: ${r.stdout}${r.stderr}`);
    return ms;
  };
  for (const backend of backends) add(backend, `warm-${backend.name}`); // schema creation and first-open costs are not admission
  for (let i = 0; i < RUNS; i++) for (const backend of backends) times[backend.name].push(add(backend, `b${i}-${backend.name}`));
  const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  const sqlite = median(times.sqlite);
  const postgres = median(times.postgres);
  const result = {
    machine: { cpus: cpus().length, load: loadavg().map((x) => Number(x.toFixed(2))), node: process.version },
    runs: RUNS,
    files: FILES,
    row: {
      id: "add-postgres",
      measure: "add (create) with a local PostgreSQL registry",
      baseline: "the same add with SQLite",
      ms: postgres,
      baselineMs: sqlite,
      ratio: postgres / sqlite,
      goal: 1.3,
    },
  };
  if (JSON_OUT) process.stdout.write(JSON.stringify(result) + "\n");
  else {
    process.stdout.write(`| measure | ms | baseline | ms | ratio | goal |\n| --- | --- | --- | --- | --- | --- |\n`);
    process.stdout.write(
      `| ${result.row.measure} | ${postgres.toFixed(0)} | ${result.row.baseline} | ${sqlite.toFixed(0)} | ${result.row.ratio.toFixed(2)}× | ≤ 1.3× |\n`,
    );
    process.stdout.write(`\n${RUNS} runs each, alternating; ${FILES}-file repository; load ${result.machine.load.join(" ")} on ${result.machine.cpus} cores\n`);
  }
} finally {
  psql(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
}
