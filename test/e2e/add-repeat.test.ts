// An exact repeat of `orchard add` (the same branch, or the same task, by the same owner, its worktree
// still there) answers from that one worktree (SPEC v5 §3, everyday verbs cost one worktree): git's
// entry for it is told from its admin files and its status (core/facts/focused-entry.ts), the fleet is
// not listed, and the number of git processes it runs does not grow with the fleet. Counts, never times.
// Where the worktree is not registered as git lists it, the listing is read and decides, as before.
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { mkdirSync, rmSync } from "node:fs";
import { join } from "node:path";
import { Scenario, git } from "../helpers/scenario.js";

let s: Scenario;
beforeEach(() => {
  s = Scenario.create();
});
afterEach(() => s.cleanup());

const LISTING = '"worktree","list"';
const gitsOf = (stderr: string): string[] => stderr.split("\n").filter((l) => l.startsWith("[orchard trace] git "));

const add = (...args: string[]): { handle: string; path: string } => {
  const r = s.orchard(["add", ...args]);
  expect(r.code, r.stdout + r.stderr).toBe(0);
  return r.json;
};

/** The fleet grows to `n` worktrees besides `keep`: managed ones (every third released) and plain git worktrees (every other one). */
function growFleet(from: number, to: number): string[] {
  const paths: string[] = [];
  for (let i = from; i < to; i++) {
    if (i % 2 === 1) {
      paths.push(s.worktree(`plain-${i}`));
      continue;
    }
    const w = add(`fleet-${i}`, "--owner", `agent-${i}`, "--task", `T-${i}`, "--no-bootstrap");
    if (i % 3 === 0) expect(s.orchard(["release", w.handle, "--owner", `agent-${i}`]).code).toBe(0);
    paths.push(w.path);
  }
  return paths;
}

/** The repeat, traced: its answer and the git processes it ran. */
function repeat(args: string[], cwd?: string): { json: any; gits: string[] } {
  const r = s.orchard(["add", ...args], { env: { ORCHARD_TRACE: "1" }, ...(cwd ? { cwd } : {}) });
  expect(r.code, r.stdout + r.stderr).toBe(0);
  return { json: r.json, gits: gitsOf(r.stderr) };
}

describe("an exact repeat of add", () => {
  it("runs as many git processes at 12 worktrees as at 3, lists none and reads no other worktree", () => {
    const byBranch = add("feat-repeat", "--owner", "agent");
    const byTask = add("--task", "T-77", "--owner", "agent");
    const few = growFleet(0, 1); // 3 worktrees

    const branch3 = repeat(["feat-repeat", "--owner", "agent"]);
    const task3 = repeat(["--task", "T-77", "--owner", "agent"]);
    expect(branch3.json).toMatchObject({ ok: true, action: "adopted", handle: byBranch.handle, path: byBranch.path });
    expect(task3.json).toMatchObject({ ok: true, action: "adopted", handle: byTask.handle, path: byTask.path });

    const many = growFleet(1, 10); // 12 worktrees
    expect(git(s.primary, "worktree", "list", "--porcelain").match(/^worktree /gm)).toHaveLength(13);
    const branch12 = repeat(["feat-repeat", "--owner", "agent"]);
    const task12 = repeat(["--task", "T-77", "--owner", "agent"]);
    expect(branch12.json).toMatchObject({ ok: true, action: "adopted", handle: byBranch.handle, bootstrap: { status: "reused" } });
    expect(task12.json).toMatchObject({ ok: true, action: "adopted", handle: byTask.handle, bootstrap: { status: "reused" } });

    // distinct commands, without the config vetting: it runs once per change of the config files (kept by their
    // identity once 2 s old, git/warm/proof-cache.ts), and an early query runs again when it has not answered in
    // time: the clock and the load, not the fleet
    const counted = (gits: string[]): number => new Set(gits.filter((l) => !l.includes('"--show-origin"')).map((l) => l.replace(/ -> .*$/, ""))).size;
    expect(counted(branch12.gits), branch12.gits.join("\n")).toBe(counted(branch3.gits));
    expect(counted(task12.gits), task12.gits.join("\n")).toBe(counted(task3.gits));
    for (const run of [branch3, task3, branch12, task12]) {
      expect(run.gits.filter((l) => l.includes(LISTING))).toEqual([]);
      for (const other of [...few, ...many]) expect(run.gits.filter((l) => l.includes(other))).toEqual([]);
    }
  });

  it("from a subdirectory of the primary and from another worktree, answers the same worktree", () => {
    const first = add("feat-sub", "--owner", "agent");
    const [other] = growFleet(0, 1);
    const sub = join(s.primary, "deep", "er");
    mkdirSync(sub, { recursive: true });
    const fromSub = s.orchard(["add", "feat-sub", "--owner", "agent", "--repo", sub], { cwd: sub });
    expect(fromSub.json, fromSub.stderr).toMatchObject({ ok: true, action: "adopted", handle: first.handle, path: first.path });
    const fromOther = s.orchard(["add", "feat-sub", "--owner", "agent", "--repo", other!], { cwd: other! });
    expect(fromOther.json, fromOther.stderr).toMatchObject({ ok: true, action: "adopted", handle: first.handle, path: first.path });
  });

  it("lists the worktrees where its own is not registered as git lists it, and answers as the listing says", () => {
    const first = add("feat-gone", "--owner", "agent");
    growFleet(0, 2);
    rmSync(s.adminDir(first.path), { recursive: true, force: true }); // git no longer lists the directory
    const r = s.orchard(["add", "feat-gone", "--owner", "agent"], { env: { ORCHARD_TRACE: "1" } });
    expect(r.code, r.stdout + r.stderr).toBe(3);
    expect(r.json.reasons.map((x: { code: string }) => x.code)).toEqual(["path_occupied"]);
    expect(gitsOf(r.stderr).filter((l) => l.includes(LISTING))).toHaveLength(1);
  });

  it("a new worktree still sees the fleet: a branch checked out elsewhere is refused", () => {
    growFleet(0, 2);
    s.worktree("taken-here");
    const r = s.orchard(["add", "taken-here", "--owner", "agent"]);
    expect(r.code, r.stdout + r.stderr).toBe(3);
    expect(r.json.reasons.map((x: { code: string }) => x.code)).toEqual(["branch_checked_out"]);
  });
});
