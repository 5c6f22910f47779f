// No command holds the mutation lock longer than it must (issue 25 item 2): an `add` issued while
// a long `cleanup run` works waits for the items in flight, not for the run. Not timed: the cleanup
// stands at a pause point before its first items, the add announces that it waits, and the
// registry's event order shows where the add got in.
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Database from "better-sqlite3";
import { Scenario, waitFor } from "../helpers/scenario.js";

let s: Scenario;
let pause: string;
beforeEach(() => {
  s = Scenario.create();
  pause = mkdtempSync(join(tmpdir(), "orchard-pause-"));
});
afterEach(() => {
  s.cleanup();
  rmSync(pause, { recursive: true, force: true });
});

const ITEMS = 10;
/** Items one cleanup batch runs at once (ITEM_PARALLELISM of src/core/cleanup/apply.ts). */
const IN_FLIGHT = 4;

describe("cleanup run and a concurrent add", () => {
  it("the add gets the lock after the items in flight, before the run's remaining items", async () => {
    const handles: string[] = [];
    for (let i = 0; i < ITEMS; i++) {
      const w = s.orchard(["add", `done-${i}`, "--owner", "agent"]);
      expect(w.code, w.stdout + w.stderr).toBe(0);
      expect(s.orchard(["release", w.json.handle, "--owner", "agent"]).code).toBe(0);
      handles.push(w.json.handle);
    }
    writeFileSync(join(pause, "hold"), "");
    const cleanup = s.orchardAsync(["cleanup", "run"], { env: { ORCHARD_PAUSE_AT: "cleanup.item", ORCHARD_PAUSE_DIR: pause } });
    await waitFor(() => readdirSync(pause).some((f) => f.startsWith("cleanup.item.")), "the cleanup stands before its first items");
    const add = s.orchardAsync(["add", "feat-new", "--owner", "other"]);
    const waiting = join(s.primary, ".git", "orchard-mutation.waiting");
    await waitFor(() => existsSync(waiting) && readdirSync(waiting).length > 0, "the add waits for the lock");
    rmSync(join(pause, "hold"));
    const [c, a] = await Promise.all([cleanup, add]);
    expect(a.code, a.stdout + a.stderr).toBe(0);
    expect(a.json.action).toBe("created");
    expect(c.code, c.stdout + c.stderr).toBe(0);
    const db = new Database(join(s.home, "orchard.db"), { readonly: true });
    let events: { kind: string; handle: string }[];
    try {
      events = db.prepare("SELECT kind, handle FROM events WHERE kind IN ('created', 'removed') ORDER BY id").all() as { kind: string; handle: string }[];
    } finally {
      db.close();
    }
    const removals = events.filter((e) => e.kind === "removed").map((e) => e.handle);
    expect(removals.sort()).toEqual([...handles].sort()); // the run finished every item
    const created = events.findIndex((e) => e.kind === "created" && e.handle === a.json.handle);
    const removedBefore = events.slice(0, created).filter((e) => e.kind === "removed").length;
    expect(removedBefore, JSON.stringify(events)).toBeLessThanOrEqual(IN_FLIGHT);
    expect(removedBefore).toBeLessThan(ITEMS);
  });
});
