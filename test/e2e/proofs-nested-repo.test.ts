// A nested repository committed as a gitlink without `.gitmodules` (SPEC v5 §4): an agent runs
// `git init sub` (or a clone) and `git add sub`; git only warns "embedded repository". The gitlink
// is in the index, so the outer status never lists `sub/` as untracked, and `sub/.git` holds
// commits that exist nowhere else. Every destructive path keeps it and names it; a gitlink whose
// `.git` is a file (its repository lives elsewhere) has its own status read, as a submodule's.
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { Scenario, git, deadPid, type CliResult } from "../helpers/scenario.js";

let s: Scenario;
beforeEach(() => {
  s = Scenario.create();
});
afterEach(() => s.cleanup());

function ok(r: CliResult, code = 0): CliResult {
  expect(r.code, r.stdout + r.stderr).toBe(code);
  return r;
}

/** `git init sub` in `outer`, a commit of its own in it, `git add sub` and a commit in `outer`; then an uncommitted file in sub. */
function embed(outer: string, sub = "sub"): string {
  const dir = join(outer, sub);
  mkdirSync(dir, { recursive: true });
  git(dir, "init", "-q", "-b", "main");
  writeFileSync(join(dir, "lib.txt"), "the nested repository's own commit\n");
  git(dir, "add", "lib.txt");
  git(dir, "commit", "-q", "-m", "nested work");
  git(outer, "add", sub); // git warns "adding embedded git repository" and stages a gitlink
  git(outer, "commit", "-q", "-m", `embed ${sub}`);
  expect(git(outer, "ls-files", "-s", "--", sub)).toMatch(/^160000 /);
  writeFileSync(join(dir, "notes.txt"), "uncommitted work in the nested repository\n");
  return dir;
}

/** The nested repository is still there: its uncommitted file and its own commit. */
function kept(dir: string): void {
  expect(readFileSync(join(dir, "notes.txt"), "utf8")).toBe("uncommitted work in the nested repository\n");
  expect(git(dir, "log", "-1", "--format=%s")).toBe("nested work");
}

/** An Orchard worktree whose branch (with the gitlink commit) is merged into main, released. */
function mergedWithNested(branch: string, sub = "sub"): { handle: string; path: string; dir: string } {
  const w = ok(s.orchard(["add", branch, "--owner", "agent-1", "--no-bootstrap"])).json as { handle: string; path: string };
  const dir = embed(w.path, sub);
  s.mergeIntoMain(branch);
  s.push(branch, w.path);
  ok(s.orchard(["release", w.handle, "--owner", "agent-1"]));
  return { ...w, dir };
}

const hasNestedReason = (reasons: { code: string; paths?: string[] }[], path: string): boolean =>
  reasons.some((r) => (r.code === "held_by_nested" || r.code === "nested_worktree") && (r.paths ?? []).includes(path));

describe("a nested repository committed as a gitlink without .gitmodules", () => {
  it("status names it (dirty.nested); hygiene never calls the worktree reclaimable", () => {
    const w = mergedWithNested("feat-nest");
    expect(ok(s.orchard(["status", w.handle])).json.worktree.dirty.nested).toEqual(["sub"]);
    const row = ok(s.orchard(["hygiene"])).json.worktrees.find((x: { handle: string }) => x.handle === w.handle);
    expect(row.disposition).not.toBe("reclaimable");
    expect(hasNestedReason(row.reasons, "sub")).toBe(true);
  });

  it("remove refuses, naming it, also with --salvage; the nested repository and its commit stay", () => {
    const w = mergedWithNested("feat-nest");
    for (const args of [
      ["remove", w.handle],
      ["remove", w.handle, "--salvage"],
    ]) {
      const r = ok(s.orchard(args), 3);
      expect(r.json.ok).toBe(false);
      expect(hasNestedReason(r.json.reasons, "sub"), JSON.stringify(r.json.reasons)).toBe(true);
      expect(r.json.next).toBeNull(); // a nested repository is not Orchard's to remove: no `orchard remove sub`
      kept(w.dir);
    }
  });

  it("remove's next step for a nested worktree names it by its full path", () => {
    const w = ok(s.orchard(["add", "feat-outer", "--owner", "agent-1", "--no-bootstrap"])).json as { handle: string; path: string };
    ok(s.orchard(["release", w.handle, "--owner", "agent-1"]));
    const inner = join(w.path, "agents", "one");
    git(s.primary, "worktree", "add", "-q", "-b", "agent-one", inner, "main");
    const r = ok(s.orchard(["remove", w.handle]), 3);
    expect(r.json.next).toBe(`orchard remove ${inner}`);
  });

  it("cleanup run keeps it (with --salvage and every disposition included)", () => {
    const w = mergedWithNested("feat-nest");
    ok(s.orchard(["cleanup", "run"]));
    kept(w.dir);
    s.orchard(["cleanup", "run", "--include", "reclaimable,needs_salvage,idle", "--salvage"]);
    expect(existsSync(w.path)).toBe(true);
    kept(w.dir);
  });

  it("reap-orphans (the SessionStart sweep) skips a dead agent's merged worktree that holds one (nested_worktree)", () => {
    const path = s.worktree("worktree-agent-nest", { lock: `claude agent agent-nest (pid ${deadPid()})` });
    const dir = embed(path);
    s.mergeIntoMain("worktree-agent-nest");
    s.ageLock(path, 600);
    for (const args of [["reap-orphans"], ["reap-orphans", "--salvage"]]) {
      const r = ok(s.orchard(args));
      const entry = r.json.entries.find((e: { path: string }) => e.path === path);
      expect(entry).toMatchObject({ status: "skipped", reason: "nested_worktree" });
      expect(entry.detail ?? JSON.stringify(entry)).toContain("sub");
      kept(dir);
    }
  });

  it("a repository nested in a tracked directory (`git init` where tracked files are) is kept too", () => {
    const w = ok(s.orchard(["add", "feat-src", "--owner", "agent-1", "--no-bootstrap"])).json as { handle: string; path: string };
    s.commit({ in: w.path, file: "src/app.txt" });
    s.mergeIntoMain("feat-src");
    s.push("feat-src", w.path);
    ok(s.orchard(["release", w.handle, "--owner", "agent-1"]));
    const dir = join(w.path, "src");
    git(dir, "init", "-q", "-b", "main");
    git(dir, "add", "app.txt");
    git(dir, "commit", "-q", "-m", "nested work");
    writeFileSync(join(dir, "notes.txt"), "uncommitted work in the nested repository\n");
    expect(ok(s.orchard(["status", w.handle])).json.worktree.dirty.nested).toEqual(["src"]);
    const r = ok(s.orchard(["remove", w.handle]), 3);
    expect(hasNestedReason(r.json.reasons, "src"), JSON.stringify(r.json.reasons)).toBe(true);
    ok(s.orchard(["cleanup", "run", "--include", "reclaimable,needs_salvage", "--salvage"]));
    kept(dir);
  });

  it("a gitlink whose .git is a file (its repository elsewhere) has its status read: dirty is kept, clean is no work", () => {
    const w = ok(s.orchard(["add", "feat-link", "--owner", "agent-1", "--no-bootstrap"])).json as { handle: string; path: string };
    const dir = join(w.path, "lib");
    git(s.root, "clone", "-q", "--separate-git-dir", join(s.root, "lib.git"), s.origin, dir);
    expect(readFileSync(join(dir, ".git"), "utf8")).toMatch(/^gitdir: /);
    git(w.path, "add", "lib");
    git(w.path, "commit", "-q", "-m", "embed lib");
    s.mergeIntoMain("feat-link");
    s.push("feat-link", w.path);
    ok(s.orchard(["release", w.handle, "--owner", "agent-1"]));
    expect(ok(s.orchard(["status", w.handle])).json.worktree.dirty.nested ?? []).toEqual([]);
    writeFileSync(join(dir, "notes.txt"), "uncommitted work in the linked repository\n");
    expect(ok(s.orchard(["status", w.handle])).json.worktree.dirty.nested).toEqual(["lib"]);
    const r = ok(s.orchard(["remove", w.handle]), 3);
    expect(hasNestedReason(r.json.reasons, "lib"), JSON.stringify(r.json.reasons)).toBe(true);
    expect(readFileSync(join(dir, "notes.txt"), "utf8")).toBe("uncommitted work in the linked repository\n");
  });

  it("a gitlink's directory holding files without a .git (its repository moved away) is kept: the outer status never lists them", () => {
    const w = mergedWithNested("feat-bare");
    rmSync(join(w.dir, ".git"), { recursive: true, force: true });
    expect(git(w.path, "status", "--porcelain")).toBe(""); // git sees nothing there
    expect(ok(s.orchard(["status", w.handle])).json.worktree.dirty.nested).toEqual(["sub"]);
    ok(s.orchard(["remove", w.handle]), 3);
    expect(readFileSync(join(w.dir, "notes.txt"), "utf8")).toBe("uncommitted work in the nested repository\n");
  });

  it("without the nested repository the same merged worktree is removed (the control)", () => {
    const w = ok(s.orchard(["add", "feat-plain", "--owner", "agent-1", "--no-bootstrap"])).json as { handle: string; path: string };
    s.commit({ in: w.path, file: "plain.txt" });
    s.mergeIntoMain("feat-plain");
    s.push("feat-plain", w.path);
    ok(s.orchard(["release", w.handle, "--owner", "agent-1"]));
    ok(s.orchard(["remove", w.handle]));
    expect(existsSync(w.path)).toBe(false);
  });
});
