// Admission v2 against real git and the real CLI: local default-branch commits are not a
// worktree's own (§4.6), the default base follows a fetch (§4.4), duplicate groups keep the member
// with the work (§3.6), preventable-duplicate hints that work when followed, and exclusive-task (§3.1).
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { Scenario, deadPid, git } from "../helpers/scenario.js";

let s: Scenario;
beforeEach(() => {
  s = Scenario.create();
});
afterEach(() => s.cleanup());

const ok = (args: string[], scenario = s) => {
  const r = scenario.orchard(args);
  expect(r.code, r.stdout + r.stderr).toBe(0);
  return r.json;
};
const codes = (reasons: { code: string }[]) => reasons.map((r) => r.code);

/** Another clone pushes a commit to origin's main; returns the new commit. */
function pushFromElsewhere(file: string): string {
  const other = join(s.root, `other-${file}`);
  git(s.root, "clone", "-q", s.origin, other);
  const commit = s.commit({ in: other, file });
  git(other, "push", "-q", "origin", "main");
  return commit;
}

describe("§4.6: commits on the local default branch are not the worktree's", () => {
  it("after a wave merged into local main without a push, a worktree with no commits of its own has unpushed 0 and stays an eligible candidate", () => {
    s.commit({ file: "wave-1.txt" });
    s.commit({ file: "wave-2.txt" }); // local main is 2 ahead of origin/main, not pushed
    const a = ok(["add", "fix-a", "--task", "T-1"]);
    expect(ok(["status", a.handle]).worktree.unpushed).toBe(0);
    const b = ok(["add", "fix-b", "--task", "T-1"]);
    expect(b.candidates).toMatchObject([{ handle: a.handle, eligible: true, reasons: [] }]);
  });

  it("the worktree's own commits still count, and still make it ineligible", () => {
    s.commit({ file: "wave-1.txt" });
    const a = ok(["add", "fix-a", "--task", "T-1"]);
    s.commit({ in: a.path, file: "own.txt" });
    expect(ok(["status", a.handle]).worktree.unpushed).toBe(1);
    const b = ok(["add", "fix-b", "--task", "T-1"]);
    expect(b.candidates).toMatchObject([{ handle: a.handle, eligible: false, reasons: [{ code: "unpushed_commits", count: 1 }] }]);
  });

  it("the work stays 'not preserved' in hygiene when its own commits are unpushed (nothing lost)", () => {
    s.commit({ file: "wave-1.txt" });
    const a = ok(["add", "fix-a", "--task", "T-1"]);
    s.commit({ in: a.path, file: "own.txt" });
    ok(["release", a.handle]);
    const row = ok(["hygiene"]).worktrees.find((w: { handle: string }) => w.handle === a.handle);
    expect(row.disposition).toBe("needs_salvage");
    const plan = ok(["cleanup", "plan"]);
    expect(plan.items.map((i: { path: string }) => i.path)).not.toContain(a.path);
  });
});

describe("§4.4: the default base is the newer of local and origin's default branch", () => {
  it("after a git fetch, add starts from what was fetched", () => {
    const fetched = pushFromElsewhere("upstream.txt");
    const stale = ok(["add", "before-fetch", "--no-bootstrap"]); // Orchard never fetches: still the local main
    expect(stale.base).toEqual({ ref: "refs/heads/main", commit: s.git("rev-parse", "main") });
    s.git("fetch", "-q", "origin");
    const r = ok(["add", "after-fetch", "--no-bootstrap"]);
    expect(r.base).toEqual({ ref: "refs/remotes/origin/main", commit: fetched });
    expect(git(r.path, "rev-parse", "HEAD")).toBe(fetched);
    expect(codes(r.notes)).not.toContain("base_diverged");
  });

  it("after a git fetch, recycle starts from what was fetched", () => {
    const old = ok(["add", "old-work", "--owner", "agent-a"]);
    ok(["release", old.handle, "--owner", "agent-a"]);
    const fetched = pushFromElsewhere("upstream.txt");
    s.git("fetch", "-q", "origin");
    const r = ok(["recycle", old.handle, "--branch", "new-work"]);
    expect(r).toMatchObject({ action: "recycled", base: { ref: "refs/remotes/origin/main", commit: fetched } });
    expect(git(r.path, "rev-parse", "HEAD")).toBe(fetched);
  });

  it("a local default branch ahead of origin's is the base", () => {
    const local = s.commit({ file: "local.txt" });
    expect(ok(["add", "feat", "--no-bootstrap"]).base).toEqual({ ref: "refs/heads/main", commit: local });
  });

  it("diverged: the local one, with note base_diverged", () => {
    const remote = pushFromElsewhere("upstream.txt");
    s.git("fetch", "-q", "origin");
    const local = s.commit({ file: "local.txt" });
    const r = ok(["add", "feat", "--no-bootstrap"]);
    expect(r.base).toEqual({ ref: "refs/heads/main", commit: local });
    expect(r.notes).toContainEqual(expect.objectContaining({ code: "base_diverged", local, remote }));
  });
});

describe("§3.6: the duplicate group keeps the member with the work", () => {
  it("two live members: the one with pushed work beats the empty newest worktree", () => {
    const worked = ok(["add", "fix-billing", "--task", "T-400", "--owner", "agent-a"]);
    s.commit({ in: worked.path, file: "billing.txt" });
    s.push("fix-billing", worked.path);
    const empty = ok(["add", "fix-billing-2", "--task", "T-400", "--owner", "agent-b"]);
    const [group] = ok(["hygiene"]).duplicateTaskGroups;
    expect(group).toMatchObject({ task: "t-400", canonical: worked.handle, others: [empty.handle], conflict: false });
  });

  it("two members holding work nobody else has: conflict, and no removal is suggested", () => {
    const a = ok(["add", "fix-a", "--task", "T-9"]);
    s.commit({ in: a.path, file: "a.txt" });
    const b = ok(["add", "fix-b", "--task", "T-9"]);
    s.makeDirty(b.path);
    const report = ok(["hygiene"]);
    expect(report.duplicateTaskGroups).toMatchObject([{ canonical: a.handle, conflict: true }]);
    const human = s.orchard(["hygiene"], { json: false }).stdout;
    expect(human).toContain("duplicate task t-9: conflict");
    expect(human).not.toMatch(/t-9: .* holds the most work/);
    const plan = ok(["cleanup", "plan"]);
    expect(plan.items.map((i: { path: string }) => i.path)).not.toEqual(expect.arrayContaining([a.path]));
    expect(plan.items.map((i: { path: string }) => i.path)).not.toEqual(expect.arrayContaining([b.path]));
  });
});

describe("preventable-duplicate hints work when followed", () => {
  type History = "live" | "released" | "wave" | "squash";
  /**
   * The first worktree of the task: live and active; released after its work was pushed; released
   * and merged into local main by a wave without a push (its base has moved); or released and
   * squash-merged into local main, its own commits on no remote.
   */
  function firstWorktree(scenario: Scenario, history: History): { handle: string } {
    const first = ok(["add", "fix-a", "--task", "T-1", "--owner", "agent-a"], scenario);
    if (history === "live") return first;
    if (history !== "released") {
      scenario.commit({ in: first.path, file: "a-1.txt" });
      scenario.commit({ in: first.path, file: "a-2.txt" });
    }
    ok(["release", first.handle, "--owner", "agent-a"], scenario);
    if (history === "wave") scenario.git("merge", "-q", "--no-ff", "--no-edit", "fix-a");
    if (history === "squash") {
      scenario.git("merge", "-q", "--squash", "fix-a");
      scenario.git("commit", "-qm", "fix-a, squashed");
    }
    return first;
  }

  it.each([
    ["an active candidate", "reuse-compatible", "reused", "live"],
    ["a terminal candidate", "recycle-terminal", "recycled", "released"],
    ["a terminal candidate a wave merged into local main (its base moved)", "recycle-terminal", "recycled", "wave"],
    ["a terminal candidate squash-merged into local main (its commits on no remote)", "recycle-terminal", "recycled", "squash"],
  ] as const)("%s → --policy %s, which really %s it", (_label, policy, action, history) => {
    const first = firstWorktree(s, history);
    const second = ok(["add", "fix-b", "--task", "T-1", "--owner", "agent-a"]);
    expect(second.candidates).toMatchObject([{ handle: first.handle, eligible: true, reasons: [] }]);
    const recent = ok(["hygiene"]).preventableDuplicates.recent;
    expect(recent).toMatchObject([{ suggestion: { policy, handle: first.handle } }]);

    // follow the hint: the same history, but the second request passes the suggested policy
    const again = Scenario.create();
    try {
      const replay = firstWorktree(again, history);
      const followed = ok(["add", "fix-b", "--task", "T-1", "--owner", "agent-a", "--policy", policy], again);
      expect(followed).toMatchObject({ action });
      expect(followed.lineage?.from?.handle ?? followed.handle).toBe(replay.handle);
      if (action === "recycled") expect(followed.head).toBe(again.git("rev-parse", "main")); // onto the new base
      expect(ok(["hygiene"], again).preventableDuplicates.count).toBe(0);
    } finally {
      again.cleanup();
    }
  });

  it("an eligible terminal candidate that no policy can take (a foreign lock fails the recycle proof) records no preventable duplicate", () => {
    const first = ok(["add", "fix-a", "--task", "T-1", "--owner", "agent-a"]);
    ok(["release", first.handle, "--owner", "agent-a"]);
    s.lockAs(first.path, `claude agent x (pid ${deadPid()})`); // a foreign lock (its owner dead): the recycle proof refuses it
    const second = ok(["add", "fix-b", "--task", "T-1"]);
    expect(second.candidates).toMatchObject([{ handle: first.handle, lifecycle: "terminal", eligible: true }]);
    expect(ok(["hygiene"]).preventableDuplicates.count).toBe(0);
  });
});

describe("§3.1 --policy reuse-compatible", () => {
  it("takes the eligible active candidate even when a newer released one is listed first", () => {
    const active = ok(["add", "fix-a", "--task", "T-1"]);
    const released = ok(["add", "fix-b", "--task", "T-1"]);
    ok(["release", released.handle]);
    const r = ok(["add", "fix-c", "--task", "T-1", "--policy", "reuse-compatible"]);
    expect(r.candidates.map((c: { handle: string; lifecycle: string; eligible: boolean }) => [c.handle, c.lifecycle, c.eligible])).toEqual([
      [released.handle, "terminal", true],
      [active.handle, "active", true],
    ]);
    expect(r).toMatchObject({ action: "reused", handle: active.handle });
  });
});

describe("§3.1 --policy exclusive-task", () => {
  it("refuses task_held_elsewhere while another owner's live lease holds the task, and changes nothing", () => {
    const held = ok(["add", "fix-a", "--task", "https://github.com/o/r/issues/7", "--owner", "agent-1"]);
    const r = s.orchard(["add", "fix-b", "--task", "o/r#7", "--owner", "agent-2", "--policy", "exclusive-task"]);
    expect(r.code).toBe(3);
    expect(r.json).toMatchObject({ ok: false, action: "refused", reasons: [{ code: "task_held_elsewhere", handle: held.handle, owner: "agent-1" }] });
    expect(existsSync(r.json.path)).toBe(false);
    expect(s.git("branch", "--list", "fix-b")).toBe("");
  });

  it("the same owner is not 'elsewhere': as reuse-compatible, it reuses its own worktree", () => {
    const held = ok(["add", "fix-a", "--task", "T-7", "--owner", "agent-1"]);
    expect(ok(["add", "fix-b", "--task", "T-7", "--owner", "agent-1", "--policy", "exclusive-task"])).toMatchObject({ action: "reused", handle: held.handle });
  });

  it("a released task, or an expired lease, no longer holds it", () => {
    const done = ok(["add", "fix-a", "--task", "T-7", "--owner", "agent-1"]);
    ok(["release", done.handle, "--owner", "agent-1"]);
    expect(ok(["add", "fix-b", "--task", "T-7", "--owner", "agent-2", "--policy", "exclusive-task"]).action).toBe("created");

    ok(["add", "fix-c", "--task", "T-8", "--owner", "agent-1", "--ttl", "1ms"]);
    const r = ok(["add", "fix-d", "--task", "T-8", "--owner", "agent-2", "--policy", "exclusive-task"]);
    expect(codes(r.reasons)).not.toContain("task_held_elsewhere");
  });
});
