// `orchard add --task <T>` without a branch (SPEC v4 §3): the branch comes from the task, so an
// agent needs only its task; every spelling of the task is one branch, one worktree.
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { Scenario } from "../helpers/scenario.js";

let s: Scenario;
beforeEach(() => {
  s = Scenario.create();
});
afterEach(() => s.cleanup());

describe("add --task without a branch", () => {
  it("derives the branch, says so in a note, and every spelling of the task gets the same worktree back", () => {
    const first = s.orchard(["add", "--task", "T-123", "--owner", "a"]);
    expect(first.code, first.stdout + first.stderr).toBe(0);
    expect(first.json).toMatchObject({ ok: true, action: "created", branch: "t-123", handle: "app@t-123", task: "t-123" });
    expect(first.json.notes[0]).toMatchObject({ code: "branch_from_task", task: "t-123", branch: "t-123" });
    const again = s.orchard(["add", "--owner", "a"], { env: { ORCHARD_TASK: "t-123 " } });
    expect(again.json).toMatchObject({ ok: true, action: "adopted", path: first.json.path });

    const issue = s.orchard(["add", "--task", "https://github.com/expressjs/express/issues/5432"]);
    expect(issue.json).toMatchObject({ ok: true, branch: "express-5432" });
    const human = s.orchard(["add", "--task", "expressjs/express#5432"], { json: false });
    expect(human.code).toBe(0);
    expect(human.stdout).toContain("adopted app@express-5432");
  });

  it("with neither a branch nor a task, or a task that makes no branch name, is bad input and creates nothing", () => {
    const none = s.orchard(["add"]);
    expect(none.code).toBe(2);
    expect(none.json.error).toMatchObject({ code: "invalid_argument" });
    expect(none.json.error.message).toContain("--task");
    const empty = s.orchard(["add", "--task", "***"]);
    expect(empty.code).toBe(2);
    expect(s.orchard(["list"]).json.worktrees).toEqual([]);
  });
});
