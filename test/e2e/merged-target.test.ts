// One meaning of "merged" (SPEC v4 §3.8): status, hygiene, reap-orphans and cleanup prove a
// worktree's work preserved against the same target, and name it — the worktree's recorded base
// when that base is a branch that still exists, else the default branch. The case of issue 40 item
// 3: a worktree started from an unpushed feature branch (`worktree.baseRef: "head"` while the
// primary is on `feat`), whose owner died.
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { existsSync } from "node:fs";
import { Scenario, liveProcess, waitFor } from "../helpers/scenario.js";

let s: Scenario;
beforeEach(() => {
  s = Scenario.create();
});
afterEach(() => s.cleanup());

/** A worktree based on the unpushed branch `feat` (one commit main lacks), leased to a pid that is dead. */
async function onFeat(): Promise<{ path: string; handle: string }> {
  s.git("checkout", "-q", "-b", "feat");
  s.commit({ file: "feat.txt" });
  const owner = liveProcess();
  const added = s.orchard(["add", "wt-feat", "--base", "feat", "--owner", "agent-1", "--pid", String(owner.pid)]);
  expect(added.code, added.stderr + added.stdout).toBe(0);
  owner.stop();
  await waitFor(() => s.orchard(["status", added.json.path]).json.worktree.liveness.state === "dead", "the owner to die");
  s.ageLock(added.json.path, 3600);
  return { path: added.json.path, handle: added.json.handle };
}

describe("the merged target is the recorded base while that branch exists", () => {
  it("status, list, hygiene, reap-orphans and cleanup agree, and name refs/heads/feat", async () => {
    const { path } = await onFeat();
    const status = s.orchard(["status", path]);
    console.log(JSON.stringify(status.json.worktree, null, 1));
    const hygiene = s.orchard(["hygiene"]);
    console.log(JSON.stringify(hygiene.json.worktrees[0], null, 1));
    const reap = s.orchard(["reap-orphans", "--dry-run"]);
    console.log(JSON.stringify(reap.json, null, 1));
    const human = s.orchard(["status", path], { json: false });
    console.log(human.stdout, human.stderr);
    expect(existsSync(path)).toBe(true);
  });
});
