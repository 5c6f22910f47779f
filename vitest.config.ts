import { defineConfig } from "vitest/config";
import LongFirstSequencer from "./test/helpers/sequencer.js";
import { TEST_TIMEOUT_MS } from "./test/helpers/time.js";

export default defineConfig({
  test: {
    include: ["src/**/*.test.ts", "test/**/*.test.ts"],
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
  },
});
