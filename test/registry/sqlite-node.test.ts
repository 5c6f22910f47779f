// node:sqlite on Node 22, whose module announces itself with an ExperimentalWarning on stderr: the
// command line holds back that one warning (every other passes), so `--json` output and stderr stay
// clean. The CLI runs on Node 22.13, the first Node whose node:sqlite needs no flag (installed on
// demand from the npm registry's `node` package, scripts/test-node.mjs).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { spawnSync } from "node:child_process";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { withoutSqliteWarning } from "../../src/registry/sqlite-driver.js";
import { hermeticEnv } from "../helpers/env.js";
import { CLI, Scenario } from "../helpers/scenario.js";
import { PROCESS_TIMEOUT_MS, scaled } from "../helpers/time.js";

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "../..");

describe("node:sqlite's ExperimentalWarning", () => {
  it("is the one warning held back while the module loads", () => {
    // Node's emitWarning stood in for by a recorder (no warning reaches the test run's stderr)
    const seen: string[] = [];
    const emit = process.emitWarning;
    process.emitWarning = ((warning: string, type: string) => void seen.push(`${type}: ${warning}`)) as typeof process.emitWarning;
    try {
      const value = withoutSqliteWarning(() => {
        process.emitWarning("SQLite is an experimental feature and might change at any time", "ExperimentalWarning");
        process.emitWarning("SQLite is an experimental feature", "DeprecationWarning");
        process.emitWarning("Something else is an experimental feature", "ExperimentalWarning");
        return 42;
      });
      expect(value).toBe(42);
      process.emitWarning("SQLite is an experimental feature and might change at any time", "ExperimentalWarning");
    } finally {
      process.emitWarning = emit;
    }
    expect(seen).toEqual([
      "DeprecationWarning: SQLite is an experimental feature",
      "ExperimentalWarning: Something else is an experimental feature",
      "ExperimentalWarning: SQLite is an experimental feature and might change at any time",
    ]);
  });

  describe("on the command line under Node 22.13", () => {
    let node22: string;
    let s: Scenario;

    beforeAll(() => {
      const r = spawnSync(process.execPath, [join(ROOT, "scripts/test-node.mjs"), "min"], { encoding: "utf8", timeout: scaled(200_000) });
      if (r.status !== 0) throw new Error(`installing Node 22.13 failed: ${r.stderr}`);
      node22 = r.stdout.trim();
      s = Scenario.create();
    }, scaled(200_000));
    afterAll(() => s?.cleanup());

    const orchard = (...args: string[]) =>
      spawnSync(node22, [CLI, "--home", s.home, ...args], { cwd: s.primary, env: hermeticEnv(), encoding: "utf8", timeout: PROCESS_TIMEOUT_MS });

    it("add and list --json: nothing on stderr, one JSON object on stdout", () => {
      expect(spawnSync(node22, ["-p", "process.versions.node"], { encoding: "utf8" }).stdout.trim()).toBe("22.13.0");
      const add = orchard("add", "feat/node22", "--task", "T-22", "--json");
      expect(add.stderr).toBe("");
      expect(JSON.parse(add.stdout)).toMatchObject({ ok: true, action: "created" });
      const list = orchard("list", "--json");
      expect(list.stderr).toBe("");
      expect(JSON.parse(list.stdout).worktrees).toMatchObject([{ branch: "feat/node22" }]);
    });
  });
});
