// `orchard cleanup plan|apply|resume|run` against real repositories: what is planned, drift between
// plan and apply, salvage before removal, one-by-one pruning, husks, and convergence to a fixed
// point (kill -9 then resume: cleanup-kill.test.ts).
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { existsSync, mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import Database from "better-sqlite3";
import { Scenario, git, gitResult, liveProcess, waitFor } from "../helpers/scenario.js";
import { pidState } from "../../src/core/ownership/process.js";
import { makeProcessEnvHermetic } from "../helpers/env.js";
import { cleanupCalls, type Item } from "../helpers/cleanup.js";

let s: Scenario;
beforeEach(() => {
  s = Scenario.create();
});
afterEach(() => s.cleanup());

const { add, cli, plan, released } = cleanupCalls(() => s);
const listed = (): string[] =>
  git(s.primary, "worktree", "list", "--porcelain")
    .split("\n")
    .filter((l) => l.startsWith("worktree "))
    .map((l) => l.slice(9));
const branchExists = (b: string): boolean => gitResult(s.primary, "rev-parse", "--verify", "--quiet", `refs/heads/${b}`).code === 0;
const lifecycleOf = (handle: string): string => {
  const db = new Database(join(s.home, "orchard.db"), { readonly: true });
  try {
    return (db.prepare("SELECT lifecycle FROM worktrees WHERE handle = ? ORDER BY id DESC LIMIT 1").get(handle) as { lifecycle: string }).lifecycle;
  } finally {
    db.close();
  }
};

describe("plan", () => {
  it("plans the default dispositions, lists everything else with its reasons, and stores the plan", () => {
    const done = released("done-1");
    const gone = add("gone-1");
    rmSync(gone.path, { recursive: true, force: true });
    const live = add("live-1", "--owner", "me");
    const wip = released("wip-1");
    s.makeDirty(wip.path);
    const foreign = s.worktree("foreign-1");
    const p = plan();
    expect(p.ok).toBe(true);
    expect(p.planId).toMatch(/^\d{8}T\d{6}Z-[0-9a-f]{8}$/);
    expect(p.digest).toMatch(/^[0-9a-f]{64}$/);
    expect(p.items.map((i: Item) => [i.action, i.handle])).toEqual([
      ["remove", done.handle],
      ["prune", gone.handle],
      ["delete_branch", done.handle],
      ["delete_branch", gone.handle],
    ]);
    expect(p.items[0].preconditions).toMatchObject({
      head: git(s.primary, "rev-parse", "main"),
      dirtyDigest: "clean",
      lifecycle: "terminal",
      lockReason: null,
    });
    const skipped = Object.fromEntries(p.skipped.map((x: { path: string; reasons: { code: string }[] }) => [x.path, x.reasons[0]?.code]));
    expect(skipped).toEqual({
      [live.path]: "live_owner",
      [wip.path]: "not_included",
      [foreign]: "not_managed",
    });
    expect(plan("--include", "needs_salvage").skipped.find((x: { path: string }) => x.path === wip.path).reasons[0].code).toBe("salvage_not_requested");
    expect(plan("--include", "needs_salvage", "--salvage").items.map((i: Item) => i.action)).toEqual(["salvage_remove"]);
    expect(plan().digest).toBe(p.digest); // same state, same plan
  });

  it("rejects bad input", () => {
    expect(s.orchard(["cleanup", "plan", "--include", "live"]).code).toBe(2);
    expect(s.orchard(["cleanup", "plan", "--older-than", "whenever"]).code).toBe(2);
    const r = s.orchard(["cleanup", "apply", "no-such-plan"]);
    expect(r.code).toBe(2);
    expect(r.json.error.code).toBe("plan_not_found");
  });
});

describe("apply", () => {
  it("removes, prunes and deletes merged branches orchard created; rows become removed; others untouched", () => {
    const done = released("done-1");
    const gone = add("gone-1");
    rmSync(gone.path, { recursive: true, force: true });
    const live = add("live-1", "--owner", "me");
    const foreign = s.worktree("foreign-1");
    git(s.primary, "pack-refs", "--all"); // packed branches: deletes rewrite packed-refs
    const p = plan();
    const r = s.orchard(["cleanup", "apply", p.planId]);
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(r.json).toMatchObject({
      ok: true,
      planId: p.planId,
      status: "completed",
      done: 4,
      skipped: 0,
      failed: 0,
      remaining: 0,
    });
    expect(listed().sort()).toEqual([s.primary, live.path, foreign].sort());
    expect(existsSync(done.path)).toBe(false);
    expect(branchExists("done-1") || branchExists("gone-1")).toBe(false);
    expect(branchExists("live-1") && branchExists("foreign-1")).toBe(true);
    expect(lifecycleOf(done.handle)).toBe("removed");
    expect(lifecycleOf(gone.handle)).toBe("removed");
    const events = s.orchard(["lineage", done.handle]).json.events.map((e: { kind: string }) => e.kind);
    expect(events).toContain("removed");
    // applying again is idempotent
    expect(s.orchard(["cleanup", "apply", p.planId]).json).toMatchObject({
      status: "completed",
      done: 4,
    });
  });

  it("re-checks preconditions at the moment of use: drift is skipped and nothing is touched", async () => {
    const dirtied = released("d-1");
    const moved = released("d-2");
    const relocked = released("d-3");
    const occupied = released("d-4");
    const keeper = released("d-5");
    const p = plan();
    s.makeDirty(dirtied.path);
    s.commit({ in: moved.path, file: "late.txt" });
    git(s.primary, "worktree", "lock", "--reason", "mine now", relocked.path);
    const inside = liveProcess(occupied.path);
    try {
      await waitFor(() => readFileSync(`/proc/${inside.pid}/cmdline`, "utf8").length > 0, "the process inside starting");
      const r = s.orchard(["cleanup", "apply", p.planId]).json;
      const by = (h: string) => r.items.find((i: Item) => i.handle === h && i.action === "remove");
      expect(by(dirtied.handle)).toMatchObject({
        state: "skipped",
        reasons: [{ code: "precondition_changed", field: "dirtyDigest" }],
      });
      expect(by(moved.handle).reasons.map((x: Item["reasons"][0]) => x.field)).toEqual(["head"]);
      expect(by(relocked.handle).reasons.map((x: Item["reasons"][0]) => x.field)).toEqual(["lockReason", "liveness"]); // an unreadable lock: unknown owner
      expect(by(occupied.handle).reasons.map((x: Item["reasons"][0]) => x.field)).toEqual(["liveness"]);
      expect(by(keeper.handle).state).toBe("done");
      for (const w of [dirtied, moved, relocked, occupied]) expect(existsSync(w.path)).toBe(true);
      expect(readFileSync(join(dirtied.path, "untracked-work.txt"), "utf8")).toBe("precious\n");
      // their branches stay: d-2 has a new commit (CAS fails), the others are still checked out
      expect(["d-1", "d-2", "d-3", "d-4"].every(branchExists)).toBe(true);
      expect(branchExists("d-5")).toBe(false);
      expect(r).toMatchObject({
        ok: true,
        status: "completed",
        done: 2,
        skipped: 8,
      });
    } finally {
      inside.stop();
    }
  });

  it("a branch that moved is not deleted (compare-and-swap)", () => {
    const w = released("cas-1");
    const p = plan();
    s.orchard(["cleanup", "apply", p.planId, "--limit", "1"]); // removes the worktree only
    const elsewhere = s.commit({ file: "main-moves.txt" }); // main moves; cas-1 still merged but not the planned sha
    git(s.primary, "branch", "-f", "cas-1", elsewhere);
    const r = s.orchard(["cleanup", "resume", p.planId]).json;
    expect(r.items.find((i: Item) => i.action === "delete_branch")).toMatchObject({
      state: "skipped",
      reasons: [{ code: "precondition_changed", field: "head" }],
    });
    expect(git(s.primary, "rev-parse", "cas-1")).toBe(elsewhere);
    expect(existsSync(w.path)).toBe(false);
  });

  it("a branch checked out elsewhere at the moment of use is not deleted, through a symbolic ref too", () => {
    released("co-1");
    released("co-2");
    const p = plan();
    expect(p.items.map((i: Item) => i.action)).toEqual(["remove", "remove", "delete_branch", "delete_branch"]);
    s.orchard(["cleanup", "apply", p.planId, "--limit", "2"]); // removes the worktrees only
    git(s.primary, "worktree", "add", "-q", join(s.root, "co-1-again"), "co-1");
    // a worktree whose HEAD names a symbolic branch: git lists it on the branch the symref leads to
    git(s.primary, "symbolic-ref", "refs/heads/co-alias", "refs/heads/co-2");
    git(s.primary, "worktree", "add", "-q", "--detach", join(s.root, "co-2-alias"));
    git(join(s.root, "co-2-alias"), "symbolic-ref", "HEAD", "refs/heads/co-alias");
    const r = s.orchard(["cleanup", "resume", p.planId]).json;
    expect(r.items.filter((i: Item) => i.action === "delete_branch")).toMatchObject([
      { state: "skipped", reasons: [{ code: "branch_checked_out" }] },
      { state: "skipped", reasons: [{ code: "branch_checked_out" }] },
    ]);
    expect(gitResult(s.primary, "rev-parse", "--verify", "refs/heads/co-1").code).toBe(0);
    expect(gitResult(s.primary, "rev-parse", "--verify", "refs/heads/co-2").code).toBe(0);
  });

  it("salvages before salvage_remove: dirty files and unpushed commits stay reachable", () => {
    const w = add("wip-1", "--owner", "agent");
    const own = s.commit({ in: w.path, file: "own-commit.txt" });
    s.makeDirty(w.path, { tracked: true, untracked: true });
    s.orchard(["release", w.handle, "--owner", "agent"]);
    const p = plan("--include", "needs_salvage", "--salvage");
    expect(p.items.map((i: Item) => i.action)).toEqual(["salvage_remove"]);
    const r = s.orchard(["cleanup", "apply", p.planId]).json;
    const [item] = r.items;
    expect(item).toMatchObject({
      state: "done",
      salvageRef: expect.stringMatching(/^refs\/orchard\/salvage\/app@wip-1\//),
    });
    expect(existsSync(w.path)).toBe(false);
    expect(git(s.primary, "show", `${item.salvageRef}:untracked-work.txt`)).toBe("precious");
    expect(git(s.primary, "show", `${item.salvageRef}:README.md`)).toBe("# changed");
    expect(git(s.primary, "rev-parse", `${item.salvageRef}^`)).toBe(own);
    expect(branchExists("wip-1")).toBe(true); // unmerged: never deleted
  });

  it("prunes missing entries one by one, never repo-wide", () => {
    const gone = [add("m-1"), add("m-2"), add("m-3")];
    const foreign = s.worktree("foreign-missing");
    for (const w of [...gone.map((g) => g.path), foreign]) rmSync(w, { recursive: true, force: true });
    const p = plan();
    // the unlocked foreign entry is pruned too (SPEC §3.7 v2), each entry on its own
    expect(p.items.filter((i: Item) => i.action === "prune")).toHaveLength(4);
    const first = s.orchard(["cleanup", "apply", p.planId, "--limit", "1"]).json;
    expect(first).toMatchObject({
      status: "needs_resume",
      done: 1,
      remaining: 6,
    });
    expect(first.notes[0].code).toBe("limit_reached");
    expect(listed()).toEqual([s.primary, ...gone.map((g) => g.path)]); // only the first item's entry went
    const rest = s.orchard(["cleanup", "resume", p.planId]).json;
    expect(rest).toMatchObject({ status: "completed", done: 7, remaining: 0 });
    expect(listed()).toEqual([s.primary]);
  });

  it("--budget 0s starts nothing and asks to resume", () => {
    released("b-1");
    const p = plan();
    const r = s.orchard(["cleanup", "apply", p.planId, "--budget", "0s"]).json;
    expect(r).toMatchObject({
      status: "needs_resume",
      done: 0,
      remaining: 2,
      notes: [{ code: "budget_exhausted" }],
    });
  });
});

describe("--all-repos", () => {
  it("plans and applies across every repo of the registry, each under its own lock", () => {
    const other = Scenario.create();
    try {
      const mine = released("here-1");
      const theirs = s.orchard(["add", "there-1", "--repo", other.primary]).json;
      expect(s.orchard(["release", theirs.handle, "--repo", other.primary]).code).toBe(0); // a fresh ownerless one would be idle
      expect(plan().items.map((i: Item) => i.handle)).toEqual([mine.handle, mine.handle]);
      const p = plan("--all-repos");
      expect(p.items.map((i: Item) => [i.action, i.handle]).sort()).toEqual(
        [
          ["remove", mine.handle],
          ["delete_branch", mine.handle],
          ["remove", theirs.handle],
          ["delete_branch", theirs.handle],
        ].sort(),
      );
      const r = cli("cleanup", "apply", p.planId);
      expect(r).toMatchObject({ status: "completed", done: 4 });
      expect(existsSync(mine.path) || existsSync(theirs.path)).toBe(false);
      expect(gitResult(other.primary, "rev-parse", "--verify", "--quiet", "refs/heads/there-1").code).toBe(1);
    } finally {
      other.cleanup();
    }
  });
});

describe("husks", () => {
  const root = () => join(s.home, "worktrees");

  it("removes empty husks; files only with --salvage (into a salvage ref); symlinks never", () => {
    mkdirSync(join(root(), "app@empty", "a", "b"), { recursive: true });
    mkdirSync(join(root(), "app@files"), { recursive: true });
    writeFileSync(join(root(), "app@files", "notes.txt"), "keep me\n");
    const outside = join(s.root, "outside");
    mkdirSync(outside);
    writeFileSync(join(outside, "precious.txt"), "not ours\n");
    symlinkSync(outside, join(root(), "app@files", "link-out")); // inside a husk: unlinked, never followed
    symlinkSync(outside, join(root(), "app@link")); // a husk that is a symlink: never touched
    const p = plan("--include", "husk");
    expect(p.items.map((i: Item) => [i.action, i.path])).toEqual([["remove", join(root(), "app@empty")]]);
    expect(cli("cleanup", "apply", p.planId)).toMatchObject({ done: 1 });
    expect(existsSync(join(root(), "app@empty"))).toBe(false);
    expect(existsSync(join(root(), "app@files", "notes.txt"))).toBe(true);
    const salvaged = plan("--include", "husk", "--salvage");
    expect(salvaged.items.map((i: Item) => i.action)).toEqual(["salvage_remove"]);
    const r = cli("cleanup", "apply", salvaged.planId);
    expect(r.items[0]).toMatchObject({
      state: "done",
      salvageRef: expect.stringMatching(/^refs\/orchard\/salvage\/app@files\//),
    });
    expect(git(s.primary, "show", `${r.items[0].salvageRef}:notes.txt`)).toBe("keep me");
    expect(existsSync(join(root(), "app@files"))).toBe(false);
    expect(readFileSync(join(outside, "precious.txt"), "utf8")).toBe("not ours\n");
    expect(existsSync(join(root(), "app@link"))).toBe(true);
  });

  it("a husk that changed after planning is skipped", () => {
    mkdirSync(join(root(), "app@late"), { recursive: true });
    const p = plan("--include", "husk");
    writeFileSync(join(root(), "app@late", "new.txt"), "arrived after the plan\n");
    const r = cli("cleanup", "apply", p.planId);
    expect(r.items[0]).toMatchObject({
      state: "skipped",
      reasons: [{ code: "precondition_changed", field: "dirtyDigest" }],
    });
    expect(existsSync(join(root(), "app@late", "new.txt"))).toBe(true);
  });
});

describe("run", () => {
  it("plans and applies until a fixed point", async () => {
    const done = [released("r-1"), released("r-2")];
    const gone = add("r-3");
    rmSync(gone.path, { recursive: true, force: true });
    const p = liveProcess();
    const dead = add("r-4", "--owner", "x", "--pid", String(p.pid), "--ttl", "1ms");
    p.stop();
    const wip = released("r-5");
    s.makeDirty(wip.path);
    mkdirSync(join(s.home, "worktrees", "app@husk"), { recursive: true });
    await waitFor(() => pidState(p.pid) === "dead", "the lease pid dying");
    const r = s.orchard(["cleanup", "run", "--include", "reclaimable,reapable,missing,husk"]);
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(r.json).toMatchObject({ ok: true, status: "completed", failed: 0 });
    expect(
      r.json.items
        .filter((i: Item) => i.state === "done")
        .map((i: Item) => i.action)
        .sort(),
    ).toEqual(["delete_branch", "delete_branch", "delete_branch", "delete_branch", "prune", "reap", "remove", "remove", "remove"].sort());
    for (const w of [...done, dead]) expect(existsSync(w.path)).toBe(false);
    expect(r.json.kept.map((k: { path: string }) => k.path)).toEqual([wip.path]);
    const second = s.orchard(["cleanup", "run", "--include", "reclaimable,reapable,missing,husk"]).json;
    expect(second).toMatchObject({ rounds: 0, done: 0 });
    const h = s.orchard(["hygiene"]).json;
    expect(h.summary.byDisposition).toMatchObject({
      reclaimable: 0,
      reapable: 0,
      missing: 0,
      husk: 0,
      needs_salvage: 1,
    });
    expect(existsSync(join(wip.path, "untracked-work.txt"))).toBe(true);
  });
});

describe("library and human output", () => {
  it("Orchard.cleanupRun reports progress per item; the human renderings print", async () => {
    makeProcessEnvHermetic();
    released("lib-1");
    released("lib-2");
    expect(s.orchard(["hygiene"], { json: false }).stdout).toMatch(/reclaimable 2/);
    expect(s.orchard(["cleanup", "plan"], { json: false }).stdout).toMatch(/^plan \S+: 4 item\(s\)/);
    const { Orchard } = await import("../../src/core/orchard.js");
    const orchard = await Orchard.open({ repo: s.primary, home: s.home });
    try {
      const seen: string[] = [];
      const r = await orchard.cleanupRun({ onProgress: (p) => seen.push(`${p.finished}/${p.total} ${p.item.action} ${p.item.state}`) });
      expect(r).toMatchObject({ ok: true, status: "completed", done: 4, rounds: 1 });
      expect(seen).toEqual(["1/4 remove done", "2/4 remove done", "3/4 delete_branch done", "4/4 delete_branch done"]);
      await expect(orchard.cleanupApply({ planId: "nope" })).rejects.toMatchObject({ code: "plan_not_found" });
      await expect(orchard.cleanupPlan({ include: ["reclaimable", "bogus"] })).rejects.toMatchObject({ code: "invalid_argument" });
    } finally {
      await orchard.close();
    }
    expect(s.orchard(["cleanup", "run"], { json: false }).stdout).toMatch(/^acting on: nothing\ncleanup completed after 0 round\(s\)/);
  });
});
