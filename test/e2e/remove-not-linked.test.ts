// A worktree whose `.git` file was rewritten to name the primary's git dir (issue 46 item 14):
// every git call in it would read the primary's index and status. `remove --salvage` and `cleanup
// run --salvage` refuse it as `not_a_linked_worktree` before anything reads or salvages it: no
// salvage ref of the primary's index, no `remove_failed`, and the directory and its files stay.
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { Scenario, git } from "../helpers/scenario.js";

let s: Scenario;
beforeEach(() => {
  s = Scenario.create();
});
afterEach(() => s.cleanup());

const salvageRefs = (): string[] => git(s.primary, "for-each-ref", "--format=%(refname)", "refs/orchard/salvage/").split("\n").filter(Boolean);

describe("a worktree whose .git names the primary's git dir", () => {
  it("remove --salvage refuses not_a_linked_worktree before any salvage; the files stay", () => {
    const wt = s.orchard(["add", "feat-a"]).json;
    writeFileSync(join(wt.path, "work.txt"), "precious\n");
    writeFileSync(join(s.primary, "primary-staged.txt"), "the primary's\n");
    git(s.primary, "add", "primary-staged.txt");
    writeFileSync(join(wt.path, ".git"), `gitdir: ${join(s.primary, ".git")}\n`);

    const r = s.orchard(["remove", wt.handle, "--salvage"]);
    expect(r.code, r.stdout + r.stderr).toBe(3);
    expect(r.json).toMatchObject({ ok: false, action: "refused" });
    expect(r.json.reasons.map((x: { code: string }) => x.code)).toContain("not_a_linked_worktree");
    expect(salvageRefs()).toEqual([]);
    expect(readFileSync(join(wt.path, "work.txt"), "utf8")).toBe("precious\n");
    expect(git(s.primary, "diff", "--cached", "--name-only")).toBe("primary-staged.txt");

    const run = s.orchard(["cleanup", "run", "--include", "needs_salvage,reclaimable,reapable", "--salvage"]);
    expect(run.code).not.toBe(1);
    expect(salvageRefs()).toEqual([]);
    expect(existsSync(join(wt.path, "work.txt"))).toBe(true);
  });
});
