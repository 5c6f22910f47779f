import { describe, expect, it } from "vitest";
import { ATTENTION_ORDER, branchNote, byAttention, whatToRun } from "./attention.js";
import { DISPOSITIONS, type HygieneWorktree } from "./types.js";
import { SAMPLE_FACTS } from "../../../test/helpers/facts.js";

const wt = (handle: string, disposition: HygieneWorktree["disposition"], command: string | null, action = "remove"): HygieneWorktree =>
  ({ ...SAMPLE_FACTS, path: `/w/${handle}`, handle, repo: "r", disposition, reasons: [], suggestion: { action, command } }) as HygieneWorktree;

describe("attention order", () => {
  it("names every disposition once, work at risk first and what is kept last", () => {
    expect([...ATTENTION_ORDER].sort()).toEqual([...DISPOSITIONS].sort());
    expect(ATTENTION_ORDER.slice(0, 2)).toEqual(["needs_salvage", "unknown"]);
    expect(ATTENTION_ORDER.slice(-2)).toEqual(["idle", "live"]);
  });
  it("sorts by disposition, then handle", () => {
    const sorted = [wt("app@b", "live", null), wt("app@z", "reclaimable", null), wt("app@a", "live", null), wt("app@y", "needs_salvage", null)].sort(
      byAttention,
    );
    expect(sorted.map((w) => w.handle)).toEqual(["app@y", "app@z", "app@a", "app@b"]);
  });
});

describe("whatToRun", () => {
  it("puts commands about work at risk first, then the most common; counts merged branches cleanup run deletes", () => {
    const todo = whatToRun({
      worktrees: [
        wt("app@a", "reclaimable", "orchard cleanup run"),
        wt("app@b", "reclaimable", "orchard cleanup run"),
        wt("app@c", "reapable", "orchard reap-orphans", "reap"),
        wt("app@d", "needs_salvage", "orchard cleanup run --include needs_salvage --salvage", "salvage, then remove"),
        wt("app@e", "live", null, "keep"),
      ],
    });
    expect(todo.map((t) => [t.command, t.count, t.atRisk])).toEqual([
      ["orchard cleanup run --include needs_salvage --salvage", 1, true],
      ["orchard cleanup run", 2, false],
      ["orchard reap-orphans", 1, false],
    ]);
    expect(todo.map(branchNote)).toEqual(["", " (also deletes 2 merged branches)", ""]); // a salvaged removal keeps its branch
  });
});
