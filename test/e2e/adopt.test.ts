// `orchard adopt <path>` (SPEC §3.11): a foreign worktree becomes managed in place.
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { existsSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { Scenario, git } from "../helpers/scenario.js";

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

  it("refuses a detached worktree and the primary (exit 3), a path that is no worktree (exit 2)", () => {
    const detached = join(s.root, "detached");
    git(s.primary, "worktree", "add", "-q", "--detach", detached);
    const d = s.orchard(["adopt", detached]);
    expect(d.code).toBe(3);
    expect(d.json.reasons.map((x: { code: string }) => x.code)).toEqual(["detached"]);
    const p = s.orchard(["adopt", s.primary]);
    expect(p.code).toBe(3);
    expect(p.json.reasons.map((x: { code: string }) => x.code)).toEqual(["not_adoptable"]);
    expect(s.orchard(["adopt", join(s.root, "nowhere")]).code).toBe(2);
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
