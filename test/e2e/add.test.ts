// `orchard add`: validation, creation, exact-handle adoption and every refusal, against real git.
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { existsSync, mkdirSync, readdirSync, rmSync, statSync, writeFileSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { hermeticEnv } from "../helpers/env.js";
import { Scenario, git, deadPid } from "../helpers/scenario.js";

let s: Scenario;
beforeEach(() => {
  s = Scenario.create();
});
afterEach(() => s.cleanup());

describe("validation (exit 2, nothing changes)", () => {
  const bad = [
    "-x",
    "--force",
    "a..b",
    "has space",
    "x@{u}",
    "topic.lock",
    "@",
    "HEAD",
    "refs/heads/x",
    "a/",
    "/a",
    "a//b",
    "x~1",
    "x^",
    "x:y",
    "x?",
    "x*",
    "x[",
    "x\\y",
    "-",
  ];
  it.each(bad)("refuses the branch %j", (branch) => {
    const r = s.orchard(["add", "--", branch]);
    expect(r.code).toBe(2);
    expect(r.json.ok).toBe(false);
    expect(["invalid_branch", "usage"]).toContain(r.json.error.code);
    expect(git(s.primary, "worktree", "list").split("\n")).toHaveLength(1);
    expect(git(s.primary, "branch", "--list").split("\n")).toHaveLength(1);
  });

  it("refuses an option-looking branch given after --", () => {
    const r = s.orchard(["add", "--", "--upload-pack=evil"]);
    expect(r.code).toBe(2);
    expect(r.json.error.code).toBe("invalid_branch");
  });

  it("refuses control characters and over-long task/owner", () => {
    expect(s.orchard(["add", "feat-a", "--task", "a\u0007b"]).json.error.code).toBe("invalid_input");
    expect(s.orchard(["add", "feat-a", "--owner", "x".repeat(513)]).code).toBe(2);
    expect(s.orchard(["add", "feat-a", "--ttl", "5x"]).code).toBe(2);
    expect(s.orchard(["add", "feat-a", "--pid", "0"]).code).toBe(2);
    expect(s.orchard(["add", "feat-a", "--policy", "yolo"]).code).toBe(2);
    expect(s.orchard(["add", "feat-a", "--base", "no-such-ref"]).json.error.code).toBe("invalid_argument");
    expect(git(s.primary, "branch", "--list")).toBe("* main");
  });

  it("outside a repository is a usage error", () => {
    const outside = join(s.root, "not-a-repo");
    mkdirSync(outside);
    const r = s.orchard(["add", "feat-a", "--repo", outside]);
    expect(r.code).toBe(2);
    expect(r.json.error.code).toBe("not_a_repository");
  });

  it("a malformed .orchard.json is exit 2 naming the key", () => {
    writeFileSync(join(s.primary, ".orchard.json"), JSON.stringify({ lease: { ttl: 5 }, bogus: true }));
    const r = s.orchard(["add", "feat-a"]);
    expect(r.code).toBe(2);
    expect(r.json.error.code).toBe("invalid_config");
    expect(r.json.error.message).toMatch(/bogus/);
    expect(r.json.error.message).toMatch(/lease\.ttl/);
    writeFileSync(join(s.primary, ".orchard.json"), "{ not json");
    expect(s.orchard(["add", "feat-a"]).json.error.code).toBe("invalid_config");
  });
});

describe("creation", () => {
  it("creates a locked worktree at the deterministic handle, from the default branch", () => {
    const r = s.orchard(["add", "feature/login", "--owner", "agent-1", "--task", "https://Tracker.example.com/T/1/?x=1"]);
    expect(r.code).toBe(0);
    const j = r.json;
    expect(j).toMatchObject({ ok: true, action: "created", branch: "feature/login", task: "tracker.example.com/T/1", owner: "agent-1" });
    expect(j.handle).toMatch(/^app@feature-login-[0-9a-f]{8}$/);
    expect(j.path).toBe(join(s.home, "worktrees", j.handle));
    expect(j.base).toEqual({ ref: "refs/heads/main", commit: git(s.primary, "rev-parse", "main") });
    expect(j.head).toBe(j.base.commit);
    expect(j.lease).toMatchObject({ owner: "agent-1", pid: null });
    const porcelain = git(s.primary, "worktree", "list", "--porcelain");
    expect(porcelain).toContain(`worktree ${j.path}`);
    const lock = readFileSync(join(s.adminDir(j.path), "locked"), "utf8");
    expect(JSON.parse(lock.replace(/^orchard-lease /, ""))).toMatchObject({ handle: j.handle, owner: "agent-1" });
    expect(git(j.path, "config", "--default", "none", "--get", "branch.feature/login.remote")).toBe("none");
    const identity = JSON.parse(readFileSync(join(s.adminDir(j.path), "orchard.json"), "utf8"));
    expect(identity).toMatchObject({ handle: j.handle, task: j.task, owner: "agent-1" });
  });

  it("checks out an existing branch instead of creating it", () => {
    git(s.primary, "branch", "existing");
    const tip = s.commit({ message: "more" });
    const r = s.orchard(["add", "existing"]);
    expect(r.json.action).toBe("created");
    expect(r.json.head).not.toBe(tip);
    expect(git(r.json.path, "rev-parse", "--abbrev-ref", "HEAD")).toBe("existing");
  });

  it("handles a unicode branch and a home path with spaces", () => {
    const home = join(s.root, "my home ü");
    const r = s.orchard(["add", "fix/ünï-côde", "--home", home]);
    expect(r.code).toBe(0);
    expect(r.json.path.startsWith(join(home, "worktrees"))).toBe(true);
    expect(existsSync(r.json.path)).toBe(true);
  });

  it("--dry-run decides and changes nothing", () => {
    const r = s.orchard(["add", "feat-a", "--dry-run"]);
    expect(r.json).toMatchObject({ ok: true, action: "planned" });
    expect(existsSync(r.json.path)).toBe(false);
    expect(git(s.primary, "branch", "--list", "feat-a")).toBe("");
  });

  it("--base names the start point and is recorded as a full ref", () => {
    git(s.primary, "branch", "release");
    s.commit({ message: "main moves on" });
    const r = s.orchard(["add", "hotfix", "--base", "release"]);
    expect(r.json.base).toEqual({ ref: "refs/heads/release", commit: git(s.primary, "rev-parse", "release") });
  });
});

describe("the new worktree's index", () => {
  /** A repository whose index is large enough to be refreshed (more than 64 KiB). */
  function manyFiles(count = 1500): void {
    mkdirSync(join(s.primary, "many"));
    for (let i = 0; i < count; i++) writeFileSync(join(s.primary, "many", `file-${i}.txt`), `${i}\n`);
    git(s.primary, "add", "-A");
    git(s.primary, "commit", "-q", "-m", "many files");
  }

  /** Whole seconds of the newest checked-out file: an entry written in the index's second (or later) is racily clean. */
  const newestFile = (path: string) => Math.max(...readdirSync(join(path, "many")).map((f) => Math.floor(statSync(join(path, "many", f)).mtimeMs / 1000)));
  /** Command lines (Linux /proc) that name `path`: what could still write in it. */
  const processesNaming = (path: string): string[] =>
    readdirSync("/proc")
      .filter((p) => /^\d+$/.test(p) && Number(p) !== process.pid)
      .map((p) => {
        try {
          return readFileSync(`/proc/${p}/cmdline`, "utf8").replaceAll("\0", " ");
        } catch {
          return ""; // exited meanwhile
        }
      })
      .filter((cmd) => cmd.includes(path));
  const indexOf = (path: string) => git(path, "rev-parse", "--path-format=absolute", "--git-path", "index");

  it("is refreshed before add answers (SPEC v3 §4.10): no entry racily clean, nothing left to do after the answer", () => {
    manyFiles();
    const add = s.orchard(["add", "feat-many", "--no-bootstrap"]);
    expect(add.code, add.stderr).toBe(0);
    // at the answer already: the index is newer than every checked-out file, and no lock is held
    expect(Math.floor(statSync(indexOf(add.json.path)).mtimeMs / 1000)).toBeGreaterThan(newestFile(add.json.path));
    expect(existsSync(indexOf(add.json.path) + ".lock")).toBe(false);
    // and no process of Orchard's is left to touch it (a detached refresh named the worktree in its argv)
    if (existsSync("/proc/self/cmdline")) expect(processesNaming(add.json.path)).toEqual([]);
    expect(git(add.json.path, "status", "--porcelain")).toBe("");
    // and git trusts every entry's stat data: none smudged (a size of 0 for a non-empty file), none in the index's second
    const indexSecond = Math.floor(statSync(indexOf(add.json.path)).mtimeMs / 1000);
    const entries = git(add.json.path, "ls-files", "--debug", "--", "many").split(/\n(?=\S)/);
    expect(entries.length).toBeGreaterThan(100);
    for (const entry of entries) {
      const name = entry.split("\n")[0]!;
      const mtime = Number(/mtime: (\d+):/.exec(entry)?.[1]);
      const size = Number(/size: (\d+)/.exec(entry)?.[1]);
      expect(size, name).toBe(statSync(join(add.json.path, name)).size);
      expect(mtime, name).toBeLessThan(indexSecond);
    }
  });

  it("a file rewritten at once after add answers, at the same size, is seen as changed (its date moved back does not hide it)", () => {
    manyFiles();
    const add = s.orchard(["add", "feat-quick", "--no-bootstrap"]);
    expect(add.code, add.stderr).toBe(0);
    const file = join(add.json.path, "many", readdirSync(join(add.json.path, "many"))[0]!);
    const before = readFileSync(file);
    const after = Buffer.from(before.map((byte, i) => (i === 0 ? (byte === 0x41 ? 0x42 : 0x41) : byte)));
    writeFileSync(file, after);
    expect(after.length).toBe(before.length);
    expect(git(add.json.path, "status", "--porcelain").trim()).toBe(`M many/${file.split("/").pop()}`);
  });

  it("the caller's first git add right after the answer never meets a lock of Orchard's, four callers at once", async () => {
    manyFiles(1000);
    const run = promisify(execFile);
    const failures: string[] = [];
    // each caller: add, then at once what an agent does first — write a file and `git add` it
    const caller = async (c: number) => {
      for (let i = 0; i < 2; i++) {
        const add = await s.orchardAsync(["add", `feat/c${c}-${i}`, "--no-bootstrap"]);
        expect(add.code, add.stdout + add.stderr).toBe(0);
        writeFileSync(join(add.json.path, "agent.txt"), `caller ${c} add ${i}\n`);
        await run("git", ["add", "agent.txt"], { cwd: add.json.path, env: hermeticEnv() }).catch((error: { stderr?: string }) => {
          failures.push(`${add.json.path}: ${error.stderr ?? String(error)}`);
        });
      }
    };
    await Promise.all([0, 1, 2, 3].map(caller));
    expect(failures).toEqual([]);
  });
});

describe("exact handle", () => {
  it("repeating a request adopts the same worktree (idempotent, exit 0)", () => {
    const first = s.orchard(["add", "feat-a", "--owner", "a1", "--task", "T-1"]).json;
    const again = s.orchard(["add", "feat-a", "--owner", "a1", "--task", "t-1"]);
    expect(again.code).toBe(0);
    expect(again.json).toMatchObject({ action: "adopted", handle: first.handle, path: first.path, task: "t-1" });
    expect(git(s.primary, "worktree", "list").split("\n")).toHaveLength(2);
  });

  it("refuses another owner's live lease and lists every reason", () => {
    const first = s.orchard(["add", "feat-a", "--owner", "a1", "--task", "T-1"]).json;
    s.makeDirty(first.path, { untracked: true, tracked: true });
    const r = s.orchard(["add", "feat-a", "--owner", "a2", "--task", "T-2"]);
    expect(r.code).toBe(3);
    expect(r.json.action).toBe("refused");
    expect(r.json.reasons.map((x: { code: string }) => x.code).sort()).toEqual(["dirty", "live_owner", "task_mismatch"]);
    expect(r.json.reasons.find((x: { code: string }) => x.code === "dirty")).toMatchObject({ tracked: 1, untracked: 1 });
  });

  it("dirty blocks adoption unless --resume for the same task", () => {
    const first = s.orchard(["add", "feat-a", "--task", "T-1"]).json;
    s.makeDirty(first.path);
    expect(s.orchard(["add", "feat-a", "--task", "T-1"]).json.reasons.map((x: { code: string }) => x.code)).toEqual(["dirty"]);
    expect(s.orchard(["add", "feat-a", "--task", "T-1", "--resume"]).json.action).toBe("adopted");
    expect(
      s
        .orchard(["add", "feat-a", "--task", "T-9", "--resume"])
        .json.reasons.map((x: { code: string }) => x.code)
        .sort(),
    ).toEqual(["dirty", "task_mismatch"]);
  });

  it("an operation in progress blocks adoption", () => {
    const first = s.orchard(["add", "feat-a"]).json;
    s.commit({ in: first.path, file: "README.md", content: "theirs\n" });
    s.commit({ file: "README.md", content: "ours\n" });
    const merge = git.bind(null, first.path);
    expect(() => merge("merge", "-q", "main")).toThrow();
    const r = s.orchard(["add", "feat-a"]);
    expect(r.json.reasons.map((x: { code: string }) => x.code)).toEqual(expect.arrayContaining(["operation_in_progress", "dirty"]));
  });

  it("base_mismatch for an explicit other base; base_drift and unpushed_commits are notes", () => {
    const first = s.orchard(["add", "feat-a"]).json;
    git(s.primary, "branch", "other");
    expect(s.orchard(["add", "feat-a", "--base", "other"]).json.reasons.map((x: { code: string }) => x.code)).toEqual(["base_mismatch"]);
    s.commit({ message: "main moves" });
    s.commit({ in: first.path, message: "own work" });
    const r = s.orchard(["add", "feat-a"]);
    expect(r.json.action).toBe("adopted");
    expect(r.json.notes.map((x: { code: string }) => x.code).sort()).toEqual(["base_drift", "unpushed_commits"]);
  });

  it("branch_mismatch when someone switched the worktree's branch", () => {
    const first = s.orchard(["add", "feat-a"]).json;
    git(first.path, "switch", "-q", "-c", "elsewhere");
    expect(s.orchard(["add", "feat-a"]).json.reasons.map((x: { code: string }) => x.code)).toEqual(["branch_mismatch"]);
  });

  it("a live pid lease of another owner refuses; a dead one does not", () => {
    const dead = deadPid();
    const first = s.orchard(["add", "feat-a", "--owner", "a1", "--pid", String(process.pid), "--ttl", "1s"]).json;
    expect(first.lease.pid).toBe(process.pid);
    expect(s.orchard(["add", "feat-a", "--owner", "a2"]).json.reasons.map((x: { code: string }) => x.code)).toEqual(["live_owner"]);
    expect(s.orchard(["add", "feat-b", "--pid", String(dead)]).code).toBe(2);
  });

  it("recreates a worktree whose directory is gone (recreated_missing)", () => {
    const first = s.orchard(["add", "feat-a", "--task", "T-1"]).json;
    s.commit({ in: first.path, message: "kept on the branch" });
    const tip = git(first.path, "rev-parse", "HEAD");
    rmSync(first.path, { recursive: true, force: true });
    const r = s.orchard(["add", "feat-a", "--task", "T-1"]);
    expect(r.json).toMatchObject({ ok: true, action: "created", handle: first.handle, path: first.path, head: tip });
    expect(r.json.notes.map((x: { code: string }) => x.code)).toContain("recreated_missing");
    expect(git(s.primary, "worktree", "list").split("\n")).toHaveLength(2);
  });

  it("refuses path_occupied when the handle's directory is not a worktree", () => {
    const plan = s.orchard(["add", "feat-a", "--dry-run"]).json;
    mkdirSync(plan.path, { recursive: true });
    writeFileSync(join(plan.path, "mine.txt"), "not yours\n");
    const r = s.orchard(["add", "feat-a"]);
    expect(r.code).toBe(3);
    expect(r.json.reasons.map((x: { code: string }) => x.code)).toEqual(["path_occupied"]);
    expect(readFileSync(join(plan.path, "mine.txt"), "utf8")).toBe("not yours\n");
  });

  it("refuses branch_checked_out when another worktree has the branch", () => {
    const foreign = s.worktree("feat-a");
    const r = s.orchard(["add", "feat-a"]);
    expect(r.code).toBe(3);
    expect(r.json.reasons).toEqual([expect.objectContaining({ code: "branch_checked_out", path: foreign })]);
    expect(s.orchard(["add", "main"]).json.reasons[0]).toMatchObject({ code: "branch_checked_out", path: s.primary });
  });
});
