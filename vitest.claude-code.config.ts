import { defineConfig } from "vitest/config";
import { TEST_TIMEOUT_MS } from "./test/helpers/time.js";

// `npm run test:claude-code`: the real Claude Code binary against a local fake Messages API, and the
// other harnesses' real binaries (test/harnesses/: Codex against a local fake Responses API, the
// OpenCode server with no model at all).
export default defineConfig({
  test: {
    include: ["test/claude-code/**/*.test.ts", "test/harnesses/**/*.test.ts"],
    globalSetup: ["test/claude-code/setup.ts", "test/harnesses/setup.ts"],
    testTimeout: TEST_TIMEOUT_MS,
    // the first run installs the pinned Claude Code (~235 MB), Codex and OpenCode from the registry
    hookTimeout: 4 * TEST_TIMEOUT_MS,
    pool: "forks",
    maxWorkers: 1,
  },
});
