import { cpus, tmpdir } from "node:os";
import { defineConfig } from "vitest/config";
import { makeScratch, scratchParent } from "./test/helpers/scratch.js";
import LongFirstSequencer from "./test/helpers/sequencer.js";
import { readScale } from "./test/helpers/time.js";

/** The share of the machine's CPU time that went to other work over `ms` (0 idle, 1 fully busy). */
async function busyShare(ms: number): Promise<number> {
  const total = (): { idle: number; all: number } =>
    cpus().reduce(
      (sum, cpu) => {
        const t = cpu.times;
        return { idle: sum.idle + t.idle, all: sum.all + t.user + t.nice + t.sys + t.idle + t.irq };
      },
      { idle: 0, all: 0 },
    );
  const before = total();
  await new Promise((done) => setTimeout(done, ms));
  const after = total();
  const all = after.all - before.all;
  return all > 0 ? 1 - (after.idle - before.idle) / all : 0;
}

// Two workers on an idle machine (the suite is CPU-bound: a third made an idle run 408 s instead of
// 384 s on 2 cores); one more when other work already holds half the machine, where the extra
// worker's share of the CPU is worth more than its contention (under `stress --cpu 2`: 662 s with
// three against 732 s with two). On such a machine every budget is also doubled (the time scale 6
// instead of 3, test/helpers/time.ts): a test's budget is an upper bound for a hang, and at a load of
// 15–25 a long test's honest run went past 180 s. Measured over 300 ms as the run starts;
// ORCHARD_TEST_WORKERS and ORCHARD_TEST_TIME_SCALE override.
// (vitest reads this file again for each project: the first reading decides, the others read its answer)
if (!process.env.ORCHARD_TEST_WORKERS || !process.env.ORCHARD_TEST_TIME_SCALE) {
  const busy = await busyShare(300);
  const why = `other work held ${Math.round(busy * 100)}% of the CPU as the run started`;
  if (!process.env.ORCHARD_TEST_WORKERS) {
    process.env.ORCHARD_TEST_WORKERS = busy >= 0.5 ? "3" : "2";
    console.log(`orchard tests: ${process.env.ORCHARD_TEST_WORKERS} workers (${why})`);
  }
  if (!process.env.ORCHARD_TEST_TIME_SCALE && busy >= 0.5) {
    process.env.ORCHARD_TEST_TIME_SCALE = "6";
    console.log(`orchard tests: every budget doubled, ORCHARD_TEST_TIME_SCALE=6 (${why})`);
  }
}
// every test's and hook's budget, from the scale this run settled on (time.ts reads it in each worker)
const testTimeout = Math.ceil(60_000 * readScale());
// The run's temporary files go to a directory of its own, on tmpfs where there is one (see
// test/helpers/scratch.ts); every test process inherits TMPDIR. Removed when the run ends.
if (!process.env.ORCHARD_TEST_SCRATCH) {
  const parent = scratchParent();
  process.env.ORCHARD_TEST_HOST_TMPDIR = tmpdir(); // the machine's own, for what outlives a run (the HTML tests' Chromium)
  process.env.ORCHARD_TEST_SCRATCH = makeScratch(parent.dir);
  process.env.TMPDIR = process.env.ORCHARD_TEST_SCRATCH;
  console.log(`orchard tests: temporary files in ${process.env.ORCHARD_TEST_SCRATCH} (${parent.why})`);
}
const workers = Number(process.env.ORCHARD_TEST_WORKERS);
if (!Number.isInteger(workers) || workers < 1)
  throw new Error(`ORCHARD_TEST_WORKERS must be a whole number of workers, not ${JSON.stringify(process.env.ORCHARD_TEST_WORKERS)}`);

export default defineConfig({
  test: {
    // the real Claude Code, Codex and OpenCode run in their own suite, which installs them: npm run test:claude-code
    exclude: ["test/claude-code/**", "test/harnesses/**", "node_modules/**"],
    // The scratch directory's removal at the end; is the tests' PostgreSQL server up? (asked once;
    // without it the PostgreSQL half is skipped); the Scenario template repository, built once for the run.
    globalSetup: ["./test/helpers/scratch-setup.ts", "./test/helpers/postgres-setup.ts", "./test/helpers/template-setup.ts"],
    // Each test file starts from its worker's own environment (the files of a project share workers).
    setupFiles: ["./test/helpers/file-setup.ts"],
    // One scaled budget for every test and hook (ORCHARD_TEST_TIME_SCALE, see test/helpers/time.ts).
    testTimeout,
    hookTimeout: testTimeout,
    pool: "forks",
    maxWorkers: workers,
    // the longest files first, so that both workers finish together (see the sequencer)
    sequence: { sequencer: LongFirstSequencer },
    projects: [
      // The modules' own tests (src/**): each file leaves the process as it found it (an env
      // variable it sets is restored in a `finally`), so they share their workers' module cache
      // instead of importing vitest and their modules again per file (a quarter of their CPU).
      { extends: true, test: { name: "unit", include: ["src/**/*.test.ts"], isolate: false } },
      // End to end (test/**): the real CLI in fresh repositories. These files share their workers
      // too (264 s for a whole run against 300 s with a process per file): each makes its own
      // scenarios, waits for the processes it starts, and starts from its worker's environment
      // (setupFiles above).
      { extends: true, test: { name: "e2e", include: ["test/**/*.test.ts"], isolate: false } },
    ],
  },
});
