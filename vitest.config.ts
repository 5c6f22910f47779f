import { defineConfig } from "vitest/config";
import LongFirstSequencer from "./test/helpers/sequencer.js";
import { TEST_TIMEOUT_MS } from "./test/helpers/time.js";

// A CA bundle for TLS, which nothing in this suite uses (git, PostgreSQL and every server a test
// starts are local): Node parses each of its certificates at every start, ~50 ms of CPU on Node 20,
// paid by each test worker and each of the suite's thousands of CLI and helper processes, which
// inherit this process's environment (test/helpers/env.ts drops it from the hermetic one too).
delete process.env.NODE_EXTRA_CA_CERTS;

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
