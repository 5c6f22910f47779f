import { describe, expect, it } from "vitest";
import { assessKept, usesCopy } from "./reclaim.js";
import type { KeptCopy } from "./store.js";

const copy = (key: string, marker = true): KeptCopy => ({
  repo: "app",
  key,
  path: `/home/share/app/${key}`,
  lastUsed: "2026-12-04T00:00:00.000Z",
  marker: marker ? { key, repo: "app", bootstrap: "b", runtime: "r", dirs: ["node_modules"], method: "copy", files: 1, createdAt: "x" } : null,
});
const codes = (v: { reasons: { code: string }[] }): string[] => v.reasons.map((r) => r.code);

describe("assessKept", () => {
  it.each([
    ["in use, no budget: kept", [{ copy: copy("a"), worktrees: 2, bytes: 10 }], null, [[]]],
    ["no worktree of its fingerprint: unused", [{ copy: copy("a"), worktrees: 0, bytes: 10 }], null, [["share_unused"]]],
    ["no marker: incomplete, whatever uses it", [{ copy: copy("a", false), worktrees: 3, bytes: 10 }], null, [["share_incomplete"]]],
    [
      "over budget: the least recently used (first) goes until the rest fit",
      [
        { copy: copy("old"), worktrees: 1, bytes: 60 },
        { copy: copy("mid"), worktrees: 1, bytes: 30 },
        { copy: copy("new"), worktrees: 1, bytes: 30 },
      ],
      70,
      [["share_over_budget"], [], []],
    ],
    [
      "an unused copy counts against the budget no more",
      [
        { copy: copy("unused"), worktrees: 0, bytes: 100 },
        { copy: copy("used"), worktrees: 1, bytes: 50 },
      ],
      60,
      [["share_unused"], []],
    ],
  ] as const)("%s", (_, uses, budget, expected) => {
    const verdicts = assessKept(uses, budget);
    expect(verdicts.map(codes)).toEqual(expected);
    expect(verdicts.map((v) => v.reclaim)).toEqual(expected.map((c) => c.length > 0));
  });
});

describe("usesCopy", () => {
  it("needs both fingerprints and the same shared directories", () => {
    expect(usesCopy(copy("a"), { bootstrap: "b", runtime: "r" }, ["node_modules"])).toBe(true);
    expect(usesCopy(copy("a"), { bootstrap: "b", runtime: "other" }, ["node_modules"])).toBe(false);
    expect(usesCopy(copy("a"), { bootstrap: "b", runtime: "r" }, ["node_modules", ".venv"])).toBe(false);
    expect(usesCopy(copy("a", false), { bootstrap: "b", runtime: "r" }, ["node_modules"])).toBe(false);
  });
});
