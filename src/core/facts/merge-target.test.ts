import { describe, expect, it } from "vitest";
import { baseBranchName, chooseMergeTargets } from "./merge-target.js";

const DEFAULTS = ["refs/heads/main", "refs/remotes/origin/main"];
const refs = new Set([...DEFAULTS, "refs/heads/feat", "refs/remotes/origin/pushed", "refs/heads/pushed", "refs/heads/wt"]);
const choose = (baseRef: string | null, branch = "wt", remotes = ["origin"]) =>
  chooseMergeTargets({ baseRef, branch, defaultBranch: "main", defaultRefs: DEFAULTS, remotes }, (ref) => refs.has(ref));

describe("the one merge target (SPEC v4 §3.8)", () => {
  it.each<[string, string | null, string[]]>([
    ["a base branch that exists", "refs/heads/feat", ["refs/heads/feat"]],
    ["with origin's copy of it", "refs/heads/pushed", ["refs/heads/pushed", "refs/remotes/origin/pushed"]],
    ["recorded as origin's copy", "refs/remotes/origin/pushed", ["refs/heads/pushed", "refs/remotes/origin/pushed"]],
    ["a base branch deleted since", "refs/heads/gone", DEFAULTS],
    ["the default branch itself", "refs/heads/main", DEFAULTS],
    ["origin's default branch", "refs/remotes/origin/main", DEFAULTS],
    ["a commit", "0123456789abcdef0123456789abcdef01234567", DEFAULTS],
    ["a tag", "refs/tags/v1", DEFAULTS],
    ["no base recorded", null, DEFAULTS],
    ["the worktree's own branch", "refs/heads/wt", DEFAULTS],
  ])("%s", (_, base, expected) => {
    expect(choose(base)).toEqual(expected);
  });

  it("another remote's branch is no base; without origin only the local branch counts", () => {
    expect(choose("refs/remotes/upstream/feat")).toEqual(DEFAULTS);
    expect(choose("refs/heads/pushed", "wt", [])).toEqual(["refs/heads/pushed"]);
    expect(baseBranchName("refs/heads/a/b")).toBe("a/b");
    expect(baseBranchName("refs/heads/")).toBeNull();
  });
});
