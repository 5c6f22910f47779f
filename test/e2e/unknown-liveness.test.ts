// SPEC §4.14 and §4.10: unknown is not safe. A process scan that could not inspect every process
// makes "no process inside" unknown (cleanup and reap-orphans keep the worktree); an Orchard lock
// whose registry row is gone is read as a lease, never as "nobody".
// The unreadable process is faked with ORCHARD_TEST_PROC_ROOT (test-only: a directory laid out like
// /proc): the tests run as root, and no process is unreadable to root in a test.
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { existsSync, mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { Scenario, deadPid, liveProcess, type CliResult } from "../helpers/scenario.js";

let s: Scenario;
beforeEach(() => {
  s = Scenario.create();
});
afterEach(() => s.cleanup());

function ok(r: CliResult, code = 0): CliResult {
  expect(r.code, r.stdout + r.stderr).toBe(code);
  return r;
}

/** A fake /proc: one process whose cwd is readable ("/"), and optionally one whose cwd is not. */
function fakeProc(unreadable: boolean): Record<string, string> {
  const root = join(s.root, unreadable ? "fake-proc-unreadable" : "fake-proc");
  mkdirSync(join(root, "4243"), { recursive: true });
  symlinkSync("/", join(root, "4243", "cwd"));
  if (unreadable) {
    mkdirSync(join(root, "4242"), { recursive: true });
    writeFileSync(join(root, "4242", "cwd"), ""); // readlink fails, and not because the process exited
  }
  return { ORCHARD_TEST_PROC_ROOT: root };
}

function releasedWorktree(branch: string): { handle: string; path: string } {
  const add = ok(s.orchard(["add", branch, "--owner", "agent-1", "--no-bootstrap"])).json as { handle: string; path: string };
  ok(s.orchard(["release", add.handle, "--owner", "agent-1"]));
  return add;
}

const rowOf = (r: CliResult, path: string) => r.json.worktrees.find((w: { path: string }) => w.path === path);

describe("an incomplete process scan", () => {
  it("makes a released merged worktree unknown (processes_unknown); cleanup run keeps it", () => {
    const w = releasedWorktree("feat-done");
    const env = fakeProc(true);
    const row = rowOf(ok(s.orchard(["hygiene"], { env })), w.path);
    expect(row.disposition).toBe("unknown");
    expect(JSON.stringify(row.reasons)).toContain("processes_unknown");
    ok(s.orchard(["cleanup", "run"], { env }));
    expect(existsSync(w.path)).toBe(true);
  });

  it("control: the same fake scan without the unreadable process lets cleanup run remove it", () => {
    const w = releasedWorktree("feat-done");
    ok(s.orchard(["cleanup", "run"], { env: fakeProc(false) }));
    expect(existsSync(w.path)).toBe(false);
  });

  it("reap-orphans skips a dead agent's merged worktree (liveness_unknown)", () => {
    const path = s.worktree("worktree-agent-a", { lock: `claude agent a (pid ${deadPid()})` });
    s.ageLock(path, 600);
    const r = ok(s.orchard(["reap-orphans"], { env: fakeProc(true) }));
    expect(r.json.entries.find((e: { path: string }) => e.path === path)).toMatchObject({ status: "skipped", reason: "liveness_unknown" });
    expect(existsSync(path)).toBe(true);
    const control = ok(s.orchard(["reap-orphans"], { env: fakeProc(false) }));
    expect(control.json.entries.find((e: { path: string }) => e.path === path)).toMatchObject({ status: "reaped" });
  });
});

describe("an Orchard lock without a registry row", () => {
  const lease = (fields: Record<string, unknown>) => `orchard-lease ${JSON.stringify({ handle: "feat-x-0badc0de", ...fields })}`;

  it("naming an owner but no pid is not reclaimable: liveness unknown (lease_unknown)", () => {
    const path = s.worktree("feat-x", { lock: lease({ owner: "agent-9" }) });
    const row = rowOf(ok(s.orchard(["hygiene"])), path);
    expect(row.disposition).toBe("unknown");
    expect(JSON.stringify(row.reasons)).toContain("lease_unknown");
  });

  it("naming a live pid is live", () => {
    const p = liveProcess();
    try {
      const path = s.worktree("feat-y", { lock: lease({ owner: "agent-9", pid: p.pid }) });
      expect(rowOf(ok(s.orchard(["hygiene"])), path).disposition).toBe("live");
    } finally {
      p.stop();
    }
  });

  it("control: the same worktree without the lock is reclaimable", () => {
    const path = s.worktree("feat-z");
    expect(rowOf(ok(s.orchard(["hygiene"])), path).disposition).toBe("reclaimable");
  });
});
