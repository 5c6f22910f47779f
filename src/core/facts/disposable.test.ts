import { describe, expect, it } from "vitest";
import { disposableMatcher, literalPattern } from "./disposable.js";

describe("disposableMatcher", () => {
  const m = disposableMatcher(["/config/*.local", "docs/**/draft.md", "data", literalPattern("AGENTS.local.md")]);
  it.each([
    ["node_modules", true, true],
    ["node_modules/left-pad/index.js", false, true],
    ["packages/a/node_modules", true, true],
    ["node_modules", false, false], // a file named like a dir-only pattern
    ["x/y/z.pyc", false, true],
    [".DS_Store", false, true],
    ["src/.DS_Store", false, true],
    ["config/app.local", false, true],
    ["sub/config/app.local", false, false], // anchored
    ["docs/a/b/draft.md", false, true],
    ["docs/draft.md", false, true],
    ["data", false, true],
    ["data/set.csv", false, true],
    ["AGENTS.local.md", false, true],
    ["sub/AGENTS.local.md", false, false],
    [".planning", true, false],
    [".planning/phase-3/PLAN.md", false, false],
    ["TO-DOS.md", false, false],
    [".env", false, false],
    ["distribution.txt", false, false],
  ])("%s (dir %s) → %s", (path, dir, expected) => {
    expect(m(path, dir)).toBe(expected);
  });

  it("ignores negations and comments (disposable only adds)", () => {
    const n = disposableMatcher(["!node_modules/", "# .env"]);
    expect(n("node_modules", true)).toBe(true);
    expect(n(".env", false)).toBe(false);
  });
});
