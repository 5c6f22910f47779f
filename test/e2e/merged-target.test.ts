// One meaning of "merged" (SPEC v4 §3.8): status, list, hygiene, reap-orphans and cleanup prove a
// worktree's work preserved against the same target, and name it — the worktree's recorded base
// when that base is a branch that still exists, else the default branch. The case of issue 40 item
// 3: a worktree started from an unpushed feature branch (what `worktree.baseRef: "head"` does while
// the primary is on `feat`), whose owner died. Before, status said "not merged into main, 1
// unpushed commit" while reap-orphans planned `pid_dead_and_merged`.
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { existsSync } from "node:fs";
import { Scenario, liveProcess, waitFor } from "../helpers/scenario.js";

let s: Scenario;
beforeEach(() => {
  s = Scenario.create();
});
afterEach(() => s.cleanup());

/** A worktree based on the unpushed branch `feat` (one commit main lacks), leased to a pid that has died. */
async function onFeat(): Promise<string> {
  s.git("checkout", "-q", "-b", "feat");
  s.commit({ file: "feat.txt" });
  const owner = liveProcess();
  const added = s.orchard(["add", "wt-feat", "--base", "feat", "--owner", "agent-1", "--pid", String(owner.pid)]);
  expect(added.code, added.stderr).toBe(0);
  expect(added.json.base.ref).toBe("refs/heads/feat");
  owner.stop();
  await waitFor(() => s.orchard(["status", added.json.path]).json.worktree.liveness.state === "dead", "the owner to die");
  s.ageLock(added.json.path, 3600);
  return added.json.path as string;
}

/** What each command says about the worktree at `path`: its merge proof and target. */
function verdicts(path: string) {
  const status = s.orchard(["status", path]).json.worktree;
  const listed = s.orchard(["list", "--full"]).json.worktrees.find((w: any) => w.path === path);
  const hygiene = s.orchard(["hygiene"]).json.worktrees.find((w: any) => w.path === path);
  const reap = s.orchard(["reap-orphans", "--dry-run"]).json.entries.find((e: any) => e.path === path);
  const plan = s.orchard(["cleanup", "plan", "--include", "reclaimable,reapable,missing,needs_salvage"]).json;
  return { status, listed, hygiene, reap, plan };
}

describe("the merged target is the recorded base while that branch exists", () => {
  it("status, list, hygiene, reap-orphans and cleanup all say merged into refs/heads/feat, in JSON and in words", async () => {
    const path = await onFeat();
    const { status, listed, hygiene, reap, plan } = verdicts(path);
    const merged = { target: "refs/heads/feat", how: "same_commit" };
    expect(status.merged).toEqual(merged);
    expect(listed.merged).toEqual(merged);
    expect(hygiene).toMatchObject({ disposition: "reapable", merged });
    expect(hygiene.reasons).toContainEqual(expect.objectContaining({ code: "merged", ...merged }));
    expect(reap).toMatchObject({ status: "planned", reason: "pid_dead_and_merged", merged });
    expect(plan.items).toEqual([
      expect.objectContaining({ path, action: "reap", preconditions: expect.objectContaining({ target: "refs/heads/feat" }) }),
      expect.objectContaining({ path, action: "delete_branch", reasons: [expect.objectContaining({ code: "merged", ...merged })] }),
    ]);
    // a person reads the same target
    expect(s.orchard(["status", path], { json: false }).stdout).toMatch(/^merged +same_commit into feat$/m);
    expect(s.orchard(["reap-orphans", "--dry-run"], { json: false }).stdout).toContain("pid_dead_and_merged (into feat)");
    // hygiene's table names a target other than the default branch beside its reason
    expect(s.orchard(["hygiene"], { json: false }).stdout).toMatch(/reapable +\S+ +wt-feat .*\bmerged \(into feat\)/);
    // and the sweep acts on it: nothing is lost, the commit is on feat
    const reaped = s.orchard(["reap-orphans"]);
    expect(reaped.json.entries).toEqual([expect.objectContaining({ path, status: "reaped", merged })]);
    expect(existsSync(path)).toBe(false);
  });

  it("cleanup run removes it under the same proof, re-checked against feat at the moment of use", async () => {
    const path = await onFeat();
    const run = s.orchard(["cleanup", "run"]);
    expect(run.code, run.stderr).toBe(0);
    expect(run.json.items).toContainEqual(expect.objectContaining({ path, action: "reap", state: "done" }));
    // the worktree's branch, merged into feat, is deleted under the same proof; feat keeps the commit
    expect(run.json.items).toContainEqual(expect.objectContaining({ path, action: "delete_branch", state: "done" }));
    expect(existsSync(path)).toBe(false);
    expect(s.git("branch", "--list", "wt-feat")).toBe("");
    expect(s.git("rev-parse", "--verify", "-q", "feat")).toMatch(/^[0-9a-f]{40}$/);
  });

  it("once feat is gone the target is the default branch: every command says not merged into main, and nothing is removed", async () => {
    const path = await onFeat();
    s.git("checkout", "-q", "main");
    s.git("branch", "-q", "-D", "feat"); // the commit now lives only on the worktree's branch
    const { status, listed, hygiene, reap, plan } = verdicts(path);
    const merged = { target: "refs/heads/main", how: null };
    expect(status).toMatchObject({ merged, unpushed: 1 });
    expect(listed.merged).toEqual(merged);
    expect(hygiene.disposition).toBe("needs_salvage");
    expect(hygiene.reasons).toContainEqual(
      expect.objectContaining({ code: "work_not_preserved", merged, message: expect.stringContaining("not merged into main") }),
    );
    expect(reap).toMatchObject({ status: "skipped", reason: "branch_not_merged", merged });
    expect(plan.items).toEqual([]);
    expect(s.orchard(["status", path], { json: false }).stdout).toMatch(/^merged +no \(into main\)$/m);
    expect(s.orchard(["reap-orphans"], { json: false }).stdout).toContain("branch_not_merged (into main)");
    // the default branch is the common case: hygiene's table leaves it unsaid
    const table = s.orchard(["hygiene"], { json: false }).stdout;
    expect(table).toMatch(/needs_salvage +\S+ +wt-feat .*\bwork_not_preserved\b/);
    expect(table).not.toContain("(into");
    expect(s.orchard(["cleanup", "run"]).code).toBe(0);
    expect(existsSync(path)).toBe(true);
  });
});
