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

describe("cleanup run --dry-run: exits as the real run would (SPEC §2)", () => {
  it("predicts the salvage_too_large refusal: exit 3, the item named, nothing salvaged or removed", () => {
    const w = tooLargeToSalvage();
    const args = ["cleanup", "run", "--include", "needs_salvage", "--salvage"];

    const dry = s.orchard([...args, "--dry-run"]);
    expect(dry.code, dry.stdout + dry.stderr).toBe(3);
    expect(dry.json).toMatchObject({ ok: false, dryRun: true, refused: 1 });
    expect(dry.json.refusals).toEqual([
      expect.objectContaining({ path: w.path, handle: w.handle, action: "salvage_remove", reasons: [expect.objectContaining({ code: "salvage_too_large" })] }),
    ]);
    const human = s.orchard([...args, "--dry-run"], { json: false });
    expect(human.code, human.stdout + human.stderr).toBe(3);
    expect(human.stdout).toContain("it would refuse 1 item(s) (exit 3):");
    expect(human.stdout).toContain(`refused: ${w.handle}: salvage_too_large:`);
    expect(human.stdout).toContain("↳ commit or move the large files, then run it again");
    expect(existsSync(w.path)).toBe(true);
    expect(git(s.primary, "for-each-ref", "refs/orchard/salvage/")).toBe("");

    // the real run agrees
    expect(s.orchard(args).code).toBe(3);
    expect(existsSync(join(w.path, "notes.txt"))).toBe(true);
  });

  it("exits 0 when the real run would salvage: the same worktree with its large file gone", () => {
    const w = tooLargeToSalvage();
    truncateSync(join(w.path, "dump.log"), 1024);
    const dry = s.orchard(["cleanup", "run", "--include", "needs_salvage", "--salvage", "--dry-run"]);
    expect(dry.code, dry.stdout + dry.stderr).toBe(0);
    expect(dry.json).toMatchObject({ ok: true, dryRun: true, refused: 0, refusals: [] });
    expect(dry.json.items).toEqual([expect.objectContaining({ path: w.path, action: "salvage_remove" })]);
    expect(existsSync(w.path)).toBe(true);
  });
});
