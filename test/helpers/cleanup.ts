// The calls the cleanup tests share (test/e2e/cleanup*.test.ts): CLI calls that must succeed, and
// a plan's item states read from the registry file while a command may hold it.
import { existsSync } from "node:fs";
import { join } from "node:path";
import Database from "better-sqlite3";
import { expect } from "vitest";
import type { Scenario } from "./scenario.js";
import { WAIT_TIMEOUT_MS } from "./time.js";

export type Item = {
  seq: number;
  path: string;
  handle: string | null;
  action: string;
  state: string;
  reasons: { code: string; field?: string }[];
  salvageRef?: string;
};

/** The calls over the scenario `current()` answers (each test's own, made in its beforeEach). */
export function cleanupCalls(current: () => Scenario) {
  const add = (...args: string[]): { handle: string; path: string } => {
    const r = current().orchard(["add", ...args]);
    expect(r.code, r.stdout + r.stderr).toBe(0);
    return r.json;
  };
  const cli = (...args: string[]) => {
    const r = current().orchard(args);
    expect([0, 1], r.stdout + r.stderr).toContain(r.code);
    return r.json;
  };
  const plan = (...args: string[]) => cli("cleanup", "plan", ...args);
  const released = (branch: string, owner = "agent"): { handle: string; path: string } => {
    const w = add(branch, "--owner", owner);
    expect(current().orchard(["release", w.handle, "--owner", owner]).code).toBe(0);
    return w;
  };
  /** Each item's state and its result's phase, in order; none before the registry exists. */
  const itemStates = (planId: string): { state: string; phase: string | null }[] => {
    const file = join(current().home, "orchard.db");
    if (!existsSync(file)) return [];
    const db = new Database(file, {
      readonly: true,
      timeout: WAIT_TIMEOUT_MS, // SQLite's busy wait, should the CLI hold a write lock
    });
    try {
      const rows = db.prepare("SELECT state, result FROM plan_items WHERE plan_id = ? ORDER BY seq").all(planId) as { state: string; result: string | null }[];
      return rows.map((r) => ({
        state: r.state,
        phase: r.result ? ((JSON.parse(r.result) as { phase?: string }).phase ?? null) : null,
      }));
    } finally {
      db.close();
    }
  };
  return { add, cli, plan, released, itemStates };
}
