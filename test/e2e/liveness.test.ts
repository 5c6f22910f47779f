// Liveness of crashed agents (SPEC §4.11): a lease that names its pid is dead the moment that
// process dies (SIGKILL, no goodbye), whatever its heartbeat TTL — in status, list, hygiene (JSON
// and HTML), reap-orphans and cleanup — and the restarted agent is admitted.
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { Scenario, liveProcess, waitFor } from "../helpers/scenario.js";

let s: Scenario;
const stops: (() => void)[] = [];
beforeEach(() => {
  s = Scenario.create();
});
afterEach(() => {
  while (stops.length) stops.pop()?.();
  s.cleanup();
});

function gone(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return false;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "ESRCH";
  }
}

/** A real agent process; `crash()` SIGKILLs it and waits until the pid is gone (reaped, not a zombie). */
function agent(): { pid: number; crash: () => Promise<void> } {
  const p = liveProcess();
  stops.push(p.stop);
  return {
    pid: p.pid,
    crash: async () => {
      p.stop();
      await waitFor(() => gone(p.pid), "the killed agent to be reaped");
    },
  };
}

const codes = (signals: { code: string }[]) => signals.map((x) => x.code);
const hygieneRow = (path: string) => s.orchard(["hygiene"]).json.worktrees.find((w: { path: string }) => w.path === path);

describe("the pid beats the heartbeat", () => {
  it("after kill -9 of the lease's pid the worktree is dead at once in status, list, hygiene and HTML", async () => {
    const a = agent();
    const wt = s.orchard(["add", "feat-a", "--owner", "agent-1", "--pid", String(a.pid), "--ttl", "2h", "--no-bootstrap"]).json;
    // while the agent runs: live through its pid
    const before = s.orchard(["status", wt.handle]).json.worktree.liveness;
    expect(before.state).toBe("live");
    expect(codes(before.signals)).toEqual(["pid_alive"]);
    expect(hygieneRow(wt.path).disposition).toBe("live");

    await a.crash();
    const status = s.orchard(["status", wt.handle]).json.worktree;
    expect(status.liveness.state).toBe("dead");
    expect(codes(status.liveness.signals)).toEqual(["pid_dead"]);
    const listed = s.orchard(["list"]).json.worktrees.find((w: { path: string }) => w.path === wt.path);
    expect(listed.liveness.state).toBe("dead");
    const row = hygieneRow(wt.path);
    // clean, nothing committed (merged as the same commit), locked by a dead owner
    expect(row.disposition).toBe("reapable");
    expect(row.reasons.map((r: { code: string }) => r.code)).toEqual(["dead_owner", "clean", "merged"]);
    const html = join(s.root, "report.html");
    expect(s.orchard(["hygiene", "--html", html]).code).toBe(0);
    const page = readFileSync(html, "utf8");
    expect(page).toContain(`data-disposition="reapable"`);
    expect(page).not.toContain(`data-disposition="live"`);
  });

  it("a lease without a pid still lives by its heartbeat (the refusal beside the rule)", () => {
    const wt = s.orchard(["add", "feat-a", "--owner", "agent-1", "--ttl", "2h", "--no-bootstrap"]).json;
    const liveness = s.orchard(["status", wt.handle]).json.worktree.liveness;
    expect(liveness.state).toBe("live");
    expect(codes(liveness.signals)).toEqual(["lease_live"]);
    expect(hygieneRow(wt.path).disposition).toBe("live");
  });

  it("cleanup run reaps the crashed agent's clean worktree; while it ran, cleanup left it alone", async () => {
    const a = agent();
    const wt = s.orchard(["add", "feat-a", "--owner", "agent-1", "--pid", String(a.pid), "--no-bootstrap"]).json;
    expect(s.orchard(["cleanup", "run"]).code).toBe(0);
    expect(existsSync(wt.path)).toBe(true);
    await a.crash();
    const r = s.orchard(["cleanup", "run"]);
    expect(r.code, r.stdout).toBe(0);
    expect(existsSync(wt.path)).toBe(false);
  });

  it("a crashed agent's dirty worktree is never cleaned: needs_salvage, kept", async () => {
    const a = agent();
    const wt = s.orchard(["add", "feat-a", "--owner", "agent-1", "--pid", String(a.pid), "--no-bootstrap"]).json;
    s.makeDirty(wt.path, { untracked: true, tracked: true });
    await a.crash();
    expect(hygieneRow(wt.path).disposition).toBe("needs_salvage");
    expect(s.orchard(["cleanup", "run"]).code).toBe(0);
    expect(readFileSync(join(wt.path, "untracked-work.txt"), "utf8")).toBe("precious\n");
  });

  it("reap-orphans reaps a merged worktree whose lease pid died (pid_dead_and_merged), not while it runs", async () => {
    const a = agent();
    const wt = s.orchard(["add", "feat-a", "--owner", "agent-1", "--pid", String(a.pid), "--no-bootstrap"]).json;
    s.ageLock(wt.path, 600);
    const running = s.orchard(["reap-orphans"]).json.entries.find((e: { path: string }) => e.path === wt.path);
    expect(running).toMatchObject({ status: "skipped", reason: "pid_alive" });
    await a.crash();
    const r = s.orchard(["reap-orphans"]).json.entries.find((e: { path: string }) => e.path === wt.path);
    expect(r).toMatchObject({ status: "reaped", reason: "pid_dead_and_merged" });
    expect(existsSync(wt.path)).toBe(false);
  });

  it("the restarted agent is admitted (dirty: with --resume); while the first ran, it was refused", async () => {
    const first = agent();
    const wt = s.orchard(["add", "feat-a", "--task", "T-1", "--owner", "session-1", "--pid", String(first.pid), "--no-bootstrap"]).json;
    s.makeDirty(wt.path);
    const early = s.orchard(["add", "feat-a", "--task", "T-1", "--owner", "session-2", "--resume", "--no-bootstrap"]);
    expect(early.code).toBe(3);
    expect(early.json.reasons.map((r: { code: string }) => r.code)).toContain("live_owner");

    await first.crash();
    const second = agent();
    const withoutResume = s.orchard(["add", "feat-a", "--task", "T-1", "--owner", "session-2", "--pid", String(second.pid), "--no-bootstrap"]);
    expect(withoutResume.code).toBe(3);
    expect(withoutResume.json.reasons.map((r: { code: string }) => r.code)).toEqual(["dirty"]);
    const resumed = s.orchard(["add", "feat-a", "--task", "T-1", "--owner", "session-2", "--pid", String(second.pid), "--resume", "--no-bootstrap"]);
    expect(resumed.code, resumed.stdout).toBe(0);
    expect(resumed.json).toMatchObject({ action: "adopted", owner: "session-2", lease: { owner: "session-2", pid: second.pid } });
    expect(readFileSync(join(wt.path, "untracked-work.txt"), "utf8")).toBe("precious\n");
    expect(s.orchard(["status", wt.handle]).json.worktree.liveness.state).toBe("live");
  });
});
