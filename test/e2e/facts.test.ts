// `status` and `list`: the Facts of SPEC §3.3 established from real repositories.
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { spawn } from "node:child_process";
import { hostname } from "node:os";
import { CLI, Scenario, git, gitResult, deadPid, liveProcess, waitFor } from "../helpers/scenario.js";
import { hermeticEnv } from "../helpers/env.js";
import { readStartTime } from "../../src/core/ownership/process.js";

let s: Scenario;
beforeEach(() => {
  s = Scenario.create();
});
afterEach(() => s.cleanup());

const status = (target: string) => s.orchard(["status", target]).json.worktree;

describe("foreign worktrees and lock owners", () => {
  it("lists foreign worktrees as managed: false with their lock owner parsed", () => {
    const dead = deadPid();
    const agent = s.worktree("worktree-agent-a1", { lock: `claude agent agent-a1 (pid ${dead})` });
    const session = s.worktree("worktree-agent-s1", { lock: `claude agent agent-s1 (pid ${process.pid} start 123)` });
    const digits = s.worktree("digits", { lock: String(process.pid) });
    const odd = s.worktree("odd", { lock: "held by Bob" });
    const plain = s.worktree("plain");
    const r = s.orchard(["list"]);
    expect(r.code).toBe(0);
    const byPath = new Map(r.json.worktrees.map((f: { path: string }) => [f.path, f]));
    expect(r.json.worktrees).toHaveLength(5);
    expect(byPath.get(agent)).toMatchObject({
      managed: false,
      handle: null,
      branch: "worktree-agent-a1",
      lock: { locked: true, owner: { kind: "claude-code", pid: dead } },
      liveness: { state: "dead" },
    });
    expect(byPath.get(session)).toMatchObject({ lock: { owner: { kind: "claude-code", pid: process.pid, startTime: "123" } }, liveness: { state: "dead" } });
    expect((byPath.get(session) as { liveness: { signals: { code: string }[] } }).liveness.signals.map((x) => x.code)).toContain("pid_reused");
    expect(byPath.get(digits)).toMatchObject({ lock: { owner: { kind: "pid", pid: process.pid } }, liveness: { state: "live" } });
    expect(byPath.get(odd)).toMatchObject({ lock: { owner: { kind: "unknown" } }, liveness: { state: "unknown" } });
    expect(byPath.get(plain)).toMatchObject({ lock: { locked: false, owner: null }, liveness: { state: "none" } });
    expect(r.json.repo).toMatchObject({ name: "app", primary: s.primary, defaultBranch: "main" });
  });

  it("a process working inside makes a worktree live", async () => {
    const wt = s.worktree("busy");
    const proc = liveProcess(wt);
    try {
      const f = status(wt);
      expect(f.liveness.state).toBe("live");
      expect(f.liveness.signals.map((x: { code: string }) => x.code)).toEqual(["process_in_worktree"]);
    } finally {
      proc.stop();
    }
  });

  it("list --full and hygiene see a process inside, and never their own status processes", async () => {
    const idle = [s.worktree("idle-1"), s.worktree("idle-2"), s.worktree("idle-3"), s.worktree("idle-4")];
    const busy = s.worktree("busy");
    // every status lingers inside its worktree (git runs the fsmonitor command there and then
    // scans anyway): a process scan taken while the statuses run would see them
    git(s.primary, "config", "core.fsmonitor", "sleep 0.3; exit 1");
    const proc = liveProcess(busy);
    try {
      for (const args of [["list", "--full"], ["hygiene"]]) {
        const rows = new Map((s.orchard(args).json.worktrees as { path: string; liveness: { state: string } }[]).map((w) => [w.path, w]));
        expect(rows.get(busy)?.liveness.state, args.join(" ")).toBe("live");
        for (const path of idle) expect(rows.get(path)?.liveness.state, `${args.join(" ")} ${path}`).toBe("none");
      }
    } finally {
      proc.stop();
    }
  });

  it("a managed lease with a live pid and matching start time is live; a dead pid is dead", () => {
    const live = s.orchard(["add", "feat-live", "--owner", "a", "--pid", String(process.pid), "--ttl", "1s"]).json;
    expect(status(live.handle).liveness.signals.map((x: { code: string }) => x.code)).toContain("pid_alive");
  });
});

describe("dirty, operations, upstream, unpushed", () => {
  it("counts tracked, untracked and conflicted changes and reads the operation", () => {
    const wt = s.orchard(["add", "feat-a"]).json.path;
    expect(status(wt).dirty).toEqual({ tracked: 0, untracked: 0, conflicted: 0, operation: null, ignored: { count: 0, bytes: 0, sample: [] } });
    writeFileSync(join(wt, "README.md"), "changed\n");
    writeFileSync(join(wt, "new one.txt"), "x\n");
    writeFileSync(join(wt, "ignored.log"), "a unique ignored file\n"); // counted apart (§4.7)
    mkdirSync(join(wt, "node_modules", "x"), { recursive: true });
    writeFileSync(join(wt, "node_modules", "x", "index.js"), "disposable\n");
    expect(status(wt).dirty).toEqual({ tracked: 1, untracked: 1, conflicted: 0, operation: null, ignored: { count: 1, bytes: 22, sample: ["ignored.log"] } });
    git(wt, "checkout", "--", "README.md");
    s.commit({ in: wt, file: "src/file1.txt", content: "theirs\n" });
    s.commit({ file: "src/file1.txt", content: "ours\n" });
    expect(gitResult(wt, "merge", "main").code).not.toBe(0);
    expect(status(wt).dirty).toMatchObject({ conflicted: 1, operation: "merge" });
    git(wt, "merge", "--abort");
    expect(gitResult(wt, "rebase", "main").code).not.toBe(0);
    expect(status(wt).dirty.operation).toBe("rebase");
    git(wt, "rebase", "--abort");
    git(wt, "bisect", "start");
    expect(status(wt).dirty.operation).toBe("bisect");
  });

  it("reports upstream ahead/behind and unpushed commits", () => {
    const wt = s.orchard(["add", "feat-up"]).json.path;
    s.commit({ in: wt, message: "one" });
    git(wt, "push", "-q", "-u", "origin", "feat-up");
    s.commit({ in: wt, message: "two" });
    s.commit({ in: wt, message: "three" });
    const f = status(wt);
    expect(f.upstream).toEqual({ ref: "refs/remotes/origin/feat-up", ahead: 2, behind: 0 });
    expect(f.unpushed).toBe(2);
    const listed = s.orchard(["list"]).json.worktrees[0];
    expect(listed.unpushed).toBe(2);
    expect(listed.dirty).toBeUndefined(); // costly facts only with --full
    expect(s.orchard(["list", "--full"]).json.worktrees[0].dirty).toEqual({
      tracked: 0,
      untracked: 0,
      conflicted: 0,
      operation: null,
      ignored: { count: 0, bytes: 0, sample: [] },
    });
  });

  it("a managed worktree git no longer lists still counts its branch's unpushed commits", () => {
    const wt = s.orchard(["add", "feat-gone"]).json;
    s.commit({ in: wt.path, message: "only here" });
    git(s.primary, "worktree", "unlock", wt.path);
    rmSync(wt.path, { recursive: true, force: true });
    git(s.primary, "worktree", "prune");
    expect(git(s.primary, "worktree", "list")).not.toContain(wt.path);
    const listed = s.orchard(["list"]).json.worktrees.find((f: { handle: string }) => f.handle === wt.handle);
    expect(listed).toMatchObject({ missing: true, managed: true, branch: "feat-gone", unpushed: 1 });
  });

  it("unpushed is null (unknown, never 0) without any remote", () => {
    const local = Scenario.create({ noRemote: true });
    try {
      const wt = local.orchard(["add", "feat-a"]).json.path;
      expect(local.orchard(["status", wt]).json.worktree.unpushed).toBeNull();
    } finally {
      local.cleanup();
    }
  });
});

describe("merged (SPEC §4.5)", () => {
  it("same_commit, ancestor, patch_equivalent and merge_adds_nothing", () => {
    const same = s.orchard(["add", "m-same"]).json.path;
    expect(status(same).merged).toEqual({ target: "refs/heads/main", how: "same_commit" });

    const anc = s.orchard(["add", "m-anc"]).json.path;
    s.commit({ in: anc, message: "feature" });
    git(s.primary, "merge", "-q", "--no-ff", "--no-edit", "m-anc");
    expect(status(anc).merged).toMatchObject({ how: "ancestor" });

    const pick = s.orchard(["add", "m-pick"]).json.path;
    const picked = s.commit({ in: pick, file: "picked.txt", message: "to be cherry-picked" });
    s.commit({ message: "main moves first, so the pick is a new commit" });
    git(s.primary, "cherry-pick", picked);
    expect(status(pick).merged).toMatchObject({ target: "refs/heads/main", how: "patch_equivalent" });

    const squash = s.orchard(["add", "m-squash"]).json.path;
    s.commit({ in: squash, file: "sq1.txt", message: "a" });
    s.commit({ in: squash, file: "sq1.txt", content: "second\n", message: "b" });
    git(s.primary, "merge", "-q", "--squash", "m-squash");
    git(s.primary, "commit", "-q", "-m", "squashed");
    expect(status(squash).merged).toMatchObject({ how: "merge_adds_nothing" });

    const open = s.orchard(["add", "m-open"]).json.path;
    s.commit({ in: open, message: "not merged" });
    expect(status(open).merged).toEqual({ target: "refs/heads/main", how: null });
  });
});

describe("default branch (SPEC §4.4)", () => {
  it("origin/HEAD names it even when the primary sits elsewhere", () => {
    git(s.primary, "switch", "-q", "-c", "elsewhere");
    expect(s.orchard(["list"]).json.repo.defaultBranch).toBe("main");
  });

  it("a remote without origin/HEAD leaves it unknown", () => {
    git(s.primary, "remote", "set-head", "origin", "--delete");
    expect(s.orchard(["list"]).json.repo.defaultBranch).toBeNull();
    expect(s.orchard(["add", "feat-x"]).json.error.code).toBe("default_branch_unknown");
    expect(s.orchard(["add", "feat-x", "--base", "main"]).json.action).toBe("created");
  });

  it("without a remote: repo-local init.defaultBranch, then main, then master; never the current branch", () => {
    const local = Scenario.create({ noRemote: true });
    try {
      local.git("branch", "trunk");
      local.git("switch", "-q", "-c", "current");
      expect(local.orchard(["list"]).json.repo.defaultBranch).toBe("main");
      local.git("config", "init.defaultBranch", "trunk");
      expect(local.orchard(["list"]).json.repo.defaultBranch).toBe("trunk");
      writeFileSync(join(local.primary, ".orchard.json"), JSON.stringify({ defaultBranch: "current" }));
      expect(local.orchard(["list"]).json.repo.defaultBranch).toBe("current");
    } finally {
      local.cleanup();
    }
  });
});

describe("list cost", () => {
  // the program settings' reads (`git config --show-origin`) are the repository's, proved once per change
  // and kept in the workspace (git/warm/proof-cache.ts): whether one was kept depends on the files' age, not the fleet
  const gitCalls = (stderr: string) => stderr.split("\n").filter((l) => l.startsWith("[orchard trace] git ") && !l.includes('"--show-origin"')).length;

  it("runs a fixed number of git processes whatever the number of worktrees", () => {
    for (let i = 0; i < 2; i++) s.worktree(`few-${i}`);
    const few = gitCalls(s.orchard(["list"], { env: { ORCHARD_TRACE: "1" } }).stderr);
    for (let i = 0; i < 8; i++) s.orchard(["add", `many-${i}`]);
    const many = gitCalls(s.orchard(["list"], { env: { ORCHARD_TRACE: "1" } }).stderr);
    expect(few).toBeGreaterThan(0);
    expect(many).toBe(few);
    // per-worktree status belongs to --full: git's own, or by a few shells that run it
    const full = s
      .orchard(["list", "--full"], { env: { ORCHARD_TRACE: "1" } })
      .stderr.split("\n")
      .filter((l) => /^\[orchard trace\] (git|sh) /.test(l)).length;
    expect(full).toBeGreaterThan(many);
  });
});

describe("one snapshot per command", () => {
  const calls = (stderr: string, ...args: string[]) =>
    stderr.split("\n").filter((l) => l.startsWith(`[orchard trace] git ${JSON.stringify(args).slice(0, -1)}`)).length;
  const traced = (args: string[]) => s.orchard(args, { env: { ORCHARD_TRACE: "1" } }).stderr;

  it("status, list and hygiene read the worktree list once; remotes and origin's url come from one config read", () => {
    const handle = s.orchard(["add", "feat/once"]).json.handle as string;
    for (const args of [["status", handle], ["list"], ["list", "--full"], ["hygiene"]]) {
      const stderr = traced(args);
      expect(calls(stderr, "worktree", "list"), args[0]).toBe(1);
      expect(calls(stderr, "remote"), args[0]).toBe(0);
      expect(calls(stderr, "config", "--get", "remote.origin.url"), args[0]).toBe(0);
      expect(calls(stderr, "config", "-z", "--get-regexp"), args[0]).toBe(1);
    }
  });

  it("add checks the branch name without git, lists worktrees once (under its lock) and reads the refs once", () => {
    const created = traced(["add", "feat/snap"]);
    expect(calls(created, "check-ref-format")).toBe(0);
    expect(calls(created, "worktree", "list")).toBe(1); // read under the mutation lock, taken before the repo was resolved
    expect(calls(created, "for-each-ref")).toBe(1);
    expect(calls(created, "rev-parse", "--verify")).toBe(1); // the new worktree's HEAD, once
    expect(calls(created, "symbolic-ref")).toBe(0);
    const adopted = traced(["add", "feat/snap"]);
    expect(calls(adopted, "worktree", "list")).toBe(0); // the exact handle's facts read its own entry (issue 48: no listing of the fleet)
    // no walk at all: its head is the remote ref it started from, which the unpushed proof excludes (core/facts/graphs.ts),
    // and no merge proof (the verdict does not look at it)
    expect(calls(adopted, "rev-list")).toBe(0);
    expect(s.orchard(["add", "bad..name"]).code).toBe(2);
    for (const args of [
      ["heartbeat", "feat/snap"],
      ["release", "feat/snap"],
    ])
      expect(calls(traced(args), "worktree", "list"), args[0]).toBe(1);
  });

  it("add that finds the lock held lists again once it holds it (the first listing was read without it)", async () => {
    const lock = join(s.primary, ".git", "orchard-mutation.lock");
    writeFileSync(lock, JSON.stringify({ pid: process.pid, startTime: await readStartTime(process.pid), host: hostname(), at: new Date().toISOString() }));
    let stderr = "";
    const child = spawn(process.execPath, [CLI, "--home", s.home, "--repo", s.primary, "--json", "add", "feat/busy"], {
      cwd: s.primary,
      env: hermeticEnv({ ORCHARD_TRACE: "1" }),
    });
    let stdout = "";
    child.stdout.on("data", (d: Buffer) => (stdout += d.toString()));
    child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
    const exited = new Promise<number | null>((done) => child.on("close", done));
    await waitFor(() => calls(stderr, "worktree", "list") === 1, "add has listed without the lock");
    rmSync(lock);
    expect(await exited, stderr).toBe(0);
    expect(JSON.parse(stdout)).toMatchObject({ action: "created", branch: "feat/busy" });
    expect(calls(stderr, "worktree", "list")).toBe(2); // again under the lock, before deciding
  });
});
