// A zombie is dead (SPEC v3 §4.11, issue 21 item 4): a killed agent whose parent has not reaped it
// yet (state Z) works nowhere, whatever its parent does. Real zombies: a child killed under a
// parent that never waits (test/helpers/processes.ts).
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { existsSync } from "node:fs";
import { Scenario } from "../helpers/scenario.js";
import { procState, zombieToBe } from "../helpers/processes.js";

let s: Scenario;
const stops: (() => void)[] = [];
beforeEach(() => {
  s = Scenario.create();
});
afterEach(() => {
  while (stops.length) stops.pop()?.();
  s.cleanup();
});

const codes = (signals: { code: string }[]) => signals.map((x) => x.code);

describe.runIf(process.platform === "linux")("a zombie holds nothing", () => {
  it("a lease whose pid is a zombie is dead in status and hygiene, reaped, and another owner is admitted", async () => {
    const agent = await zombieToBe();
    stops.push(agent.stop);
    const wt = s.orchard(["add", "feat-a", "--owner", "agent-1", "--pid", String(agent.pid), "--no-bootstrap"]).json;
    expect(s.orchard(["status", wt.handle]).json.worktree.liveness.state).toBe("live");
    await agent.kill();
    expect(procState(agent.pid)).toBe("Z"); // still in the process table, kill(pid, 0) succeeds
    const liveness = s.orchard(["status", wt.handle]).json.worktree.liveness;
    expect(liveness.state).toBe("dead");
    expect(codes(liveness.signals)).toEqual(["pid_dead"]);
    const row = s.orchard(["hygiene"]).json.worktrees.find((w: { path: string }) => w.path === wt.path);
    expect(row.disposition).toBe("reapable");
    const other = s.orchard(["add", "feat-a", "--owner", "agent-2", "--no-bootstrap"]);
    expect(other.code, other.stdout).toBe(0);
    expect(other.json.action).toBe("adopted");
  });

  it("reap-orphans reaps a Claude Code worktree whose agent is a zombie; the same lock of a running agent is kept", async () => {
    const running = await zombieToBe();
    const zombie = await zombieToBe();
    stops.push(running.stop, zombie.stop);
    const keep = s.worktree("worktree-agent-k", { lock: `claude agent k (pid ${running.pid})` });
    const path = s.worktree("worktree-agent-z", { lock: `claude agent z (pid ${zombie.pid})` });
    s.ageLock(keep, 600);
    s.ageLock(path, 600);
    await zombie.kill();
    const entries = s.orchard(["reap-orphans"]).json.entries;
    expect(entries.find((e: { path: string }) => e.path === path)).toMatchObject({ status: "reaped", reason: "pid_dead_and_merged" });
    expect(entries.find((e: { path: string }) => e.path === keep)).toMatchObject({ status: "skipped", reason: "pid_alive" });
    expect(existsSync(path)).toBe(false);
    expect(existsSync(keep)).toBe(true);
  });

  it("--pid of a zombie is refused like the pid of no process (exit 2): a lease starts live", async () => {
    const zombie = await zombieToBe();
    stops.push(zombie.stop);
    await zombie.kill();
    const r = s.orchard(["add", "feat-a", "--owner", "agent-1", "--pid", String(zombie.pid), "--no-bootstrap"]);
    expect(r.code, r.stdout).toBe(2);
    expect(r.json.error.code).toBe("invalid_argument");
  });
});
