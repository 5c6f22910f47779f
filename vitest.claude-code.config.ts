import { defineConfig } from "vitest/config";
import { TEST_TIMEOUT_MS } from "./test/helpers/time.js";

// `npm run test:claude-code`: the real Claude Code binary against a local fake Messages API.
export default defineConfig({
  test: {
    include: ["test/claude-code/**/*.test.ts"],
    globalSetup: ["test/claude-code/setup.ts"],
    testTimeout: TEST_TIMEOUT_MS,
    // the first run installs the pinned Claude Code (~235 MB) from the registry
    hookTimeout: 4 * TEST_TIMEOUT_MS,
    pool: "forks",
    maxWorkers: 1,
  },
});
