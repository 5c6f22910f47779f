// SPEC §4.12: git ≥ 2.48 (`worktree.useRelativePaths`) writes a worktree's `gitdir` record and
// its `.git` file as paths relative to the file's own directory. git here is older, so the
// relative records are written by hand; Orchard must resolve them, not read them literally.
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { existsSync, rmSync, writeFileSync } from "node:fs";
import { join, relative } from "node:path";
import { Scenario, deadPid, type CliResult } from "../helpers/scenario.js";

let s: Scenario;
beforeEach(() => {
  s = Scenario.create();
});
afterEach(() => s.cleanup());

/** Rewrites both records of a linked worktree the way git ≥ 2.48 writes them. */
function makeRecordsRelative(path: string): void {
  const admin = s.adminDir(path);
  writeFileSync(join(admin, "gitdir"), `${relative(admin, join(path, ".git"))}\n`);
  writeFileSync(join(path, ".git"), `gitdir: ${relative(path, admin)}\n`);
}

/** A dead Claude Code agent's merged worktree (no commits of its own), its lock aged past the guard. */
function deadAgentWorktree(branch: string): string {
  const path = s.worktree(branch, { lock: `claude agent ${branch} (pid ${deadPid()})` });
  s.ageLock(path, 600);
  return path;
}

const entryFor = (r: CliResult, path: string) => r.json.entries.find((e: { path: string }) => e.path === path);

describe("relative gitdir records (git ≥ 2.48)", () => {
  it("reap-orphans resolves a relative record: an existing dirty worktree is worktree_dirty, not pid_dead_and_missing", () => {
    const path = deadAgentWorktree("worktree-agent-rel");
    s.makeDirty(path);
    makeRecordsRelative(path);
    const r = s.orchard(["reap-orphans"]);
    expect(r.code, r.stderr).toBe(0);
    expect(entryFor(r, path)).toMatchObject({ status: "skipped", reason: "worktree_dirty" });
    expect(s.git("worktree", "list", "--porcelain")).toContain("worktree-agent-rel");
  });

  it("a clean merged one behind relative records is reapable, and reap-orphans removes it and drops git's entry", () => {
    const path = deadAgentWorktree("worktree-agent-rel");
    const admin = s.adminDir(path);
    makeRecordsRelative(path);
    const row = s.orchard(["hygiene"]).json.worktrees.find((w: { path: string }) => w.path === path);
    expect(row).toMatchObject({ disposition: "reapable", missing: false });
    const r = s.orchard(["reap-orphans"]);
    expect(r.code, r.stderr).toBe(0);
    expect(entryFor(r, path)).toMatchObject({ status: "reaped", reason: "pid_dead_and_merged" });
    expect(existsSync(path)).toBe(false);
    expect(existsSync(admin)).toBe(false);
    expect(s.git("worktree", "list", "--porcelain")).not.toContain("worktree-agent-rel");
  });

  it("hygiene sees the worktree where the record points: needs_salvage, not missing", () => {
    const path = deadAgentWorktree("worktree-agent-rel");
    s.makeDirty(path);
    makeRecordsRelative(path);
    const r = s.orchard(["hygiene"]);
    expect(r.code, r.stderr).toBe(0);
    const row = r.json.worktrees.find((w: { path: string }) => w.path === path);
    expect(row).toMatchObject({ disposition: "needs_salvage", missing: false, dirty: { untracked: 1 } });
  });

  it("a relative record of a directory that is really gone is missing, under its absolute path", () => {
    const path = deadAgentWorktree("worktree-agent-gone");
    makeRecordsRelative(path);
    rmSync(path, { recursive: true, force: true });
    const r = s.orchard(["hygiene"]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.json.worktrees.find((w: { path: string }) => w.path === path)).toMatchObject({ disposition: "missing" });
  });
});
