// What a bootstrap wrote is the bootstrap's, not work (issue 36 item 10): its own untracked and
// ignored output never makes the same owner's next add refuse; what an agent writes or edits
// afterwards still counts.
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { Scenario } from "../helpers/scenario.js";

let s: Scenario;
const TRUSTED = { env: { ORCHARD_TRUST: "1" } };
beforeEach(() => {
  s = Scenario.create();
  writeFileSync(
    join(s.primary, ".orchard.json"),
    JSON.stringify({ bootstrap: { run: ["echo done > .boot-done", "mkdir -p node_modules/dep && echo x > node_modules/dep/index.js"] } }),
  );
});
afterEach(() => s.cleanup());

const dirtyOf = (handle: string) => s.orchard(["status", handle], TRUSTED).json.worktree.dirty;

describe("a bootstrap's own output", () => {
  it("is not work: the same owner's next add adopts the worktree; an agent's file or edit still counts", () => {
    const first = s.orchard(["add", "feat-a", "--owner", "o1"], TRUSTED);
    expect(first.code, first.stdout + first.stderr).toBe(0);
    expect(first.json.bootstrap.status).toBe("ran");
    expect(dirtyOf(first.json.handle)).toMatchObject({ tracked: 0, untracked: 0, ignored: { count: 0 } });

    const again = s.orchard(["add", "feat-a", "--owner", "o1"], TRUSTED);
    expect(again.code, again.stdout + again.stderr).toBe(0);
    expect(again.json.action).toBe("adopted");

    writeFileSync(join(first.json.path, "notes.txt"), "the agent's own work\n");
    expect(dirtyOf(first.json.handle)).toMatchObject({ untracked: 1 });
    writeFileSync(join(first.json.path, ".boot-done"), "edited by the agent, a longer line\n");
    expect(dirtyOf(first.json.handle)).toMatchObject({ untracked: 2 });
  });
});
