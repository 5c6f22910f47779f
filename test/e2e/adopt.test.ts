// `orchard adopt <path>` (SPEC §3.11): a foreign worktree becomes managed in place.
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { existsSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { Scenario, deadPid, git, liveProcess } from "../helpers/scenario.js";

let s: Scenario;
beforeEach(() => {
  s = Scenario.create();
});
afterEach(() => s.cleanup());

describe("adopt", () => {
  it("registers a Claude Code worktree in place: handle, base, owner from its lock; the lock is kept; idempotent", () => {
    const lock = "claude agent agent-1 (pid 4242)";
    const path = s.worktree("worktree-agent-1", { lock });
    const base = git(s.primary, "rev-parse", "main");
    s.commit({ in: path, file: "work.txt" });
    s.commit({ file: "main-moves.txt" });
    const r = s.orchard(["adopt", path, "--task", "T-1"]);
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(r.json).toMatchObject({
      ok: true,
      action: "adopted",
      handle: "app@worktree-agent-1",
      path,
      branch: "worktree-agent-1",
      base: { ref: "refs/heads/main", commit: base },
      task: "t-1",
      owner: "claude-code:agent-1",
      reasons: [],
    });
    const admin = s.adminDir(path);
    expect(readFileSync(join(admin, "locked"), "utf8").trim()).toBe(lock);
    expect(JSON.parse(readFileSync(join(admin, "orchard.json"), "utf8"))).toMatchObject({ handle: "app@worktree-agent-1", task: "t-1" });
    const status = s.orchard(["status", "app@worktree-agent-1"]);
    expect(status.json.worktree).toMatchObject({ managed: true, path, lifecycle: "active" });

    const again = s.orchard(["adopt", path]);
    expect(again.code).toBe(0);
    expect(again.json).toMatchObject({ ok: true, action: "already_managed", handle: "app@worktree-agent-1", task: "t-1" });
  });

  it("an unlocked worktree gets Orchard's lock with the requester's lease", () => {
    const path = s.worktree("worktree-agent-2");
    const r = s.orchard(["adopt", path, "--owner", "me"]);
    expect(r.code, r.stdout).toBe(0);
    expect(r.json.lease).toMatchObject({ owner: "me" });
    const lock = readFileSync(join(s.adminDir(path), "locked"), "utf8");
    expect(JSON.parse(lock.replace(/^orchard-lease /, ""))).toMatchObject({ handle: "app@worktree-agent-2", owner: "me" });
  });

  it("refuses the primary (exit 3), a path that is no worktree (exit 2)", () => {
    const p = s.orchard(["adopt", s.primary]);
    expect(p.code).toBe(3);
    expect(p.json.reasons.map((x: { code: string }) => x.code)).toEqual(["not_adoptable"]);
    expect(s.orchard(["adopt", join(s.root, "nowhere")]).code).toBe(2);
  });

  it("adopts a detached worktree (SPEC v5 §3.11): branch null, its HEAD the base, a lease and a lock; idempotent", () => {
    const path = join(s.root, "codex", "a1b2", "app");
    git(s.primary, "worktree", "add", "-q", "--detach", path, "main");
    const head = git(path, "rev-parse", "HEAD");
    const r = s.orchard(["adopt", path, "--owner", "codex:thread-1", "--task", "T-9"]);
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(r.json).toMatchObject({ ok: true, action: "adopted", path, branch: null, head, base: { ref: head, commit: head }, owner: "codex:thread-1" });
    expect(r.json.handle).toMatch(/^app@detached-a1b2-app-[0-9a-f]{8}$/);
    const lock = readFileSync(join(s.adminDir(path), "locked"), "utf8");
    expect(JSON.parse(lock.replace(/^orchard-lease /, ""))).toMatchObject({ handle: r.json.handle, owner: "codex:thread-1" });
    expect(JSON.parse(readFileSync(join(s.adminDir(path), "orchard.json"), "utf8"))).toMatchObject({ handle: r.json.handle, branch: null });
    const status = s.orchard(["status", r.json.handle]);
    expect(status.json.worktree).toMatchObject({ managed: true, branch: null, detached: true, head, base: { ref: head, commit: head, drifted: false } });
    expect(s.orchard(["adopt", path]).json).toMatchObject({ ok: true, action: "already_managed", handle: r.json.handle, branch: null });
  });

  it("a detached worktree whose HEAD holds a commit on no ref is never removed unsalvaged; at a merged commit it is removable", () => {
    const path = join(s.root, "codex", "c3d4", "app");
    git(s.primary, "worktree", "add", "-q", "--detach", path, "main");
    const unique = s.commit({ in: path, file: "codex-work.txt" });
    const handle = s.orchard(["adopt", path]).json.handle as string;
    expect(s.orchard(["status", handle]).json.worktree).toMatchObject({ unpushed: 1, merged: { how: null } });
    s.orchard(["release", handle]);
    const row = s.orchard(["hygiene"]).json.worktrees.find((w: { path: string }) => w.path === path);
    expect(row.disposition).not.toBe("reclaimable");
    expect(s.orchard(["cleanup", "run"]).code).toBe(0);
    expect(existsSync(path)).toBe(true);
    const refused = s.orchard(["remove", handle]);
    expect(refused.code, refused.stdout).toBe(3);
    expect(refused.json.reasons.map((x: { code: string }) => x.code)).toContain("work_not_preserved");
    expect(existsSync(path)).toBe(true);
    const salvaged = s.orchard(["remove", handle, "--salvage"]);
    expect(salvaged.code, salvaged.stdout + salvaged.stderr).toBe(0);
    expect(existsSync(path)).toBe(false);
    // the commit that was on no ref is kept, under the salvage ref
    expect(git(s.primary, "merge-base", "--is-ancestor", unique, salvaged.json.salvageRef)).toBe("");

    const clean = join(s.root, "codex", "e5f6", "app");
    git(s.primary, "worktree", "add", "-q", "--detach", clean, "main");
    const cleanHandle = s.orchard(["adopt", clean]).json.handle as string;
    const removed = s.orchard(["remove", cleanHandle]);
    expect(removed.code, removed.stdout).toBe(0);
    expect(removed.json.salvageRef ?? null).toBeNull();
    expect(existsSync(clean)).toBe(false);
  });

  it("commits only a detached HEAD's reflog keeps are work: not preserved, salvaged as parents, never reaped unsalvaged", () => {
    const path = join(s.root, "codex", "f00d", "app");
    git(s.primary, "worktree", "add", "-q", "--detach", path, "main");
    const lost = s.commit({ in: path, file: "only-in-reflog.txt" });
    git(path, "checkout", "-q", "--detach", "main"); // HEAD back at main: the commit is in logs/HEAD alone
    const handle = s.orchard(["adopt", path]).json.handle as string;
    s.orchard(["release", handle]);
    const status = s.orchard(["status", handle]).json.worktree;
    expect(status).toMatchObject({ reflogOnly: 1, merged: { how: "same_commit" } });
    expect(s.orchard(["hygiene"]).json.worktrees.find((w: { path: string }) => w.path === path).disposition).toBe("needs_salvage");
    const refused = s.orchard(["remove", handle]);
    expect(refused.code, refused.stdout).toBe(3);
    const salvaged = s.orchard(["remove", handle, "--salvage"]);
    expect(salvaged.code, salvaged.stdout + salvaged.stderr).toBe(0);
    expect(existsSync(path)).toBe(false);
    expect(git(s.primary, "merge-base", "--is-ancestor", lost, salvaged.json.salvageRef)).toBe("");
    // the salvage is not pruned as "pushed": its HEAD is on origin, its reflog parent is not
    const prune = s.orchard(["salvage", "prune", "--dry-run"]);
    expect(prune.json.pruned.map((p: { ref: string }) => p.ref)).not.toContain(salvaged.json.salvageRef);

    // a foreign one, locked by a dead owner at a merged HEAD: reap-orphans keeps it unless asked to salvage
    const other = join(s.root, "codex", "beef", "app");
    git(s.primary, "worktree", "add", "-q", "--detach", other, "main");
    const lost2 = s.commit({ in: other, file: "only-in-reflog-2.txt" });
    git(other, "checkout", "-q", "--detach", "main");
    git(s.primary, "worktree", "lock", "--reason", String(deadPid()), other);
    const kept = s.orchard(["reap-orphans", "--guard", "0s"]);
    expect(kept.json.entries.find((e: { path: string }) => e.path === other)).toMatchObject({ status: "skipped", reason: "branch_not_merged" });
    expect(existsSync(other)).toBe(true);
    const reaped = s.orchard(["reap-orphans", "--guard", "0s", "--salvage"]);
    const entry = reaped.json.entries.find((e: { path: string }) => e.path === other);
    expect(entry).toMatchObject({ status: "reaped" });
    expect(git(s.primary, "merge-base", "--is-ancestor", lost2, entry.salvageRef)).toBe("");
  });

  it("adopting a managed worktree again with an owner takes the lease (a session starting again), unless another owner holds it live", () => {
    const path = join(s.root, "codex", "0a0b", "app");
    git(s.primary, "worktree", "add", "-q", "--detach", path, "main");
    const live = liveProcess();
    try {
      const first = s.orchard(["adopt", path, "--owner", "codex:s1", "--pid", String(live.pid)]);
      expect(first.json).toMatchObject({ ok: true, action: "adopted", owner: "codex:s1" });
      const taken = s.orchard(["adopt", path, "--owner", "codex:s2"]);
      expect(taken.code, taken.stdout).toBe(3);
      expect(taken.json.reasons.map((x: { code: string }) => x.code)).toEqual(["live_owner"]);
      // the test stands in for session s1's own hook (a child of its Codex process): a person's --force
      expect(s.orchard(["release", first.json.handle, "--owner", "codex:s1", "--force"]).code).toBe(0);
      const again = s.orchard(["adopt", path, "--owner", "codex:s2"]);
      expect(again.json).toMatchObject({ ok: true, action: "adopted", handle: first.json.handle, owner: "codex:s2" });
      expect(s.orchard(["status", first.json.handle]).json.worktree).toMatchObject({ lifecycle: "active", owner: "codex:s2" });
      const lock = readFileSync(join(s.adminDir(path), "locked"), "utf8");
      expect(JSON.parse(lock.replace(/^orchard-lease /, ""))).toMatchObject({ owner: "codex:s2" });
    } finally {
      live.stop();
    }
  });

  it("refuses when another managed worktree holds the handle", () => {
    const add = s.orchard(["add", "worktree-agent-3", "--no-bootstrap"]);
    // the managed directory vanishes and its registration is pruned; the row stays
    git(s.primary, "worktree", "unlock", add.json.path);
    rmSync(add.json.path, { recursive: true, force: true });
    git(s.primary, "worktree", "prune");
    const path = join(s.root, "foreign-3");
    git(s.primary, "worktree", "add", "-q", path, "worktree-agent-3");
    const r = s.orchard(["adopt", path]);
    expect(r.code).toBe(3);
    expect(r.json.reasons).toMatchObject([{ code: "handle_taken", handle: "app@worktree-agent-3" }]);
    expect(existsSync(join(s.adminDir(path), "orchard.json"))).toBe(false);
  });
});
