// Reasons that say what holds a worktree (SPEC v3 §3.8, issue 21 item 6): a live holder is
// `pid_alive` whatever the guard and no orphan; a fresh lock of a dead holder says when it becomes
// reapable; one owner label in every table.
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { Scenario, deadPid, liveProcess } from "../helpers/scenario.js";

let s: Scenario;
const stops: (() => void)[] = [];
beforeEach(() => {
  s = Scenario.create();
});
afterEach(() => {
  while (stops.length) stops.pop()?.();
  s.cleanup();
});

describe("reap-orphans names live holders and counts only orphans", () => {
  it("a live Claude Code session with a fresh lock is pid_alive (not lock_too_fresh), counted live, not among skipped orphans", () => {
    const agent = liveProcess();
    stops.push(agent.stop);
    const path = s.worktree("worktree-agent-a", { lock: `claude agent a (pid ${agent.pid})` }); // locked just now
    const r = s.orchard(["reap-orphans"]);
    expect(r.json.entries.find((e: { path: string }) => e.path === path)).toMatchObject({ status: "skipped", reason: "pid_alive" });
    expect(r.json).toMatchObject({ reaped: 0, skipped: 0, live: 1 });
    expect(r.stderr).not.toContain("orphan(s) skipped");
    const human = s.orchard(["reap-orphans"], { json: false }).stdout;
    expect(human).toContain("reaped 0, skipped 0, live 1");
    expect(human).toContain(`claude-code ${agent.pid}`);
  });

  it("a dead holder's fresh lock stays lock_too_fresh and is an orphan skipped", () => {
    const path = s.worktree("worktree-agent-d", { lock: `claude agent d (pid ${deadPid()})` });
    const r = s.orchard(["reap-orphans"]);
    expect(r.json.entries.find((e: { path: string }) => e.path === path)).toMatchObject({ status: "skipped", reason: "lock_too_fresh" });
    expect(r.json).toMatchObject({ skipped: 1, live: 0 });
    expect(r.stderr).toContain("orchard: 1 orphan(s) skipped");
  });
});

describe("hygiene says when a freshly locked crashed worktree becomes reapable", () => {
  it("reapable with reapableAt (lock mtime + guard) and lock_too_fresh; an old lock has neither", () => {
    const fresh = s.worktree("worktree-agent-f", { lock: `claude agent f (pid ${deadPid()})` });
    const old = s.worktree("worktree-agent-o", { lock: `claude agent o (pid ${deadPid()})` });
    s.ageLock(old, 600);
    const before = Date.now();
    const rows = s.orchard(["hygiene"]).json.worktrees;
    const f = rows.find((w: { path: string }) => w.path === fresh);
    expect(f.disposition).toBe("reapable");
    const at = Date.parse(f.reapableAt);
    expect(at).toBeGreaterThan(before + 4 * 60_000); // the 5 min default guard from a lock made moments ago
    expect(at).toBeLessThanOrEqual(Date.now() + 5 * 60_000);
    expect(f.reasons.map((r: { code: string }) => r.code)).toContain("lock_too_fresh");
    expect(f.suggestion.action).toContain(f.reapableAt);
    const o = rows.find((w: { path: string }) => w.path === old);
    expect(o.disposition).toBe("reapable");
    expect(o.reapableAt).toBeUndefined();
    expect(o.suggestion.action).toBe("reap");
  });

  it("hygiene's OWNER column names Claude Code's lock owner as reap-orphans does", () => {
    const pid = deadPid();
    s.worktree("worktree-agent-c", { lock: `claude agent c (pid ${pid})` });
    expect(s.orchard(["hygiene"], { json: false }).stdout).toContain(`claude-code ${pid}`);
  });
});
