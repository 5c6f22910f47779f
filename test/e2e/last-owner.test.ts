// The last owner kept after release (issue 21 item 6): release ends the lease — nobody holds the
// worktree — but who held it stays visible: `lastOwner` in status, list and hygiene JSON, and the one
// OWNER column of every table (`<owner> (released)`). It is never a holder: another owner is admitted.
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { Scenario } from "../helpers/scenario.js";

let s: Scenario;
beforeEach(() => {
  s = Scenario.create();
});
afterEach(() => s.cleanup());

describe("after release", () => {
  it("the last owner is shown everywhere and holds nothing", () => {
    const added = s.orchard(["add", "feat-a", "--owner", "alice", "--no-bootstrap"]);
    expect(added.code, added.stderr).toBe(0);
    const released = s.orchard(["release", added.json.handle, "--owner", "alice"]);
    expect(released.json).toMatchObject({ action: "released", lease: null });

    const st = s.orchard(["status", added.json.handle]);
    expect(st.json.worktree).toMatchObject({ owner: null, lastOwner: "alice", lifecycle: "terminal" });
    expect(st.json.worktree.liveness.state).toBe("none");
    const listed = s.orchard(["list"]).json.worktrees.find((w: { handle: string }) => w.handle === added.json.handle);
    expect(listed).toMatchObject({ owner: null, lastOwner: "alice" });
    const h = s.orchard(["hygiene"]);
    const seen = h.json.worktrees.find((w: { handle: string }) => w.handle === added.json.handle);
    expect(seen).toMatchObject({ owner: null, lastOwner: "alice", disposition: "reclaimable" });

    // the one OWNER column: the human tables say who it was
    const table = s.orchard(["hygiene", "--wide"], { json: false });
    expect(table.stdout).toMatch(new RegExp(`${added.json.handle}.*alice \\(released\\)`));
    const human = s.orchard(["status", added.json.handle], { json: false });
    expect(human.stdout).toMatch(/owner\s+alice \(released\)/);

    // never a holder: another owner takes the worktree
    const bob = s.orchard(["add", "feat-a", "--owner", "bob", "--no-bootstrap"]);
    expect(bob.code, bob.stdout + bob.stderr).toBe(0);
    expect(bob.json).toMatchObject({ action: "adopted", owner: "bob" });
    const after = s.orchard(["status", added.json.handle]).json.worktree;
    expect(after.owner).toBe("bob");
    expect(after).not.toHaveProperty("lastOwner"); // a holder again: the owner is the lease's
  });
});
