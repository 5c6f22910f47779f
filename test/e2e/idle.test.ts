// Young ownerless worktrees (SPEC §3.6 idleAfter): a fresh `add` without an owner is clean and
// "merged" (no commits yet), yet someone is about to work in it. It is `idle` until idleAfter has
// passed without activity; only then is it reclaimable, and cleanup never removes it before.
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { Scenario, waitFor } from "../helpers/scenario.js";

let s: Scenario;
beforeEach(() => {
  s = Scenario.create();
});
afterEach(() => s.cleanup());

type Row = { path: string; disposition: string; reasons: { code: string }[] };
const rowOf = (path: string): Row => s.orchard(["hygiene"]).json.worktrees.find((w: Row) => w.path === path);
const codes = (row: Row) => row.reasons.map((r) => r.code);

describe("idleAfter", () => {
  it("a fresh add without an owner is idle (recently_active), and cleanup run keeps it", () => {
    const wt = s.orchard(["add", "feat-a", "--no-bootstrap"]).json;
    const row = rowOf(wt.path);
    expect(row.disposition).toBe("idle");
    expect(codes(row)).toEqual(["recently_active", "clean", "work_preserved"]);
    const plan = s.orchard(["cleanup", "plan"]).json;
    expect(plan.items).toEqual([]);
    expect(plan.skipped.map((x: { path: string }) => x.path)).toContain(wt.path);
    expect(s.orchard(["cleanup", "run"]).code).toBe(0);
    expect(existsSync(wt.path)).toBe(true);
    expect(s.orchard(["status", wt.handle]).json.worktree.lifecycle).toBe("active");
  });

  it("past idleAfter a clean one is reclaimable and cleanup run removes it; dirty or unpushed ones stay idle and are kept", async () => {
    writeFileSync(join(s.primary, ".orchard.json"), JSON.stringify({ idleAfter: "1s" }));
    const clean = s.orchard(["add", "feat-a", "--no-bootstrap"]).json;
    const dirty = s.orchard(["add", "feat-b", "--no-bootstrap"]).json;
    const unpushed = s.orchard(["add", "feat-c", "--no-bootstrap"]).json;
    s.makeDirty(dirty.path, { untracked: true, tracked: true });
    s.commit({ in: unpushed.path, file: "own-work.txt" });
    await waitFor(() => rowOf(clean.path).disposition === "reclaimable", "the clean worktree to become reclaimable once idleAfter passed");
    expect(codes(rowOf(clean.path))).toEqual(["not_live", "clean", "work_preserved"]);

    expect(s.orchard(["cleanup", "run"]).code).toBe(0);
    expect(existsSync(clean.path)).toBe(false);
    expect(readFileSync(join(dirty.path, "untracked-work.txt"), "utf8")).toBe("precious\n");
    expect(readFileSync(join(dirty.path, "README.md"), "utf8")).toBe("# changed\n");
    expect(existsSync(join(unpushed.path, "own-work.txt"))).toBe(true);
    expect(rowOf(dirty.path)).toMatchObject({ disposition: "idle" });
    expect(codes(rowOf(unpushed.path))).toEqual(["active_unowned", "work_not_preserved"]);
  });

  it("an owned worktree is not subject to idleAfter: its lease decides", () => {
    const wt = s.orchard(["add", "feat-a", "--owner", "agent-1", "--no-bootstrap"]).json;
    expect(rowOf(wt.path).disposition).toBe("live");
  });

  it("a bad idleAfter is invalid config (exit 2) naming the key", () => {
    writeFileSync(join(s.primary, ".orchard.json"), JSON.stringify({ idleAfter: "soon" }));
    const r = s.orchard(["hygiene"]);
    expect(r.code).toBe(2);
    expect(r.json.error).toMatchObject({ code: "invalid_config" });
    expect(r.json.error.message).toContain("idleAfter");
  });
});
