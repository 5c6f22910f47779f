// Task-backed admission: candidates before allocation (same task, patch-equivalent), their
// eligibility, and the policies isolated / reuse-compatible, against real git and the real CLI.
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { Scenario, git } from "../helpers/scenario.js";

let s: Scenario;
beforeEach(() => {
  s = Scenario.create();
});
afterEach(() => s.cleanup());

const codes = (reasons: { code: string }[]): string[] => reasons.map((r) => r.code).sort();
const worktreeCount = (): number => git(s.primary, "worktree", "list").split("\n").length;

/** A new branch from main with one commit, made in a throwaway checkout (the branch ends up checked out nowhere). */
function commitOnBranch(branch: string, file: string, content: string, message: string): void {
  const path = join(s.root, `scratch-${branch}`);
  git(s.primary, "worktree", "add", "-q", "-b", branch, path, "main");
  s.commit({ in: path, file, content, message });
  git(s.primary, "worktree", "remove", path);
}

describe("exact handle", () => {
  it("repeating a request adopts the same worktree and reports its bootstrap as reused", () => {
    const first = s.orchard(["add", "feat-a", "--task", "T-1"]).json;
    expect(first.bootstrap).toMatchObject({ status: "ran", fingerprint: expect.stringMatching(/^[0-9a-f]{64}$/) });
    const again = s.orchard(["add", "feat-a", "--task", "T-1"]);
    expect(again.code).toBe(0);
    expect(again.json).toMatchObject({ action: "adopted", handle: first.handle, bootstrap: { status: "reused", fingerprint: first.bootstrap.fingerprint } });
    expect(worktreeCount()).toBe(2);
  });
});

describe("same_task candidates", () => {
  it("finds a worktree of the same task written differently, and records the preventable duplicate", () => {
    const first = s.orchard(["add", "feat-a", "--task", "https://X.com/t/1?a=b"]).json;
    expect(first.task).toBe("x.com/t/1");
    const r = s.orchard(["add", "feat-b", "--task", "https://x.com/t/1/"]);
    expect(r.code).toBe(0);
    expect(r.json.action).toBe("created");
    expect(r.json.candidates).toEqual([
      {
        handle: first.handle,
        path: first.path,
        branch: "feat-a",
        kind: "same_task",
        lifecycle: "active",
        eligible: true,
        reasons: [],
        lastActivity: expect.any(String),
      },
    ]);
    const lineage = s.orchard(["lineage", "https://X.com/t/1#frag"]).json;
    const duplicate = lineage.events.find((e: { kind: string }) => e.kind === "preventable_duplicate");
    expect(duplicate).toMatchObject({ handle: r.json.handle, task: "x.com/t/1", data: { candidates: [first.handle], handle: r.json.handle } });
  });

  it("no task and no commits on the branch: no candidates are looked for", () => {
    s.orchard(["add", "feat-a", "--task", "T-1"]);
    expect(s.orchard(["add", "feat-b"]).json.candidates).toEqual([]);
  });

  it("a live owner, dirty files, unpushed commits and base drift make a candidate ineligible", () => {
    const live = s.orchard(["add", "live-a", "--task", "T-1", "--owner", "someone", "--pid", String(process.pid)]).json;
    const dirty = s.orchard(["add", "dirty-a", "--task", "T-1"]).json;
    s.makeDirty(dirty.path);
    const unpushed = s.orchard(["add", "unpushed-a", "--task", "T-1"]).json;
    s.commit({ in: unpushed.path, message: "local only" });
    const r = s.orchard(["add", "feat-b", "--task", "t-1", "--owner", "me", "--dry-run"]);
    expect(r.json.action).toBe("planned");
    const byHandle = new Map(r.json.candidates.map((c: { handle: string }) => [c.handle, c]));
    expect(codes((byHandle.get(live.handle) as { reasons: { code: string }[] }).reasons)).toEqual(["live_owner"]);
    expect(codes((byHandle.get(dirty.handle) as { reasons: { code: string }[] }).reasons)).toEqual(["dirty"]);
    expect(codes((byHandle.get(unpushed.handle) as { reasons: { code: string }[] }).reasons)).toEqual(["unpushed_commits"]);
    s.commit({ message: "main moves on" });
    const drifted = s.orchard(["add", "feat-c", "--task", "T-1", "--dry-run"]).json.candidates;
    expect(drifted.every((c: { reasons: { code: string }[] }) => c.reasons.some((x) => x.code === "base_drift"))).toBe(true);
    expect(drifted.every((c: { eligible: boolean }) => !c.eligible)).toBe(true);
  });

  it("orders eligible first, then newest activity; terminal ones are listed too", () => {
    const a = s.orchard(["add", "feat-a", "--task", "T-1"]).json;
    const b = s.orchard(["add", "feat-b", "--task", "T-1"]).json;
    s.orchard(["release", a.handle]);
    s.makeDirty(b.path);
    const c = s.orchard(["add", "feat-c", "--task", "T-1"]).json;
    const r = s.orchard(["add", "feat-d", "--task", "T-1", "--dry-run"]).json;
    expect(r.candidates.map((x: { handle: string }) => x.handle)).toEqual([c.handle, a.handle, b.handle]);
    expect(r.candidates.map((x: { lifecycle: string }) => x.lifecycle)).toEqual(["active", "terminal", "active"]);
    expect(r.candidates.map((x: { eligible: boolean }) => x.eligible)).toEqual([true, true, false]);
  });
});

describe("patch_equivalent candidates", () => {
  it("finds a worktree carrying the same change under another commit message", () => {
    const a = s.orchard(["add", "feat-a"]).json;
    s.commit({ in: a.path, file: "src/feature.txt", content: "the feature\n", message: "feat: add the feature" });
    s.push("feat-a", a.path);
    commitOnBranch("feat-b", "src/feature.txt", "the feature\n", "completely different words");
    const r = s.orchard(["add", "feat-b"]);
    expect(r.json.action).toBe("created");
    expect(r.json.candidates).toEqual([expect.objectContaining({ handle: a.handle, kind: "patch_equivalent", eligible: true })]);
  });

  it("a different change is no candidate", () => {
    const a = s.orchard(["add", "feat-a"]).json;
    s.commit({ in: a.path, file: "src/feature.txt", content: "one\n" });
    commitOnBranch("feat-b", "src/feature.txt", "two\n", "another change");
    expect(s.orchard(["add", "feat-b"]).json.candidates).toEqual([]);
  });
});

describe("policy reuse-compatible", () => {
  it("reuses the eligible active worktree of the same task: its handle, branch and path, leased to the requester", () => {
    const first = s.orchard(["add", "feat-a", "--task", "T-1", "--owner", "a1", "--ttl", "1s"]).json;
    s.orchard(["heartbeat", first.handle, "--owner", "a1", "--ttl", "1ms"]);
    const r = s.orchard(["add", "feat-b", "--task", "T-1", "--owner", "a2", "--policy", "reuse-compatible"]);
    expect(r.code).toBe(0);
    expect(r.json).toMatchObject({ ok: true, action: "reused", handle: first.handle, branch: "feat-a", path: first.path, owner: "a2", lease: { owner: "a2" } });
    expect(r.json.candidates[0]).toMatchObject({ handle: first.handle, eligible: true });
    expect(worktreeCount()).toBe(2);
    expect(git(s.primary, "branch", "--list", "feat-b")).toBe("");
    const lock = readFileSync(join(s.adminDir(first.path), "locked"), "utf8");
    expect(lock).toContain('"owner":"a2"');
    const events = s.orchard(["lineage", first.handle]).json.events;
    expect(events.map((e: { kind: string }) => e.kind)).toEqual(["created", "reused"]);
    expect(events[1]).toMatchObject({ owner: "a2", data: { previousOwner: "a1" } });
  });

  it("dry run plans the reuse and changes nothing", () => {
    const first = s.orchard(["add", "feat-a", "--task", "T-1"]).json;
    const r = s.orchard(["add", "feat-b", "--task", "T-1", "--owner", "a2", "--policy", "reuse-compatible", "--dry-run"]).json;
    expect(r).toMatchObject({ action: "planned", handle: first.handle, path: first.path });
    expect(r.notes.map((n: { code: string }) => n.code)).toContain("reuse_planned");
    expect(s.orchard(["status", first.handle]).json.worktree.owner).toBeNull();
    expect(s.orchard(["lineage", first.handle]).json.events).toHaveLength(1);
  });

  it("creates when the first candidate is not eligible, or only terminal", () => {
    const first = s.orchard(["add", "feat-a", "--task", "T-1"]).json;
    s.makeDirty(first.path);
    const r = s.orchard(["add", "feat-b", "--task", "T-1", "--policy", "reuse-compatible"]).json;
    expect(r.action).toBe("created");
    expect(r.candidates[0]).toMatchObject({ handle: first.handle, eligible: false });
    s.orchard(["release", r.handle]);
    const again = s.orchard(["add", "feat-c", "--task", "T-1", "--policy", "reuse-compatible"]).json;
    expect(again.action).toBe("created");
    expect(again.candidates[0]).toMatchObject({ handle: r.handle, lifecycle: "terminal", eligible: true });
    expect(existsSync(again.path)).toBe(true);
  });

  it("another owner's live lease keeps a worktree from being reused", () => {
    s.orchard(["add", "feat-a", "--task", "T-1", "--owner", "a1"]);
    const r = s.orchard(["add", "feat-b", "--task", "T-1", "--owner", "a2", "--policy", "reuse-compatible"]).json;
    expect(r.action).toBe("created");
    expect(codes(r.candidates[0].reasons)).toEqual(["live_owner"]);
  });
});
