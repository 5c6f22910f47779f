// Human output has no raw ISO time where a person reads one (JSON keeps ISO): status's lock line,
// `hygiene --fleet`'s published and lease columns (merge's refusal: merge-next.test.ts).
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { Scenario } from "../helpers/scenario.js";

let s: Scenario;
beforeEach(() => {
  s = Scenario.create();
});
afterEach(() => s.cleanup());

const ISO = /\d{4}-\d\d-\d\dT\d\d:\d\d/;

describe("human times", () => {
  it("status's lock line and hygiene --fleet read relative", () => {
    const a = s.orchard(["add", "feat-t", "--owner", "agent-1", "--task", "T-3"]).json;
    s.orchard(["add", "feat-u", "--owner", "agent-2", "--task", "T-3"]);
    const status = s.orchard(["status", a.handle], { json: false }).stdout;
    expect(status).toMatch(/^lock +orchard: .*"expires":"in \dh\d\dm"/m);
    expect(status).not.toMatch(ISO);
    expect(s.orchard(["status", a.handle]).json.worktree.lock.reason).toMatch(ISO); // JSON keeps ISO
    const fleet = s.orchard(["hygiene", "--fleet"], { json: false }).stdout;
    expect(fleet).toContain("duplicate task");
    expect(fleet).not.toMatch(ISO);
  });
});
