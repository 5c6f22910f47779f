// A process inside makes a worktree live for every command, admission included (SPEC v3 §3.1,
// §4.11; issue 21 item 1): another owner's `add` of the exact handle is refused `live_owner`, a
// candidate with a process inside is never eligible (reuse-compatible does not reuse it,
// recycle-terminal does not recycle it, exclusive-task counts it as held). The one exception: the
// same owner re-adding its own worktree, from inside it or by naming the recorded owner.
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { spawnSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { Scenario, CLI, liveProcess, waitFor } from "../helpers/scenario.js";
import { hermeticEnv } from "../helpers/env.js";
import { PROCESS_TIMEOUT_MS } from "../helpers/time.js";

let s: Scenario;
const stops: (() => void)[] = [];
beforeEach(() => {
  s = Scenario.create();
});
afterEach(() => {
  while (stops.length) stops.pop()?.();
  s.cleanup();
});

const codes = (list: { code: string }[]) => list.map((x) => x.code);

/** A worktree whose owner's lease has lapsed (no pid, TTL over), with a process working inside. */
async function lapsedWithWorker(branch: string, extra: string[] = []): Promise<{ handle: string; path: string; worker: number }> {
  const wt = s.orchard(["add", branch, "--owner", "agent-a", "--ttl", "1s", "--no-bootstrap", ...extra]).json;
  await waitFor(() => codes(s.orchard(["status", wt.handle]).json.worktree.liveness.signals).includes("lease_expired"), "the lease to lapse");
  const worker = liveProcess(wt.path);
  stops.push(worker.stop);
  await waitFor(() => s.orchard(["status", wt.handle]).json.worktree.liveness.state === "live", "the worker to be seen inside");
  return { handle: wt.handle, path: wt.path, worker: worker.pid };
}

/** The CLI run by a shell whose cwd is `cwd`: the requester itself works inside. */
function orchardFromShellIn(cwd: string, args: string[]) {
  const r = spawnSync("sh", ["-c", `"$0" "$@"; exit $?`, process.execPath, CLI, "--home", s.home, "--repo", s.primary, "--json", ...args], {
    cwd,
    env: hermeticEnv(),
    encoding: "utf8",
    timeout: PROCESS_TIMEOUT_MS,
  });
  return { code: r.status ?? -1, json: JSON.parse(r.stdout), stdout: r.stdout };
}

describe("a process inside holds the worktree against admission", () => {
  it("the exact handle: another owner is refused live_owner (hygiene agrees: live); the recorded owner re-adds", async () => {
    const wt = await lapsedWithWorker("feat-a");
    const hygiene = s.orchard(["hygiene"]).json.worktrees.find((w: { path: string }) => w.path === wt.path);
    expect(hygiene.disposition).toBe("live");
    const other = s.orchard(["add", "feat-a", "--owner", "agent-b", "--no-bootstrap"]);
    expect(other.code, other.stdout).toBe(3);
    expect(codes(other.json.reasons)).toEqual(["live_owner"]);
    expect(other.json.reasons[0].signals.find((x: { code: string }) => x.code === "process_in_worktree").pids).toEqual([wt.worker]);
    expect(s.orchard(["status", wt.handle]).json.worktree.owner).toBe("agent-a"); // the lease did not move
    const nobody = s.orchard(["add", "feat-a", "--no-bootstrap"]); // a request naming nobody is not the owner either
    expect(nobody.code, nobody.stdout).toBe(3);
    const same = s.orchard(["add", "feat-a", "--owner", "agent-a", "--no-bootstrap"]);
    expect(same.code, same.stdout).toBe(0);
    expect(same.json.action).toBe("adopted");
  });

  it("from inside its own worktree: the requester's own shell is no other holder; another worker still is", async () => {
    const wt = s.orchard(["add", "feat-a", "--no-bootstrap"]).json; // nobody named
    const alone = orchardFromShellIn(wt.path, ["add", "feat-a", "--no-bootstrap"]);
    expect(alone.code, alone.stdout).toBe(0);
    expect(alone.json.action).toBe("adopted");
    const worker = liveProcess(wt.path);
    stops.push(worker.stop);
    await waitFor(() => s.orchard(["status", wt.handle]).json.worktree.liveness.state === "live", "the worker to be seen inside");
    // the same (unnamed) owner from inside: its worker is its own
    expect(orchardFromShellIn(wt.path, ["add", "feat-a", "--no-bootstrap"]).json.action).toBe("adopted");
    // another owner from inside: the worker is not its own
    const other = orchardFromShellIn(wt.path, ["add", "feat-a", "--owner", "agent-b", "--no-bootstrap"]);
    expect(other.code, other.stdout).toBe(3);
    expect(codes(other.json.reasons)).toEqual(["live_owner"]);
    // from outside, naming nobody: refused
    expect(s.orchard(["add", "feat-a", "--no-bootstrap"]).code).toBe(3);
  });

  it("reuse-compatible does not reuse it and exclusive-task counts it as held: the candidate is not eligible", async () => {
    const wt = await lapsedWithWorker("feat-a", ["--task", "T-1"]);
    const reuse = s.orchard(["add", "feat-b", "--task", "T-1", "--owner", "agent-b", "--policy", "reuse-compatible", "--no-bootstrap", "--dry-run"]);
    expect(reuse.json.action).toBe("planned");
    const candidate = reuse.json.candidates.find((c: { handle: string }) => c.handle === wt.handle);
    expect(candidate.eligible).toBe(false);
    expect(codes(candidate.reasons)).toContain("live_owner");
    const real = s.orchard(["add", "feat-b", "--task", "T-1", "--owner", "agent-b", "--policy", "reuse-compatible", "--no-bootstrap"]);
    expect(real.json.action).toBe("created");
    expect(real.json.handle).not.toBe(wt.handle);
    const exclusive = s.orchard(["add", "feat-c", "--task", "T-1", "--owner", "agent-c", "--policy", "exclusive-task", "--no-bootstrap"]);
    expect(exclusive.code, exclusive.stdout).toBe(3);
    expect(codes(exclusive.json.reasons)).toContain("task_held_elsewhere");
  });

  it("recycle-terminal lists a released worktree with a process inside as not eligible and does not recycle it", async () => {
    const wt = await lapsedWithWorker("feat-a", ["--task", "T-1"]);
    expect(s.orchard(["release", wt.handle, "--owner", "agent-a"]).code).toBe(0);
    const r = s.orchard(["add", "feat-b", "--task", "T-1", "--owner", "agent-b", "--policy", "recycle-terminal", "--no-bootstrap"]);
    expect(r.code, r.stdout).toBe(0);
    expect(r.json.action).toBe("created");
    const candidate = r.json.candidates.find((c: { handle: string }) => c.handle === wt.handle);
    expect(candidate).toMatchObject({ lifecycle: "terminal", eligible: false });
    expect(codes(candidate.reasons)).toContain("live_owner");
  });
});

// Orchard's own git status of the worktree runs from a shell of its own beside the snapshot's
// reads (git/run.ts runBatch), so the process scan often finds that git inside the worktree. It is
// in the shell's process group and never counts (core/ownership/process.ts scanProc). A large
// checkout makes the status slow enough for the scan to land on it nearly every time.
describe("Orchard's own git inside the worktree", () => {
  it("is never a holder: a released worktree with nobody inside is dead in every status, and adopted by add", () => {
    mkdirSync(join(s.primary, "many"));
    for (let i = 0; i < 4000; i++) writeFileSync(join(s.primary, "many", `f${i}.txt`), `${i}\n`);
    s.git("add", "-A");
    s.git("commit", "-q", "-m", "many");
    const wt = s.orchard(["add", "feat-big", "--owner", "agent-a", "--no-bootstrap"]).json;
    expect(s.orchard(["release", wt.handle, "--owner", "agent-a"]).code).toBe(0);
    for (let i = 0; i < 6; i++) {
      const status = s.orchard(["status", wt.handle]).json.worktree;
      expect(codes(status.liveness.signals)).not.toContain("process_in_worktree");
      expect(status.liveness.state).not.toBe("live");
    }
    const again = s.orchard(["add", "feat-big", "--owner", "agent-b", "--no-bootstrap"]);
    expect(again.json.action, JSON.stringify(again.json)).toBe("adopted");
  });
});
