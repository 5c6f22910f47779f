// Claude Code's `worktree.symlinkDirectories` honoured by the WorktreeCreate hook (issue 22 item 3)
// through the bootstrap's `link` step, driven as Claude Code drives the hook (JSON on stdin, the
// real CLI; test/claude-code/ runs the real binary): the primary's directory is shared through a
// link that no removal, reap, salvage, cleanup or disk measure ever follows — the file behind it
// survives every one of them — and a name that could lead out of the primary is refused loudly.
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { spawnSync } from "node:child_process";
import { existsSync, lstatSync, mkdirSync, readFileSync, readlinkSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { CLI, Scenario, git } from "../helpers/scenario.js";
import { hermeticEnv } from "../helpers/env.js";

let s: Scenario;
let env: Record<string, string>;
const BEHIND = "module.exports = 1;\n";

beforeEach(() => {
  s = Scenario.create();
  // Claude Code's user settings: none (a private config dir); the project's ask for the link
  env = { CLAUDE_CONFIG_DIR: join(s.root, "claude-config") };
  writeFileSync(join(s.primary, ".gitignore"), "node_modules\ncache\n");
  mkdirSync(join(s.primary, "node_modules", "pkg"), { recursive: true });
  writeFileSync(join(s.primary, "node_modules", "pkg", "index.js"), BEHIND);
  writeFileSync(join(s.primary, "node_modules", "pkg", "big.bin"), Buffer.alloc(2 * 1024 * 1024, 7));
  settings({ symlinkDirectories: ["node_modules"] });
});
afterEach(() => s.cleanup());

function settings(worktree: Record<string, unknown>): void {
  mkdirSync(join(s.primary, ".claude"), { recursive: true });
  writeFileSync(join(s.primary, ".claude", "settings.json"), JSON.stringify({ worktree }));
  git(s.primary, "add", "-A");
  git(s.primary, "commit", "-q", "-m", "settings");
  git(s.primary, "push", "-q", "origin", "main");
}

/**
 * The hook run by a short-lived host process (as Claude Code that has since exited): the lease
 * names that host, dead once this returns, so the worktree is an orphan for the sweep.
 */
function createOrphan(name: string, args: string[] = [], extra: Record<string, string> = {}): { code: number | null; stdout: string; stderr: string } {
  const payload = JSON.stringify({ session_id: "s-1", transcript_path: "", cwd: s.primary, hook_event_name: "WorktreeCreate", name });
  const host = "import subprocess, sys; sys.exit(subprocess.run(sys.argv[1:]).returncode)";
  const r = spawnSync("python3", ["-c", host, process.execPath, CLI, "--home", s.home, "claude-code", "worktree-create", ...args], {
    cwd: s.primary,
    env: hermeticEnv({ ...env, ...extra }),
    input: payload,
    encoding: "utf8",
  });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

function linkedWorktree(): string {
  const r = createOrphan("f1");
  expect(r.code, r.stderr).toBe(0);
  const path = r.stdout.trim();
  expect(readlinkSync(join(path, "node_modules"))).toBe(join(s.primary, "node_modules"));
  expect(readFileSync(join(path, "node_modules", "pkg", "index.js"), "utf8")).toBe(BEHIND);
  return path;
}

function primaryIntact(): void {
  expect(lstatSync(join(s.primary, "node_modules")).isDirectory()).toBe(true);
  expect(readFileSync(join(s.primary, "node_modules", "pkg", "index.js"), "utf8")).toBe(BEHIND);
  expect(lstatSync(join(s.primary, "node_modules", "pkg", "big.bin")).size).toBe(2 * 1024 * 1024);
}

describe("a linked directory is never followed", () => {
  it("the worktree is clean to Orchard; reap-orphans removes it and the files behind the link survive", () => {
    const path = linkedWorktree();
    const status = s.orchard(["status", path], { env }).json;
    expect(status.worktree.dirty).toMatchObject({ tracked: 0, untracked: 0, ignored: { count: 0 } });
    const reaped = s.orchard(["reap-orphans", "--guard", "0s"], { env });
    expect(reaped.json.entries).toEqual([expect.objectContaining({ path, status: "reaped" })]);
    expect(existsSync(path)).toBe(false);
    primaryIntact();
  });

  it("reap --salvage of a dirty worktree saves its work, not the link's content, and the files behind it survive", () => {
    const path = linkedWorktree();
    writeFileSync(join(path, "work.txt"), "precious\n");
    const reaped = s.orchard(["reap-orphans", "--guard", "0s", "--salvage"], { env });
    const [entry] = reaped.json.entries;
    expect(entry).toMatchObject({ path, status: "reaped", salvageRef: expect.stringMatching(/^refs\/orchard\/salvage\//) });
    const files = git(s.primary, "ls-tree", "-r", "--name-only", entry.salvageRef).split("\n");
    expect(files).toContain("work.txt");
    expect(files.filter((f) => f.startsWith("node_modules/"))).toEqual([]);
    primaryIntact();
  });

  it("cleanup run removes a released one; the files behind the link survive", () => {
    const path = linkedWorktree();
    expect(s.orchard(["release", path, "--owner", "claude-code:s-1"], { env }).code).toBe(0);
    const run = s.orchard(["cleanup", "run"], { env });
    expect(run.code, run.stderr).toBe(0);
    expect(existsSync(path)).toBe(false);
    primaryIntact();
  });

  it("hygiene --disk does not count the primary's directory again in the worktree", () => {
    const path = linkedWorktree();
    const report = s.orchard(["hygiene", "--disk"], { env }).json;
    const w = report.worktrees.find((x: any) => x.path === path);
    expect(w.disk.apparentBytes).toEqual(expect.any(Number));
    expect(w.disk.apparentBytes).toBeLessThan(1024 * 1024);
    expect(report.summary.disk.apparentBytes).toBeLessThan(1024 * 1024);
  });
});

describe("a link git sees as untracked (a `node_modules/` ignore rule matches directories only)", () => {
  it("is not work: with harness bookkeeping beside it, the worktree is reaped with the file saved", () => {
    writeFileSync(join(s.primary, ".gitignore"), "node_modules/\ncache\n");
    settings({ symlinkDirectories: ["node_modules"] });
    const path = linkedWorktree();
    expect(git(path, "status", "--porcelain")).toBe("?? node_modules");
    mkdirSync(join(path, ".claude"), { recursive: true });
    writeFileSync(join(path, ".claude", "settings.local.json"), "{}\n");
    const reaped = s.orchard(["reap-orphans", "--guard", "0s"], { env });
    expect(reaped.json.entries).toEqual([
      expect.objectContaining({ path, status: "reaped", detail: expect.stringContaining("harness_bookkeeping: .claude/settings.local.json") }),
    ]);
    primaryIntact();
  });
});

describe("names and targets that cannot be honoured are refused loudly", () => {
  it("`..`, an absolute path: the hook fails naming the setting, nothing is created", () => {
    for (const [name, why] of [
      ["../outside", "climbs out of the repository"],
      ["/etc", "is an absolute path"],
    ] as const) {
      settings({ symlinkDirectories: [name] });
      const r = createOrphan("f1");
      expect(r.code).toBe(1);
      expect(r.stdout).toBe("");
      expect(r.stderr).toContain(`worktree.symlinkDirectories entry ${JSON.stringify(name)} ${why}`);
      expect(s.orchard(["list"], { env }).json.worktrees.filter((w: any) => w.managed)).toEqual([]);
    }
  });

  it("a target that is a link out of the primary: the hook fails, and never links it", () => {
    const outside = join(s.root, "outside");
    mkdirSync(outside);
    writeFileSync(join(outside, "secret"), "x\n");
    settings({ symlinkDirectories: ["cache"] });
    symlinkSync(outside, join(s.primary, "cache")); // ignored, untracked: the primary's own
    const r = createOrphan("f1");
    expect(r.code).toBe(1);
    expect(r.stdout).toBe("");
    expect(r.stderr).toContain("is not a real directory of the primary");
    const path = join(s.home, "worktrees", "app@worktree-f1");
    expect(lstatSync(join(path, "cache"), { throwIfNoEntry: false })).toBeUndefined();
  });

  it("a name the primary does not have is skipped, as Claude Code does", () => {
    settings({ symlinkDirectories: ["node_modules", ".cache"] });
    const r = createOrphan("f1");
    expect(r.code, r.stderr).toBe(0);
    expect(lstatSync(join(r.stdout.trim(), ".cache"), { throwIfNoEntry: false })).toBeUndefined();
  });
});

describe("worktree.sparsePaths: the sparse set is part of the bootstrap fingerprint", () => {
  beforeEach(() => {
    for (const dir of ["packages/app", "packages/lib"]) {
      mkdirSync(join(s.primary, dir), { recursive: true });
      writeFileSync(join(s.primary, dir, "index.js"), `// ${dir}\n`);
    }
    writeFileSync(join(s.primary, ".gitignore"), "node_modules\ncache\n.claude/settings.local.json\n");
    settings({ symlinkDirectories: ["node_modules"] }); // commits the packages
  });
  const reuse = (name: string) => createOrphan(name, ["--policy", "reuse-compatible"], { ORCHARD_TASK: "T-1" });
  /** The sparse set in .claude/settings.local.json (over the project's file): not committed, so the base stays where it is. */
  const sparse = (paths: string[]) => writeFileSync(join(s.primary, ".claude", "settings.local.json"), JSON.stringify({ worktree: { sparsePaths: paths } }));

  it("a finished session's sparse worktree is never reused for another set, and is for the same one", () => {
    sparse(["packages/app"]);
    const first = reuse("f1");
    expect(first.code, first.stderr).toBe(0);
    sparse(["packages/lib"]);
    const other = reuse("f2");
    expect(other.code, other.stderr).toBe(0);
    const path = other.stdout.trim();
    expect(path).not.toBe(first.stdout.trim());
    expect(existsSync(join(path, "packages", "lib", "index.js"))).toBe(true);
    expect(existsSync(join(path, "packages", "app"))).toBe(false);
    const same = reuse("f3");
    expect(same.code, same.stderr).toBe(0);
    expect(same.stdout).toBe(other.stdout); // the same set: that worktree, reused
  });

  it("salvage of a dirty sparse worktree keeps the directories it did not check out", () => {
    sparse(["packages/app"]);
    const r = createOrphan("f1");
    expect(r.code, r.stderr).toBe(0);
    const path = r.stdout.trim();
    expect(existsSync(join(path, "packages", "lib"))).toBe(false);
    writeFileSync(join(path, "packages", "app", "work.js"), "// precious\n");
    const reaped = s.orchard(["reap-orphans", "--guard", "0s", "--salvage"], { env });
    const [entry] = reaped.json.entries;
    expect(entry).toMatchObject({ path, status: "reaped" });
    const files = git(s.primary, "ls-tree", "-r", "--name-only", entry.salvageRef).split("\n");
    expect(files).toEqual(expect.arrayContaining(["packages/app/work.js", "packages/app/index.js", "packages/lib/index.js"]));
  });
});
