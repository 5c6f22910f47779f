// A hostile repository (SPEC §4.10, §6 v2): tracked symlinks at the names Orchard writes, a
// worktree swapped for a symlink into the primary, config files that are devices, FIFOs or
// symlinks out of the repository, catastrophic patterns. Real git, real CLI.
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { chmodSync, cpSync, existsSync, utimesSync, mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { execFileSync, spawn } from "node:child_process";
import { createHash } from "node:crypto";
import { hostname } from "node:os";
import { CLI, Scenario, deadPid, git, waitFor } from "../helpers/scenario.js";
import { hermeticEnv } from "../helpers/env.js";
import { readStartTime } from "../../src/core/ownership/process.js";
import Database from "better-sqlite3";

let s: Scenario;
beforeEach(() => {
  s = Scenario.create();
});
afterEach(() => s.cleanup());

/** A file outside every worktree that a hostile repository points its symlinks at. */
function victim(): string {
  const path = join(s.root, "victim-bashrc");
  writeFileSync(path, "# the user's own file\n");
  return path;
}

describe("temporary files are never written through a symlink (§4.10)", () => {
  it("context injection: a tracked `<target>.orchard-tmp` symlink out of the worktree is not written through", () => {
    const outside = victim();
    mkdirSync(join(s.primary, "docs"));
    writeFileSync(join(s.primary, "docs", "agent.md"), "task={{task}}\n");
    writeFileSync(join(s.primary, ".orchard.json"), JSON.stringify({ context: { files: { "AGENTS.local.md": "docs/agent.md" } } }));
    symlinkSync(outside, join(s.primary, "AGENTS.local.md.orchard-tmp"));
    s.git("add", "-A");
    s.git("commit", "-q", "-m", "hostile symlink");
    const r = s.orchard(["add", "feat-a", "--task", "T-1"]);
    expect(r.json.ok).toBe(true);
    expect(readFileSync(outside, "utf8")).toBe("# the user's own file\n");
    expect(readFileSync(join(r.json.path, "AGENTS.local.md"), "utf8")).toBe("task=T-1\n");
    expect(git(r.json.path, "status", "--porcelain")).toBe("");
  });

  it("hygiene --html: a symlink at `<file>.orchard-tmp` is not written through", () => {
    const outside = victim();
    const page = join(s.root, "report.html");
    symlinkSync(outside, `${page}.orchard-tmp`);
    const r = s.orchard(["hygiene", "--html", page]);
    expect(r.json.ok).toBe(true);
    expect(readFileSync(outside, "utf8")).toBe("# the user's own file\n");
    expect(readFileSync(page, "utf8")).toContain("<html");
  });
});

describe("recycle re-checks that it acts on a linked worktree (§4.10)", () => {
  it("a worktree directory swapped for a symlink into the primary is refused; the primary is untouched", () => {
    const added = s.orchard(["add", "feat-a", "--owner", "a1"]).json;
    s.commit({ in: added.path, message: "work" });
    s.push("feat-a", added.path);
    expect(s.orchard(["release", added.handle, "--owner", "a1"]).json.ok).toBe(true);
    writeFileSync(join(s.primary, "local.log"), "ignored, exists only here\n"); // *.log is ignored
    rmSync(added.path, { recursive: true, force: true });
    symlinkSync(s.primary, added.path);
    const r = s.orchard(["recycle", added.handle, "--branch", "feat-b"]);
    expect(r.code).toBe(3);
    expect(r.json.reasons.map((x: { code: string }) => x.code)).toContain("not_a_linked_worktree");
    expect(git(s.primary, "rev-parse", "--abbrev-ref", "HEAD")).toBe("main");
    expect(readFileSync(join(s.primary, "local.log"), "utf8")).toBe("ignored, exists only here\n");
    expect(git(s.primary, "branch", "--list", "feat-b")).toBe("");
    expect(existsSync(join(s.home, "worktrees", "app@feat-b"))).toBe(false);
  });
});

describe("configuration files are regular files inside the repository, at most 1 MiB (§6 v2)", () => {
  const invalidConfig = (name: string, args: string[] = ["list"]) => {
    const r = s.orchard(args);
    expect(r.code).toBe(2);
    expect(r.json.error.code).toBe("invalid_config");
    expect(r.json.error.message).toContain(name);
    return r;
  };

  it(".orchard.json as a symlink to /dev/zero, a FIFO, or too large: exit 2 naming the file, no hang", () => {
    const file = join(s.primary, ".orchard.json");
    symlinkSync("/dev/zero", file);
    invalidConfig(".orchard.json");
    // reap-orphans reaps nothing and says why, exit 0 (SPEC v3 §2): a hostile config must not fail a session start
    expect(s.orchard(["reap-orphans"]).json).toMatchObject({ ok: false, reaped: 0, error: { code: "invalid_config" } });
    rmSync(file);
    execFileSync("mkfifo", [file]);
    invalidConfig(".orchard.json");
    rmSync(file);
    writeFileSync(file, `{"defaultBranch": "main"}${" ".repeat(1024 * 1024)}`);
    expect(invalidConfig(".orchard.json").json.error.message).toContain("1 MiB");
  });

  it("a symlink out of the repository is refused without echoing what it points at", () => {
    const secret = join(s.root, "secret");
    writeFileSync(secret, "root:x:0:0:secret-content\n");
    symlinkSync(secret, join(s.primary, ".orchard.json"));
    const r = invalidConfig(".orchard.json");
    expect(r.stdout + r.stderr).not.toContain("secret-content");
    expect(r.stdout + r.stderr).not.toContain("root:x");
  });

  it("invalid JSON inside the repository is reported without quoting it", () => {
    writeFileSync(join(s.primary, ".orchard.json"), "root:x:0:0:secret-content");
    const r = invalidConfig(".orchard.json");
    expect(r.stdout + r.stderr).not.toContain("root:x");
  });

  it(".worktreeinclude as a symlink to /dev/zero or a FIFO: exit 2 naming the file, no hang", () => {
    const file = join(s.primary, ".worktreeinclude");
    symlinkSync("/dev/zero", file);
    invalidConfig(".worktreeinclude");
    rmSync(file);
    execFileSync("mkfifo", [file]);
    invalidConfig(".worktreeinclude", ["add", "feat-a"]);
    expect(existsSync(join(s.home, "worktrees", "app@feat-a"))).toBe(false);
  });

  it("a symlink to a regular file inside the repository is read", () => {
    writeFileSync(join(s.primary, "orchard.config.json"), JSON.stringify({ defaultBranch: "main" }));
    symlinkSync("orchard.config.json", join(s.primary, ".orchard.json"));
    expect(s.orchard(["list"]).code).toBe(0);
  });

  it("a catastrophically backtracking wave.branchPattern is bounded: exit 2, the manifest untouched", () => {
    writeFileSync(join(s.primary, ".orchard.json"), JSON.stringify({ wave: { branchPattern: "^(a+)+$" } }));
    const path = s.worktree("a".repeat(40) + "b");
    const manifest = join(s.root, "wave.json");
    writeFileSync(manifest, JSON.stringify([{ worktree_path: path, branch: "a".repeat(40) + "b", expected_base: git(s.primary, "rev-parse", "main") }]));
    const r = s.orchard(["cleanup-wave", "--manifest", manifest]);
    expect(r.code).toBe(2);
    expect(r.json.error.code).toBe("invalid_config");
    expect(r.json.error.message).toContain("wave.branchPattern");
    expect(existsSync(path)).toBe(true);
  });
});

describe("repository hooks never run inside Orchard's git calls (§4.1 v2)", () => {
  it("a post-checkout and a reference-transaction hook do not run on add, release or recycle", () => {
    const marker = join(s.root, "hook-ran");
    for (const hook of ["post-checkout", "reference-transaction", "pre-merge-commit"]) {
      const file = join(s.primary, ".git", "hooks", hook);
      writeFileSync(file, `#!/bin/sh\necho ${hook} >> '${marker}'\n`);
      chmodSync(file, 0o755);
    }
    const added = s.orchard(["add", "feat-a"]);
    expect(added.json.ok).toBe(true);
    expect(s.orchard(["release", added.json.handle]).json.ok).toBe(true);
    expect(s.orchard(["recycle", added.json.handle, "--branch", "feat-b"]).json.action).toBe("recycled");
    expect(existsSync(marker)).toBe(false);
    git(s.primary, "checkout", "-q", "-b", "plain-git"); // the hooks themselves work: plain git runs them
    expect(readFileSync(marker, "utf8")).toContain("post-checkout");
  });
});

/** The CLI started with ORCHARD_TRACE=1, its stderr readable while it runs. */
function startTraced(args: string[]): { stderr: () => string; done: Promise<{ code: number; json: any }> } {
  const child = spawn(process.execPath, [CLI, "--home", s.home, "--repo", s.primary, "--json", ...args], {
    cwd: s.primary,
    env: hermeticEnv({ ORCHARD_TRACE: "1" }),
  });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (d: Buffer) => (stdout += d.toString()));
  child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
  const done = new Promise<{ code: number; json: any }>((resolve) =>
    child.on("close", (code) => resolve({ code: code ?? -1, json: JSON.parse(stdout || "{}") })),
  );
  return { stderr: () => stderr, done };
}

/** Two valid branches whose 80-character slug and 8-hex hash agree: a forced 32-bit collision. */
function collidingBranches(): [string, string] {
  const prefix = "x".repeat(80) + "/";
  const seen = new Map<string, string>();
  for (let n = 0; ; n++) {
    const branch = prefix + n.toString(36);
    const hex = createHash("sha256").update(branch).digest("hex").slice(0, 8);
    const earlier = seen.get(hex);
    if (earlier !== undefined) return [earlier, branch];
    seen.set(hex, branch);
  }
}

describe("handles and hostile arguments (§1 v2, §4.15)", () => {
  it("when the 8-hex handle is held by another branch, the later branch takes the 16-hex form", () => {
    const [a, b] = collidingBranches();
    const first = s.orchard(["add", a]);
    expect(first.json.action).toBe("created");
    expect(first.json.handle).toMatch(/^app@x{80}-[0-9a-f]{8}$/);
    const second = s.orchard(["add", b]);
    expect(second.code).toBe(0);
    expect(second.json.action).toBe("created");
    expect(second.json.handle).toMatch(/^app@x{80}-[0-9a-f]{16}$/);
    expect(second.json.handle.slice(0, -8)).toBe(first.json.handle);
    expect(git(second.json.path, "rev-parse", "--abbrev-ref", "HEAD")).toBe(b);
    expect(s.orchard(["add", a]).json).toMatchObject({ action: "adopted", handle: first.json.handle });
    expect(s.orchard(["add", b]).json).toMatchObject({ action: "adopted", handle: second.json.handle });
  });

  it("two concurrent adds of colliding branches: the handle is decided under the mutation lock, the later takes the 16-hex form", async () => {
    const [a, b] = collidingBranches();
    // another host's orchard holds the repo's mutation lock while both adds start and read their input
    const lock = join(s.primary, ".git", "orchard-mutation.lock");
    writeFileSync(lock, JSON.stringify({ pid: 1, startTime: null, host: "elsewhere", at: new Date().toISOString() }));
    const adds = [a, b].map((branch, i) => startTraced(["add", branch, "--owner", `agent-${i}`]));
    // the repo resolved (its remotes read: the last git call before admission) in both
    await waitFor(() => adds.every((p) => p.stderr().includes('"--get-regexp","^remote')), "both adds resolved the repo");
    // each checks its input and reads its handle right after (one registry read), then waits for the lock; this margin only
    // makes the race likely without the fix — with it the answer is the same whatever the timing
    await new Promise((resolve) => setTimeout(resolve, 1000));
    rmSync(lock);
    const results = await Promise.all(adds.map((p) => p.done));
    for (const r of results) expect(r.code, JSON.stringify(r.json)).toBe(0);
    const handles = results.map((r) => r.json.handle as string).sort();
    expect(handles[0]).toMatch(/^app@x{80}-[0-9a-f]{8}$/);
    expect(handles[1]).toMatch(/^app@x{80}-[0-9a-f]{16}$/);
    for (const r of results) expect(git(r.json.path, "rev-parse", "--abbrev-ref", "HEAD")).toBe(r.json.branch);
  });

  it("a branch whose ref file name exceeds 255 bytes is invalid input, not a git failure", () => {
    const r = s.orchard(["add", `feat/${"é".repeat(130)}`]);
    expect(r.code).toBe(2);
    expect(r.json.error.code).toBe("invalid_branch");
    expect(s.git("branch", "--list", "feat/*")).toBe("");
  });

  it("--ttl 0s and --ttl 5 are invalid input", () => {
    for (const ttl of ["0s", "5", "0h0m"]) {
      const r = s.orchard(["add", "feat-a", "--owner", "a1", "--ttl", ttl]);
      expect(r.code).toBe(2);
      expect(r.json.error.code).toBe("invalid_argument");
    }
    expect(existsSync(join(s.home, "worktrees", "app@feat-a"))).toBe(false);
    const added = s.orchard(["add", "feat-a", "--owner", "a1", "--ttl", "30m"]).json;
    expect(s.orchard(["heartbeat", added.handle, "--owner", "a1", "--ttl", "0s"]).code).toBe(2);
  });

  it("--home inside a worktree or a repository is invalid input", () => {
    const wt = s.worktree("feat-wt");
    for (const home of [join(wt, ".orchard-home"), join(s.primary, "nested", "home")]) {
      const r = s.orchard(["list", "--home", home]);
      expect(r.code).toBe(2);
      expect(r.json.error.code).toBe("invalid_argument");
      expect(existsSync(home)).toBe(false);
    }
  });

  it("hygiene --disk survives a 3,000-deep tree and a symlink loop", () => {
    const added = s.orchard(["add", "feat-deep"]).json;
    // deeper than PATH_MAX: built and removed by relative steps in a child process
    const deep = (script: string) => execFileSync(process.execPath, ["-e", `const fs = require("fs"); process.chdir(process.argv[1]); ${script}`, added.path]);
    deep(`for (let i = 0; i < 3000; i++) { fs.mkdirSync("d"); process.chdir("d"); } fs.writeFileSync("f", "x");`);
    symlinkSync("..", join(added.path, "loop"));
    try {
      const r = s.orchard(["hygiene", "--disk", "--disk-budget", "60s"]);
      expect(r.code).toBe(0);
      const view = r.json.worktrees.find((w: { path: string }) => w.path === added.path);
      expect(view.disk === null || typeof view.disk.bytes === "number").toBe(true);
    } finally {
      deep(`for (let i = 0; i < 3000; i++) process.chdir("d"); fs.rmSync("f"); for (let i = 0; i < 3000; i++) { process.chdir(".."); fs.rmdirSync("d"); }`);
    }
  });
});

describe("the mutation lock never wedges (§4.15)", () => {
  it("reap-orphans gives up waiting for a held lock, reports repo_busy and exits 0; nothing is removed", async () => {
    const path = s.worktree("worktree-agent-a", { lock: `claude agent agent-a (pid ${deadPid()})` });
    s.ageLock(path, 600);
    const lock = join(s.primary, ".git", "orchard-mutation.lock");
    writeFileSync(lock, JSON.stringify({ pid: process.pid, startTime: await readStartTime(process.pid), host: hostname(), at: new Date().toISOString() }));
    const r = s.orchard(["reap-orphans"]);
    expect(r.code).toBe(0);
    expect(r.json.entries).toMatchObject([{ path, status: "skipped", reason: "repo_busy" }]);
    expect(existsSync(path)).toBe(true);
    rmSync(lock);
    expect(s.orchard(["reap-orphans"]).json.entries).toMatchObject([{ path, status: "reaped" }]);
  });

  it("a lock left empty by a kill between create and write is taken over once old", () => {
    const lock = join(s.primary, ".git", "orchard-mutation.lock");
    writeFileSync(lock, "");
    const old = new Date(Date.now() - 60_000);
    utimesSync(lock, old, old);
    const r = s.orchard(["add", "feat-a"]);
    expect(r.code).toBe(0);
    expect(r.json.action).toBe("created");
    expect(existsSync(lock)).toBe(false);
  });
});

describe("identity after adopt and after origin moves (§3.11, §1)", () => {
  it("after adopt, add of the same branch answers adopted (the worktree keeps its own path)", () => {
    const path = s.worktree("feat-foreign");
    expect(s.orchard(["adopt", path, "--task", "T-1"]).json.action).toBe("adopted");
    const r = s.orchard(["add", "feat-foreign", "--task", "T-1"]);
    expect(r.code, r.stdout).toBe(0);
    expect(r.json).toMatchObject({ action: "adopted", handle: "app@feat-foreign", path });
  });

  it("a changed origin URL keeps the repo's managed worktrees managed (same common dir, new identity)", () => {
    const added = s.orchard(["add", "feat-a", "--task", "T-1"]).json;
    const moved = join(s.root, "remote", "moved.git");
    cpSync(s.origin, moved, { recursive: true });
    s.git("remote", "set-url", "origin", moved);
    const list = s.orchard(["list"]).json;
    expect(list.repo.identity).toContain("moved");
    expect(list.worktrees.find((w: { path: string }) => w.path === added.path)).toMatchObject({ managed: true, handle: added.handle, task: "t-1" });
    expect(s.orchard(["add", "feat-a", "--task", "T-1"]).json).toMatchObject({ action: "adopted", handle: added.handle });
  });

  it("repairing an interrupted add keeps a ref lock that someone else holds", () => {
    const added = s.orchard(["add", "feat-a"]).json;
    const db = new Database(join(s.home, "orchard.db"));
    db.prepare("UPDATE worktrees SET lifecycle = 'creating' WHERE handle = ?").run(added.handle);
    db.close();
    git(s.primary, "worktree", "unlock", added.path);
    git(s.primary, "worktree", "remove", "--force", added.path);
    const other = s.commit({ file: "other.txt" }); // a commit another git process is writing
    const refLock = join(s.primary, ".git", "refs", "heads", "feat-a.lock");
    writeFileSync(refLock, `${other}\n`);
    s.orchard(["add", "feat-a"]);
    expect(readFileSync(refLock, "utf8")).toBe(`${other}\n`);
  });
});
