// A crash at every step of a recycle (issue 13.7, SPEC §3.4, §4.10): the journal in the worktree's
// admin dir lets the next command that touches either handle undo a recycle that died before its
// registry transaction — no `orchard adopt` needed — and a recycle that died after it only re-runs
// its bootstrap. Plain git confirms nothing was lost.
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { existsSync, mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { basename, join } from "node:path";
import { Scenario, git } from "../helpers/scenario.js";
import { expectStillReachable, killedAt, reachableCommits } from "../helpers/crash.js";

let s: Scenario;
beforeEach(() => {
  s = Scenario.create();
});
afterEach(() => s.cleanup());

/** A worktree whose work is finished: committed, pushed, released, with bootstrap leftovers. */
function finished(branch: string): { handle: string; path: string; head: string } {
  const added = s.orchard(["add", branch, "--task", "T-1", "--owner", "a1"]).json;
  const head = s.commit({ in: added.path, message: `work on ${branch}` });
  s.push(branch, added.path);
  mkdirSync(join(added.path, "node_modules"));
  writeFileSync(join(added.path, "node_modules", "leftover.js"), "disposable\n");
  expect(s.orchard(["release", added.handle, "--owner", "a1"]).json.ok).toBe(true);
  return { handle: added.handle, path: added.path, head };
}

const newPath = () => join(s.home, "worktrees", "app@feat-b");
const journal = (path: string) => join(s.adminDir(path), "orchard-recycle.json");
/** Where a journal is named for the commands that look for one (core/recycle/journal.ts). */
const markers = () => join(s.primary, ".git", "orchard-recycles");
const RECYCLE = (handle: string) => ["recycle", handle, "--branch", "feat-b", "--task", "T-2", "--owner", "a2"];
const BEFORE_RECORD = ["recycle.locked", "recycle.switched", "recycle.cleaned", "recycle.moved"];

/** The old worktree as it was before the recycle: its path, branch, identity, no lock, terminal. */
function expectUndone(old: { handle: string; path: string; head: string }): void {
  expect(existsSync(old.path)).toBe(true);
  expect(existsSync(journal(old.path))).toBe(false);
  expect(git(old.path, "rev-parse", "--abbrev-ref", "HEAD")).toBe("feat-a");
  expect(git(old.path, "rev-parse", "HEAD")).toBe(old.head);
  expect(existsSync(join(s.adminDir(old.path), "locked"))).toBe(false);
  expect(JSON.parse(readFileSync(join(s.adminDir(old.path), "orchard.json"), "utf8")).handle).toBe(old.handle);
  expect(git(old.path, "status", "--porcelain")).toBe("");
  expect(s.orchard(["status", old.handle]).json.worktree).toMatchObject({ lifecycle: "terminal", branch: "feat-a" });
}

describe("killed mid-recycle, before its registry transaction", () => {
  it.each(BEFORE_RECORD)("%s: the retried recycle undoes it and recycles", (point) => {
    const old = finished("feat-a");
    const before = reachableCommits(s);
    killedAt(s, point, RECYCLE(old.handle));
    const where = point === "recycle.moved" ? newPath() : old.path;
    expect(existsSync(journal(where))).toBe(true);
    expect(readdirSync(markers())).toEqual([basename(s.adminDir(where))]);
    const r = s.orchard(RECYCLE(old.handle));
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(r.json).toMatchObject({ action: "recycled", handle: "app@feat-b", path: newPath(), lineage: { from: { handle: old.handle, head: old.head } } });
    expect(r.json.notes.map((n: { code: string }) => n.code)).toContain("recycle_undone");
    expect(existsSync(old.path)).toBe(false);
    expect(existsSync(journal(newPath()))).toBe(false);
    expect(readdirSync(markers())).toEqual([]);
    expect(git(newPath(), "rev-parse", "--abbrev-ref", "HEAD")).toBe("feat-b");
    expect(git(newPath(), "status", "--porcelain")).toBe("");
    expect(s.orchard(["lineage", "app@feat-b"]).json.events.map((e: { kind: string }) => e.kind)).toEqual(["created", "released", "recycled"]);
    expect(git(s.primary, "rev-parse", "feat-a")).toBe(old.head);
    expectStillReachable(s, before);
  });

  it.each(BEFORE_RECORD)("%s: an add of the new branch undoes it and creates; the old worktree is back", (point) => {
    const old = finished("feat-a");
    const before = reachableCommits(s);
    killedAt(s, point, RECYCLE(old.handle));
    const r = s.orchard(["add", "feat-b", "--task", "T-2", "--owner", "a2"]);
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(r.json).toMatchObject({ action: "created", handle: "app@feat-b", path: newPath() });
    expect(r.json.notes.map((n: { code: string }) => n.code)).toContain("recycle_undone");
    expectUndone(old);
    expectStillReachable(s, before);
  });

  it("a journal with no marker (left by an Orchard before markers): the next add reads every admin dir once, undoes it, keeps markers after", () => {
    const old = finished("feat-a");
    killedAt(s, "recycle.switched", RECYCLE(old.handle));
    rmSync(markers(), { recursive: true });
    const r = s.orchard(["add", "feat-b", "--task", "T-2", "--owner", "a2"]);
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(r.json.notes.map((n: { code: string }) => n.code)).toContain("recycle_undone");
    expectUndone(old);
    expect(readdirSync(markers())).toEqual([]);
  });

  it("recycle.cleaned: an add of the OLD branch undoes it and re-runs the bootstrap the clean removed", () => {
    const old = finished("feat-a");
    killedAt(s, "recycle.cleaned", RECYCLE(old.handle));
    const r = s.orchard(["add", "feat-a", "--task", "T-1", "--owner", "a1"]);
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(r.json).toMatchObject({ action: "adopted", handle: old.handle, path: old.path, bootstrap: { status: "ran" } });
    expect(git(s.primary, "branch", "--list", "feat-b")).toBe(""); // made by the recycle at the base, deleted by its undo
  });

  it("a recycle a git step fails is undone at once and leaves no journal", () => {
    const old = finished("feat-a");
    git(s.primary, "branch", "feat-b/x", "main"); // `feat-b` cannot be created next to `feat-b/x`
    const r = s.orchard(RECYCLE(old.handle));
    expect(r.code).toBe(1);
    expect(r.json.error).toMatchObject({ code: "recycle_failed", message: expect.stringContaining("(undone)") });
    expectUndone(old);
  });
});

describe("killed after the registry transaction", () => {
  it("recycle.recorded: the next add of the new handle adopts it and runs its bootstrap", () => {
    const old = finished("feat-a");
    killedAt(s, "recycle.recorded", RECYCLE(old.handle));
    expect(s.orchard(["status", "app@feat-b"]).json.worktree).toMatchObject({ lifecycle: "active", fingerprints: { bootstrap: null } });
    const r = s.orchard(["add", "feat-b", "--task", "T-2", "--owner", "a2"]);
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(r.json).toMatchObject({ action: "adopted", handle: "app@feat-b", path: newPath(), bootstrap: { status: "ran" } });
    expect(r.json.bootstrap.fingerprint).toMatch(/^[0-9a-f]{64}$/);
    expect(existsSync(old.path)).toBe(false);
  });
});
