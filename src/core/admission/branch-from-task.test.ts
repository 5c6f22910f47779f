import { describe, expect, it } from "vitest";
import { branchFromTask } from "./branch-from-task.js";
import { canonicalTask } from "../shared/naming/task.js";

describe("branchFromTask", () => {
  const cases: [string, string | null, string][] = [
    ["T-123", null, "t-123"],
    ["ABC 42: fix the login", null, "abc-42-fix-the-login"],
    ["https://github.com/expressjs/express/issues/5432", null, "express-5432"],
    ["https://github.com/Org/Repo/pull/7", null, "repo-7"],
    ["expressjs/express#9", null, "express-9"],
    ["#12", "github.com/acme/app", "app-12"],
    ["https://gitlab.com/group/sub/project/-/issues/3", null, "project-3"],
    ["https://gitlab.com/group/project/-/merge_requests/4", null, "project-mr-4"],
    ["https://linear.app/acme/issue/ENG-5/title", null, "linear.app-acme-issue-eng-5-title"],
    ["..x..lock", null, "x"],
    ["--", null, ""],
  ];
  it.each(cases)("%s → %s", (task, origin, branch) => {
    expect(branchFromTask(canonicalTask(task, origin))).toBe(branch);
  });
  it("caps the length", () => {
    expect(branchFromTask("a".repeat(300)).length).toBe(100);
  });
});
