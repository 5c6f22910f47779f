import { defineConfig } from "vitest/config";

// `npm run test:claude-code`: the real Claude Code binary against a local fake Messages API.
export default defineConfig({
  test: {
    include: ["test/claude-code/**/*.test.ts"],
    globalSetup: ["test/claude-code/setup.ts"],
    testTimeout: 180_000,
    hookTimeout: 600_000,
    pool: "forks",
    maxWorkers: 1,
  },
});
