// SPEC §2 and issue 21 item 7: `cleanup run` counts each item once, by its final state, and a
// safety refusal (`salvage_too_large`) is a refusal (exit 3, `refused`), not a failure (exit 1).
// The worktree and every file in it are left where they were.
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { existsSync, readFileSync, truncateSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { Scenario, git } from "../helpers/scenario.js";

let s: Scenario;
beforeEach(() => {
  s = Scenario.create();
});
afterEach(() => s.cleanup());

/** A released managed worktree with a dirty file and an ignored file over 10 MiB (sparse). */
function tooLargeToSalvage(): { handle: string; path: string } {
  const add = s.orchard(["add", "wip-big", "--owner", "agent", "--no-bootstrap"]);
  expect(add.code, add.stdout + add.stderr).toBe(0);
  const w = add.json as { handle: string; path: string };
  writeFileSync(join(w.path, "notes.txt"), "precious");
  writeFileSync(join(w.path, "dump.log"), "");
  truncateSync(join(w.path, "dump.log"), 10 * 1024 * 1024 + 1);
  expect(s.orchard(["release", w.handle, "--owner", "agent"]).code).toBe(0);
  return w;
}

describe("cleanup run: one item, one final state, a refusal is exit 3", () => {
  it("counts a salvage_too_large worktree once as refused, exits 3 and loses nothing", () => {
    const w = tooLargeToSalvage();
    // a worktree cleanup does remove, so that a second round plans the refused one again
    const gone = s.orchard(["add", "gone-1", "--owner", "agent", "--no-bootstrap"]).json as { handle: string; path: string };
    expect(s.orchard(["release", gone.handle, "--owner", "agent"]).code).toBe(0);
    const args = ["cleanup", "run", "--include", "reclaimable,needs_salvage", "--salvage"];

    const r = s.orchard(args);
    expect(r.code, r.stdout + r.stderr).toBe(3);
    const mine = (r.json.items as { path: string; state: string; reasons: { code: string }[] }[]).filter((i) => i.path === w.path);
    expect(mine).toHaveLength(1);
    expect(mine[0]).toMatchObject({ state: "refused", reasons: [expect.objectContaining({ code: "salvage_too_large" })] });
    expect(r.json).toMatchObject({ ok: false, skipped: 0, refused: 1, failed: 0, remaining: 0 });
    // the other worktree's removal (and its merged branch's delete) are done; each item counted once
    const states = (r.json.items as { state: string }[]).map((i) => i.state);
    expect(states.filter((x) => x === "done")).toHaveLength(r.json.done);
    expect(states.sort()).toEqual([...Array(r.json.done).fill("done"), "refused"].sort());
    expect(r.json.done).toBeGreaterThan(0);
    expect(existsSync(gone.path)).toBe(false);

    const human = s.orchard(args, { json: false });
    expect(human.code, human.stdout + human.stderr).toBe(3);
    expect(human.stdout).toContain("0 done, 0 skipped, 1 refused, 0 failed");
    const rows = human.stdout.split("\n").filter((l) => l.includes(w.handle) && l.includes("salvage_remove"));
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatch(/\brefused\b/);

    expect(existsSync(w.path)).toBe(true);
    expect(readFileSync(join(w.path, "notes.txt"), "utf8")).toBe("precious");
    expect(existsSync(join(w.path, "dump.log"))).toBe(true);
    expect(git(w.path, "status", "--porcelain")).toContain("notes.txt");
    expect(git(s.primary, "for-each-ref", "refs/orchard/salvage/")).toBe("");
  });
});
