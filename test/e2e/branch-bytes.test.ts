// An existing branch whose name is not UTF-8 (issue 20 item 5, SPEC v3 §4.2): git accepts any
// bytes, and a branch made outside Orchard may hold some. Orchard reads it with its bytes (JSON
// shows each such byte as the lone surrogate U+DC00+byte, never U+FFFD) and passes it back to git
// as the same bytes, so the destructive steps act on that branch: no `git_failed`, no false
// `already_done` for a branch that is still there, nothing lost.
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { spawnSync } from "node:child_process";
import { Scenario, deadPid, git } from "../helpers/scenario.js";
import { hermeticEnv } from "../helpers/env.js";
import { expectStillReachable, reachableCommits } from "../helpers/crash.js";

let s: Scenario;
beforeEach(() => {
  s = Scenario.create();
});
afterEach(() => s.cleanup());

/** Runs a git command line in bash (`$'…'` gives raw bytes), in `cwd`. */
function bashGit(cwd: string, command: string): void {
  const r = spawnSync("bash", ["-c", command], { cwd, env: hermeticEnv(), encoding: "utf8" });
  expect(r.status, r.stderr).toBe(0);
}

/** The repo's branch names as raw bytes (hex). */
function branchBytes(): string[] {
  const r = spawnSync("git", ["for-each-ref", "--format=%(refname)", "refs/heads/"], { cwd: s.primary, env: hermeticEnv() });
  return (r.stdout as Buffer)
    .toString("hex")
    .split("0a")
    .filter(Boolean)
    .map((hex) => Buffer.from(hex, "hex").toString("latin1"));
}

describe("a branch named with bytes that are not UTF-8", () => {
  it("hygiene, cleanup and reap-orphans act on the branch itself: its bytes kept, no git_failed, nothing lost", () => {
    const before = reachableCommits(s);
    const added = s.orchard(["add", "feat-x", "--no-bootstrap"]);
    expect(added.code, added.stderr).toBe(0);
    bashGit(added.json.path, "git branch -m $'x\\xff'"); // renamed inside the managed worktree
    expect(s.orchard(["release", added.json.handle, "--outcome", "done"]).code).toBe(0);
    // a Claude Code agent's worktree on another such branch, its agent dead, the lock old
    bashGit(s.primary, `git worktree add -q -b $'y\\xfe' "${s.root}/agent-y" main`);
    git(s.primary, "worktree", "lock", "--reason", `claude agent agent-y (pid ${deadPid()})`, `${s.root}/agent-y`);
    s.ageLock(`${s.root}/agent-y`, 3600);
    expect(branchBytes()).toEqual(["refs/heads/main", "refs/heads/x\xff", "refs/heads/y\xfe"]);

    const h = s.orchard(["hygiene"]);
    expect(h.code, h.stderr).toBe(0);
    const managed = h.json.worktrees.find((w: { handle: string | null }) => w.handle === added.json.handle);
    expect(managed).toMatchObject({ branch: "x\udcff", disposition: "reclaimable" });
    const agent = h.json.worktrees.find((w: { path: string }) => w.path === `${s.root}/agent-y`);
    expect(agent).toMatchObject({ branch: "y\udcfe", disposition: "reapable" });

    const reaped = s.orchard(["reap-orphans"]);
    expect(reaped.code, reaped.stdout + reaped.stderr).toBe(0);
    expect(reaped.json.entries).toEqual([expect.objectContaining({ branch: "y\udcfe", status: "reaped", reason: "pid_dead_and_merged" })]);

    const run = s.orchard(["cleanup", "run"]);
    expect(run.code, run.stdout + run.stderr).toBe(0);
    expect(
      run.json.items.map((i: { action: string; state: string; reasons: { code: string }[] }) => [i.action, i.state, i.reasons.map((r) => r.code)]),
    ).toEqual([
      ["remove", "done", []],
      ["delete_branch", "done", []], // deleted, not "already_done" while it is still there
    ]);
    // the merged branch of the managed worktree is gone; the agent's (reap never deletes a branch) is kept with its bytes
    expect(branchBytes()).toEqual(["refs/heads/main", "refs/heads/y\xfe"]);
    expectStillReachable(s, before);
  });
});
