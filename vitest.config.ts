import { defineConfig } from "vitest/config";
import LongFirstSequencer from "./test/helpers/sequencer.js";
import { TEST_TIMEOUT_MS } from "./test/helpers/time.js";

export default defineConfig({
  test: {
    // the real Claude Code runs in its own suite: npm run test:claude-code
    exclude: ["test/claude-code/**", "node_modules/**"],
    // Is the tests' PostgreSQL server up? Asked once; without it the PostgreSQL half is skipped.
    // The Scenario template repository, built once for the run.
    globalSetup: ["./test/helpers/postgres-setup.ts", "./test/helpers/template-setup.ts"],
    // One scaled budget for every test and hook (ORCHARD_TEST_TIME_SCALE, see test/helpers/time.ts).
    testTimeout: TEST_TIMEOUT_MS,
    hookTimeout: TEST_TIMEOUT_MS,
    pool: "forks",
    maxWorkers: 2,
    // the longest files first, so that both workers finish together (see the sequencer)
    sequence: { sequencer: LongFirstSequencer },
    projects: [
      // The modules' own tests (src/**): each file leaves the process as it found it (an env
      // variable it sets is restored in a `finally`), so they share their workers' module cache
      // instead of importing vitest and their modules again per file (a quarter of their CPU).
      { extends: true, test: { name: "unit", include: ["src/**/*.test.ts"], isolate: false } },
      // End to end (test/**): the real CLI in fresh repositories, each file in its own process.
      { extends: true, test: { name: "e2e", include: ["test/**/*.test.ts"] } },
    ],
  },
});
