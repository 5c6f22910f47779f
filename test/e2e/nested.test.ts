// SPEC §4.14: a worktree or repository nested inside a worktree (Claude Code's
// `.claude/worktrees/agent-*`, usually gitignored) is a blocking fact `nested_worktree` for every
// removal, clean and salvage of the outer one. Each destructive path keeps the nested worktree and
// its uncommitted file.
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { appendFileSync, existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { Scenario, git, deadPid, type CliResult } from "../helpers/scenario.js";

let s: Scenario;
beforeEach(() => {
  s = Scenario.create();
  appendFileSync(join(s.primary, ".gitignore"), ".claude/\n");
  s.git("commit", "-q", "-am", "ignore .claude");
  s.git("push", "-q", "origin", "main");
});
afterEach(() => s.cleanup());

function ok(r: CliResult, code = 0): CliResult {
  expect(r.code, r.stdout + r.stderr).toBe(code);
  return r;
}

/** A linked worktree (of the same repo, as Claude Code makes it) inside `outer`, with an uncommitted file. */
function nestInside(outer: string): string {
  const inner = join(outer, ".claude", "worktrees", "agent-1");
  git(s.primary, "worktree", "add", "-q", "-b", `agent-${Math.random().toString(36).slice(2, 8)}`, inner, "main");
  writeFileSync(join(inner, "notes.txt"), "uncommitted work\n");
  return inner;
}

function survived(inner: string): void {
  expect(readFileSync(join(inner, "notes.txt"), "utf8")).toBe("uncommitted work\n");
  expect(existsSync(join(inner, ".git"))).toBe(true);
}

function releasedWorktree(branch: string): { handle: string; path: string } {
  const add = ok(s.orchard(["add", branch, "--owner", "agent-1", "--no-bootstrap"])).json as { handle: string; path: string };
  ok(s.orchard(["release", add.handle, "--owner", "agent-1"]));
  return add;
}

const rowOf = (r: CliResult, handle: string) => r.json.worktrees.find((w: { handle: string }) => w.handle === handle);

describe("nested worktrees", () => {
  it("hygiene reports a clean outer worktree as held by its nested one (idle, held_by_nested, the next step); cleanup run keeps both", () => {
    const w = releasedWorktree("feat-outer");
    const inner = nestInside(w.path);
    const row = rowOf(ok(s.orchard(["hygiene"])), w.handle);
    expect(row.disposition).toBe("idle");
    expect(row.reasons[0]).toMatchObject({ code: "held_by_nested", paths: [".claude/worktrees/agent-1"] });
    expect(row.suggestion.action).toContain("nested worktree");
    ok(s.orchard(["cleanup", "run"]));
    expect(existsSync(w.path)).toBe(true);
    survived(inner);
  });

  it("cleanup run --include needs_salvage --salvage keeps both", () => {
    const w = releasedWorktree("feat-outer");
    const inner = nestInside(w.path);
    ok(s.orchard(["cleanup", "run", "--include", "needs_salvage", "--salvage"]));
    expect(existsSync(w.path)).toBe(true);
    survived(inner);
  });

  it("a nested clone (not a worktree) blocks as well, also when it is not ignored", () => {
    const w = releasedWorktree("feat-outer");
    const clone = join(w.path, "vendor", "lib");
    git(s.root, "clone", "-q", s.origin, clone);
    writeFileSync(join(clone, "notes.txt"), "uncommitted work\n");
    const row = rowOf(ok(s.orchard(["hygiene"])), w.handle);
    expect(row.reasons).toContainEqual(expect.objectContaining({ code: "held_by_nested", paths: ["vendor/lib"] })); // otherwise clean
    ok(s.orchard(["cleanup", "run", "--include", "needs_salvage", "--salvage"]));
    survived(clone);
  });

  it("reap-orphans --salvage skips a dead-locked outer worktree (nested_worktree)", () => {
    const path = s.worktree("worktree-agent-outer", { lock: `claude agent outer (pid ${deadPid()})` });
    s.ageLock(path, 600);
    const inner = nestInside(path);
    const r = ok(s.orchard(["reap-orphans", "--salvage"]));
    const entry = r.json.entries.find((e: { path: string }) => e.path === path);
    expect(entry).toMatchObject({ status: "skipped", reason: "nested_worktree" });
    survived(inner);
  });

  it("recycle refuses (nested_worktree) and runs no git clean", () => {
    const w = releasedWorktree("feat-outer");
    const inner = nestInside(w.path);
    const r = ok(s.orchard(["recycle", w.handle, "--branch", "feat-new", "--owner", "agent-2"]), 3);
    expect(r.json.reasons).toContainEqual(expect.objectContaining({ code: "nested_worktree" }));
    survived(inner);
  });

  it("cleanup-wave blocks the entry (nested_worktree) and removes nothing", () => {
    const base = git(s.primary, "rev-parse", "main");
    const path = s.worktree("worktree-agent-outer");
    s.commit({ in: path, file: "agent.txt" });
    const inner = nestInside(path);
    const file = join(s.root, "wave.json");
    writeFileSync(file, JSON.stringify([{ agent_id: "a", worktree_path: path, branch: "worktree-agent-outer", expected_base: base }]));
    const r = s.orchard(["cleanup-wave", "--manifest", file]);
    expect(r.code, r.stdout + r.stderr).toBe(3);
    expect(r.json.result.entries[0]).toMatchObject({ status: "blocked", reason: "nested_worktree" });
    expect(existsSync(path)).toBe(true);
    survived(inner);
  });

  it("orchard remove of the outer one, which judges that worktree alone, keeps both (held_by_nested)", () => {
    const { path } = releasedWorktree("feat-outer");
    const inner = nestInside(path);
    const r = ok(s.orchard(["remove", path]), 3);
    expect(r.json).toMatchObject({ ok: false, action: "refused" });
    expect(r.json.reasons).toContainEqual(expect.objectContaining({ code: "held_by_nested" }));
    expect(existsSync(path)).toBe(true);
    survived(inner);
  });

  it("without a nested worktree the same released worktree is removed (the test's control)", () => {
    const w = releasedWorktree("feat-outer");
    ok(s.orchard(["cleanup", "run"]));
    expect(existsSync(w.path)).toBe(false);
  });
});
