// Smaller items of a real project's day (issue 50): `release` takes a task as `path` and `cd` do;
// `list` shows TASK and OWNER; below disk.minFree, a refusal whose default cleanup would not meet
// the floor names what else holds space (worktrees needing salvage, with the --salvage run).
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { Scenario } from "../helpers/scenario.js";
import { TRUSTED, setUpShare } from "../helpers/share.js";

let s: Scenario;
beforeEach(() => {
  s = Scenario.create();
});
afterEach(() => s.cleanup());

describe("release and list", () => {
  it("release takes a task; a task of two active worktrees is refused as a guess (exit 2); list shows TASK and OWNER", () => {
    const a = s.orchard(["add", "feat-a", "--task", "o/r#7", "--owner", "agent-1", "--no-bootstrap"]).json;
    const human = s.orchard(["list", "--wide"], { json: false }).stdout;
    expect(human).toMatch(/^HANDLE\s+BRANCH\s+LIFECYCLE\s+LIVENESS\s+OWNER\s+TASK\s/m);
    const row = human.split("\n").find((l) => l.startsWith(a.handle)) ?? "";
    expect(row.split(/\s+/).slice(0, 6)).toEqual([a.handle, "feat-a", "active", expect.any(String), "agent-1", "github.com/o/r#7"]);

    const released = s.orchard(["release", "o/r#7", "--owner", "agent-1"]);
    expect(released.code, released.stdout + released.stderr).toBe(0);
    expect(released.json).toMatchObject({ action: "released", handle: a.handle, lifecycle: "terminal" });

    s.orchard(["add", "feat-b", "--task", "T-2", "--no-bootstrap"]);
    s.orchard(["add", "feat-c", "--task", "T-2", "--no-bootstrap"]);
    const twice = s.orchard(["release", "T-2"]);
    expect(twice.code).toBe(2);
    expect(twice.json.error.message).toMatch(/names 2 active worktrees/);
    expect(s.orchard(["release", "no-such-task"]).code).toBe(2);
  });
});

describe("disk.minFree", () => {
  it("when cleanup run would not meet the floor, the refusal names the worktrees needing salvage and the --salvage run", () => {
    setUpShare(s);
    const a = s.orchard(["add", "feat-a"], { env: TRUSTED }).json;
    writeFileSync(join(a.path, "notes.txt"), "work\n");
    expect(s.orchard(["release", a.handle]).code).toBe(0);
    const config = join(s.primary, ".orchard.json");
    writeFileSync(config, JSON.stringify({ ...JSON.parse(readFileSync(config, "utf8")), disk: { minFree: "100%" } }));

    const r = s.orchard(["add", "feat-b"], { env: TRUSTED });
    expect(r.code).toBe(3);
    const low = r.json.reasons[0];
    expect(low).toMatchObject({
      code: "disk_low",
      wouldFree: { worktrees: 0, keptCopies: 0, bytes: 0 },
      alsoFree: { needsSalvage: { worktrees: 1 }, keptCopies: { copies: 1 } },
      next: "orchard cleanup run --include reclaimable,reapable,missing,needs_salvage --salvage --until-free 100%",
    });
    expect(low.message).toMatch(/that is not enough: 1 worktree\(s\) needing salvage hold .*; 1 kept copies in use hold/);
  });
});
