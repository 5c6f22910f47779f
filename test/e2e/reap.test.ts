import { hostname } from "node:os";
// `orchard reap-orphans` (SPEC §3.8): every skip reason next to the reap it guards, against real
// git worktrees locked the way Claude Code, Orchard and plain pid-writers lock them.
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { existsSync, readFileSync, rmSync, writeFileSync, mkdirSync } from "node:fs";
import { spawnSync } from "node:child_process";
import { join } from "node:path";
import { Scenario, git, gitResult, deadPid, liveProcess, waitFor, type CliResult } from "../helpers/scenario.js";

let s: Scenario;
const stops: (() => void)[] = [];
beforeEach(() => {
  s = Scenario.create();
});
afterEach(() => {
  while (stops.length) stops.pop()?.();
  s.cleanup();
});

/** A foreign worktree on a new branch, locked with `lock`, the lock aged past the default guard. */
function orphan(branch: string, lock: string, options: { age?: number; commit?: boolean } = {}): string {
  const path = s.worktree(branch, { lock });
  if (options.commit) s.commit({ in: path, file: `${branch}.txt` });
  s.ageLock(path, options.age ?? 600);
  return path;
}

function reap(args: string[] = [], options: { cwd?: string } = {}) {
  const r = s.orchard(["reap-orphans", ...args], options);
  expect(r.code, r.stderr).toBe(0);
  return r;
}

type Entry = Record<string, unknown> & { status: string; reason: string };
const entryFor = (r: CliResult, path: string): Entry => r.json.entries.find((e: { path: string }) => e.path === path);
const listed = (path: string) => git(s.primary, "worktree", "list", "--porcelain").includes(`worktree ${path}\n`);

describe("reaps what crashed sessions left", () => {
  it("Claude Code agent locks (with and without start), the old session text and bare pids, dead, merged and clean, are reaped", () => {
    const agent = orphan("worktree-agent-a", `claude agent agent-a (pid ${deadPid()})`);
    const started = orphan("worktree-agent-s", `claude agent agent-s (pid ${deadPid()} start 8812345)`);
    const session = orphan("worktree-agent-b", `claude session nightly run (pid ${deadPid()} start 1767225600)`);
    const digits = orphan("worktree-agent-c", String(deadPid()));
    const r = reap();
    expect(r.json).toMatchObject({ ok: true, reaped: 4, skipped: 0 });
    expect(entryFor(r, started)).toMatchObject({ status: "reaped", owner: { kind: "claude-code", name: "agent-s", startTime: "8812345" } });
    expect(entryFor(r, agent)).toMatchObject({
      status: "reaped",
      reason: "pid_dead_and_merged",
      branch: "worktree-agent-a",
      owner: { kind: "claude-code", name: "agent-a" },
    });
    expect(entryFor(r, session)).toMatchObject({ status: "reaped", owner: { kind: "claude-code", name: "nightly run", startTime: "1767225600" } });
    expect(entryFor(r, digits)).toMatchObject({ status: "reaped", owner: { kind: "pid" } });
    for (const p of [agent, started, session, digits]) {
      expect(existsSync(p)).toBe(false);
      expect(listed(p)).toBe(false);
    }
    // branches are never deleted by the sweep
    expect(git(s.primary, "branch", "--list", "worktree-agent-*").split("\n")).toHaveLength(4);
    // idempotent: a second sweep finds nothing
    expect(reap().json).toEqual({ ok: true, reaped: 0, skipped: 0, live: 0, entries: [] });
  });

  it("a pid now used by another process (start time differs) counts as dead", () => {
    const live = liveProcess();
    stops.push(live.stop);
    const path = orphan("worktree-agent-a", `claude agent agent-a (pid ${live.pid} start 1)`);
    expect(entryFor(reap(), path)).toMatchObject({ status: "reaped", reason: "pid_dead_and_merged" });
  });

  it.runIf(process.platform === "linux")("Claude Code's real lock of a running agent (pid N start <its ticks since boot>) is pid_alive", async () => {
    const live = liveProcess();
    stops.push(live.stop);
    await waitFor(() => existsSync(`/proc/${live.pid}/stat`));
    const stat = readFileSync(`/proc/${live.pid}/stat`, "utf8");
    const ticks = stat.slice(stat.lastIndexOf(")") + 2).split(" ")[19];
    const path = orphan("worktree-agent-a", `claude agent agent-a (pid ${live.pid} start ${ticks})`);
    expect(entryFor(reap(), path)).toMatchObject({ status: "skipped", reason: "pid_alive", owner: { startTime: ticks } });
    expect(existsSync(path)).toBe(true);
  });

  it("a missing directory is clean: reaped as pid_dead_and_missing", () => {
    const path = orphan("worktree-agent-a", `claude agent a (pid ${deadPid()})`);
    rmSync(path, { recursive: true, force: true });
    expect(entryFor(reap(), path)).toMatchObject({ status: "reaped", reason: "pid_dead_and_missing" });
    expect(listed(path)).toBe(false);
  });

  it("an Orchard lease whose heartbeat expired is reaped as lease_dead_and_merged; its row becomes removed", async () => {
    const add = s.orchard(["add", "feat-a", "--owner", "agent-1", "--ttl", "1ms", "--no-bootstrap"]);
    expect(add.code, add.stderr).toBe(0);
    s.ageLock(add.json.path, 600);
    const r = reap();
    expect(entryFor(r, add.json.path)).toMatchObject({ status: "reaped", reason: "lease_dead_and_merged", owner: { kind: "orchard", name: "agent-1" } });
    const db = await openRegistry();
    try {
      const events = await db.events.for({ handle: add.json.handle });
      expect(events.map((e) => e.kind)).toEqual(["created", "reaped"]);
      expect(await db.worktrees.byHandle(add.json.handle)).toBeUndefined(); // lifecycle removed: no longer current
    } finally {
      await db.close();
    }
  });
});

describe("salvaging a managed worktree", () => {
  it("records a `salvaged` lineage event and names the ref after the handle", async () => {
    const add = s.orchard(["add", "feat-b", "--owner", "agent-2", "--ttl", "1ms", "--no-bootstrap"]);
    s.makeDirty(add.json.path);
    s.ageLock(add.json.path, 600);
    const e = entryFor(reap(["--salvage"]), add.json.path);
    expect(e).toMatchObject({ status: "reaped", reason: "lease_dead_and_merged" });
    expect(e.salvageRef).toMatch(new RegExp(`^refs/orchard/salvage/${add.json.handle}/`));
    const db = await openRegistry();
    try {
      const events = await db.events.for({ handle: add.json.handle });
      expect(events.map((x) => x.kind)).toEqual(["created", "salvaged", "reaped"]);
      expect(events[1]?.data).toMatchObject({ ref: e.salvageRef, reason: "reap-orphans" });
    } finally {
      await db.close();
    }
  });
});

async function openRegistry() {
  const { Registry } = await import("../../src/registry/index.js");
  return Registry.open({ home: s.home, host: hostname() });
}

describe("skips, each with its reason, and touches nothing", () => {
  it("lock_too_fresh under the guard; reaped once the lock is older", () => {
    const path = orphan("worktree-agent-a", `claude agent a (pid ${deadPid()})`, { age: 10 });
    const r = reap();
    expect(entryFor(r, path)).toMatchObject({ status: "skipped", reason: "lock_too_fresh" });
    expect(r.stderr).toContain("orchard: 1 orphan(s) skipped");
    expect(entryFor(reap(["--guard", "5s"]), path)).toMatchObject({ status: "reaped" });
  });

  it("the guard comes from config reap.guard", () => {
    writeFileSync(join(s.primary, ".orchard.json"), JSON.stringify({ reap: { guard: "1h" } }));
    const path = orphan("worktree-agent-a", `claude agent a (pid ${deadPid()})`, { age: 600 });
    expect(entryFor(reap(), path)).toMatchObject({ reason: "lock_too_fresh" });
  });

  it("lock_owner_unknown: free text, an empty reason, a pid out of range", () => {
    const text = orphan("worktree-agent-a", "gsd executor 7 is working here");
    const empty = s.worktree("worktree-agent-b");
    git(s.primary, "worktree", "lock", empty);
    s.ageLock(empty, 600);
    const huge = orphan("worktree-agent-c", "claude agent x (pid 99999999999)");
    const zero = orphan("worktree-agent-d", "0");
    const r = reap();
    for (const p of [text, empty, huge, zero]) {
      expect(entryFor(r, p)).toMatchObject({ status: "skipped", reason: "lock_owner_unknown" });
      expect(listed(p)).toBe(true);
    }
    expect(r.stderr).toContain("orchard: 4 orphan(s) skipped");
  });

  it("no_owner: an Orchard lock without a lease is for cleanup, not the sweep", () => {
    const add = s.orchard(["add", "feat-a", "--no-bootstrap"]);
    s.ageLock(add.json.path, 600);
    expect(entryFor(reap(), add.json.path)).toMatchObject({ status: "skipped", reason: "no_owner" });
    expect(existsSync(add.json.path)).toBe(true);
  });

  it("pid_alive for a live owner (Claude Code and digits-only)", () => {
    const live = liveProcess();
    stops.push(live.stop);
    const a = orphan("worktree-agent-a", `claude agent a (pid ${live.pid})`);
    const b = orphan("worktree-agent-b", String(live.pid));
    const r = reap();
    expect(entryFor(r, a)).toMatchObject({ status: "skipped", reason: "pid_alive" });
    expect(entryFor(r, b)).toMatchObject({ status: "skipped", reason: "pid_alive" });
  });

  it("lease_live for an Orchard lease within its TTL", () => {
    const add = s.orchard(["add", "feat-a", "--owner", "agent-1", "--no-bootstrap"]);
    s.ageLock(add.json.path, 600);
    expect(entryFor(reap(), add.json.path)).toMatchObject({ status: "skipped", reason: "lease_live" });
  });

  it("process_in_worktree when a process works inside, whatever the lock says", () => {
    const path = orphan("worktree-agent-a", `claude agent a (pid ${deadPid()})`);
    const inside = liveProcess(path);
    stops.push(inside.stop);
    expect(entryFor(reap(), path)).toMatchObject({ status: "skipped", reason: "process_in_worktree" });
    expect(existsSync(path)).toBe(true);
  });

  it("cannot_resolve_branch_tip for an unborn branch", () => {
    const path = orphan("worktree-agent-a", `claude agent a (pid ${deadPid()})`);
    git(path, "checkout", "-q", "--orphan", "worktree-agent-unborn");
    s.ageLock(path, 600);
    expect(entryFor(reap(), path)).toMatchObject({ status: "skipped", reason: "cannot_resolve_branch_tip" });
  });

  it("branch_not_merged; --merged equivalent accepts a cherry-picked branch, ancestor does not", () => {
    const path = orphan("worktree-agent-a", `claude agent a (pid ${deadPid()})`, { commit: true });
    expect(entryFor(reap(), path)).toMatchObject({ status: "skipped", reason: "branch_not_merged" });
    s.commit({ file: "main-moved.txt" }); // else the pick would recreate the very same commit
    git(s.primary, "cherry-pick", "worktree-agent-a");
    expect(entryFor(reap(), path)).toMatchObject({ status: "skipped", reason: "branch_not_merged" });
    expect(entryFor(reap(["--merged", "equivalent"]), path)).toMatchObject({ status: "reaped", reason: "pid_dead_and_merged" });
  });

  it("a branch merged into origin's default branch (not the local one) counts as merged", () => {
    const path = orphan("worktree-agent-a", `claude agent a (pid ${deadPid()})`, { commit: true });
    git(path, "push", "-q", "origin", "HEAD:main");
    git(s.primary, "fetch", "-q", "origin");
    expect(entryFor(reap(), path)).toMatchObject({ status: "reaped" });
  });

  it("worktree_dirty (untracked or tracked); --salvage saves the state to a ref first, the index untouched", () => {
    const untracked = orphan("worktree-agent-a", `claude agent a (pid ${deadPid()})`);
    const tracked = orphan("worktree-agent-b", `claude agent b (pid ${deadPid()})`);
    s.makeDirty(untracked, { untracked: true });
    s.makeDirty(tracked, { tracked: true });
    const first = reap();
    expect(entryFor(first, untracked)).toMatchObject({ status: "skipped", reason: "worktree_dirty" });
    expect(entryFor(first, tracked)).toMatchObject({ status: "skipped", reason: "worktree_dirty" });
    expect(readFileSync(join(untracked, "untracked-work.txt"), "utf8")).toBe("precious\n");

    const r = reap(["--salvage"]);
    const a = entryFor(r, untracked);
    expect(a).toMatchObject({ status: "reaped", reason: "pid_dead_and_merged" });
    expect(a.salvageRef).toMatch(/^refs\/orchard\/salvage\/worktree-agent-a\/\d{8}T\d{6}Z$/);
    expect(git(s.primary, "show", `${a.salvageRef as string}:untracked-work.txt`)).toBe("precious");
    const b = entryFor(r, tracked);
    expect(git(s.primary, "show", `${b.salvageRef as string}:README.md`)).toBe("# changed");
    expect(existsSync(untracked)).toBe(false);
    const list = s.orchard(["salvage", "list"]).json;
    expect(list.salvages.map((x: { ref: string }) => x.ref).sort()).toEqual([a.salvageRef, b.salvageRef].sort());
  });

  it("--dry-run decides and changes nothing", () => {
    const path = orphan("worktree-agent-a", `claude agent a (pid ${deadPid()})`);
    s.makeDirty(path);
    const r = reap(["--dry-run", "--salvage"]);
    expect(r.json).toMatchObject({ ok: true, dryRun: true, planned: 1, reaped: 0 });
    expect(entryFor(r, path)).toMatchObject({ status: "planned", reason: "pid_dead_and_merged" });
    expect(listed(path)).toBe(true);
    expect(git(s.primary, "for-each-ref", "refs/orchard")).toBe("");
  });

  it("remove_failed when the directory can be neither moved into the trash nor deleted; the entry is skipped", (ctx) => {
    const path = orphan("worktree-agent-a", `claude agent a (pid ${deadPid()})`);
    const undo = makeUndeletable(path);
    if (!undo) return ctx.skip("this machine cannot make a directory undeletable (no chattr, not root)");
    try {
      const r = reap();
      expect(entryFor(r, path)).toMatchObject({ status: "skipped", reason: "remove_failed" });
      expect(r.json.reaped).toBe(0);
    } finally {
      undo();
    }
  });
});

/** A worktree that can be neither moved into the trash nor deleted in place: the directory itself
 * immutable for root (chattr +i), else its parent read-only. */
function makeUndeletable(dir: string): (() => void) | null {
  if (process.getuid?.() === 0) {
    const r = spawnSync("chattr", ["+i", dir]);
    if (r.status !== 0) return null;
    return () => void spawnSync("chattr", ["-i", dir]);
  }
  const parent = join(dir, "..");
  spawnSync("chmod", ["555", parent]);
  return () => void spawnSync("chmod", ["755", parent]);
}

describe("the default branch and where the sweep runs", () => {
  it("uses repo-local init.defaultBranch without a remote, never the primary's current branch", () => {
    s.cleanup();
    s = Scenario.create({ noRemote: true });
    git(s.primary, "branch", "trunk", "main");
    git(s.primary, "config", "init.defaultBranch", "trunk");
    git(s.primary, "switch", "-q", "-c", "other");
    const intoTrunk = orphan("worktree-agent-a", `claude agent a (pid ${deadPid()})`, { commit: true });
    const intoOther = orphan("worktree-agent-b", `claude agent b (pid ${deadPid()})`, { commit: true });
    git(s.primary, "merge", "-q", "--no-edit", "worktree-agent-b"); // merged into the current branch only
    git(s.primary, "update-ref", "refs/heads/trunk", git(s.primary, "rev-parse", "worktree-agent-a"));
    const r = reap();
    expect(entryFor(r, intoTrunk)).toMatchObject({ status: "reaped" });
    expect(entryFor(r, intoOther)).toMatchObject({ status: "skipped", reason: "branch_not_merged" });
  });

  it("works from inside a linked worktree", () => {
    const here = s.worktree("worktree-agent-here");
    const path = orphan("worktree-agent-a", `claude agent a (pid ${deadPid()})`);
    const r = reap(["--repo", here], { cwd: here });
    expect(entryFor(r, path)).toMatchObject({ status: "reaped" });
    expect(r.json.entries).toHaveLength(1); // the unlocked worktree it ran from is not considered
  });

  it("a remote without origin/HEAD: default_branch_unknown, nothing touched", () => {
    git(s.primary, "remote", "set-head", "origin", "-d");
    const path = orphan("worktree-agent-a", `claude agent a (pid ${deadPid()})`);
    const r = reap();
    expect(r.json).toMatchObject({ ok: false, reason: "default_branch_unknown", reaped: 0, entries: [] });
    expect(listed(path)).toBe(true);
  });
});

describe("concurrency", () => {
  it("two sweeps at once reap each orphan exactly once", async () => {
    const paths = [1, 2, 3, 4].map((n) => orphan(`worktree-agent-${n}`, `claude agent a${n} (pid ${deadPid()})`));
    const [a, b] = await Promise.all([s.orchardAsync(["reap-orphans"]), s.orchardAsync(["reap-orphans"])]);
    expect([a?.code, b?.code]).toEqual([0, 0]);
    expect((a?.json.reaped ?? 0) + (b?.json.reaped ?? 0)).toBe(4);
    for (const p of paths) expect(listed(p)).toBe(false);
  });
});

describe("exit codes", () => {
  it("usage errors exit 2", () => {
    expect(s.orchard(["reap-orphans", "--guard", "5x"]).code).toBe(2);
    expect(s.orchard(["reap-orphans", "--merged", "maybe"]).code).toBe(2);
  });

  it("an internal failure exits 0 with {ok:false, error} and a line on stderr", () => {
    mkdirSync(s.home, { recursive: true });
    writeFileSync(join(s.home, "orchard.db"), "this is not a database ".repeat(200));
    const r = s.orchard(["reap-orphans"]);
    expect(r.code).toBe(0);
    expect(r.json.ok).toBe(false);
    expect(r.json.error.code).toBeTruthy();
    expect(r.stderr).toMatch(/^orchard: reap-orphans failed: /m);
  });

  it("outside a repository: exit 0 with {ok:false, error: not_a_repository} (a session may start anywhere)", () => {
    const outside = join(s.root, "not-a-repo");
    mkdirSync(outside);
    const r = s.orchard(["reap-orphans", "--repo", outside], { cwd: outside });
    expect(r.code, r.stderr).toBe(0);
    expect(r.json).toEqual({ ok: false, error: { code: "not_a_repository", message: expect.any(String) } });
    const human = s.orchard(["reap-orphans", "--repo", outside], { cwd: outside, json: false });
    expect(human.code).toBe(0);
    expect(human.stdout).toBe("");
    expect(human.stderr).toMatch(/^orchard: reap-orphans: nothing to sweep, .*not inside a git repository/m);
    // other commands keep treating it as invalid input
    expect(s.orchard(["list", "--repo", outside]).code).toBe(2);
  });

  it("a plain git worktree prune is never run: unlocked prunable entries stay", () => {
    const gone = s.worktree("worktree-agent-gone");
    rmSync(gone, { recursive: true, force: true });
    reap();
    expect(gitResult(s.primary, "worktree", "list", "--porcelain").stdout).toContain(`worktree ${gone}\n`);
  });
});
