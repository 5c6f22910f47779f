// Removal through the workspace's trash (src/core/shared/removal/removal.ts): a proven-removable worktree is
// renamed into <home>/trash in one step, git's entry dropped, and a detached process deletes it. A
// kill right after the rename is finished by the next command; a path swapped for a symbolic link
// after planning is refused and nothing behind it is touched; on another file system git removes
// the worktree in place.
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { Scenario, deadPid, git, waitFor } from "../helpers/scenario.js";
import { otherFileSystem } from "../helpers/scratch.js";

let s: Scenario;
const undo: (() => void)[] = [];
beforeEach(() => {
  s = Scenario.create();
});
afterEach(() => {
  for (const u of undo.splice(0).reverse()) u();
  s.cleanup();
});

const trash = () => join(s.home, "trash");
const trashEntries = (): string[] => (existsSync(trash()) ? readdirSync(trash()) : []);
const listed = (path: string) => git(s.primary, "worktree", "list", "--porcelain").includes(`worktree ${path}\n`);

/** A foreign worktree locked by a dead Claude Code agent, merged (at main), the lock aged past the guard. */
function orphan(branch: string, path?: string): string {
  const p = s.worktree(branch, { lock: `claude agent ${branch} (pid ${deadPid()})`, ...(path ? { path } : {}) });
  s.ageLock(p, 600);
  return p;
}

describe("removal through the trash", () => {
  it("reap-orphans renames into the trash, drops git's entry, and the trash empties itself", async () => {
    const a = orphan("worktree-agent-a");
    const b = orphan("worktree-agent-b");
    const r = s.orchard(["reap-orphans"]);
    expect(r.json).toMatchObject({ ok: true, reaped: 2 });
    for (const p of [a, b]) {
      expect(existsSync(p)).toBe(false);
      expect(listed(p)).toBe(false);
    }
    await waitFor(() => trashEntries().length === 0, "the trash is empty");
  });

  it("killed right after the rename: the next command drops git's entry and empties the trash", async () => {
    const a = orphan("worktree-agent-a");
    const killed = s.orchard(["reap-orphans"], { env: { ORCHARD_FAULT_AT: "remove.renamed" } });
    expect(killed.code).not.toBe(0);
    expect(existsSync(a)).toBe(false);
    expect(listed(a)).toBe(true); // git still has the entry: its directory is in the trash
    const [entry] = trashEntries();
    expect(existsSync(join(trash(), entry as string, "tree", ".git"))).toBe(true);
    expect(JSON.parse(readFileSync(join(trash(), entry as string, "journal.json"), "utf8"))).toMatchObject({ path: a });
    // any command finishes it
    const finished = s.orchard(["list"]);
    expect(finished.code, finished.stdout + finished.stderr).toBe(0);
    expect(listed(a)).toBe(false);
    await waitFor(() => trashEntries().length === 0, "the trash is empty");
    expect(git(s.primary, "branch", "--list", "worktree-agent-a")).toContain("worktree-agent-a"); // branches are never deleted by the sweep
  });

  it("an entry whose owner still runs is left alone", () => {
    const entry = join(trash(), `x-${process.pid}-0`);
    mkdirSync(join(entry, "tree"), { recursive: true });
    writeFileSync(join(entry, "tree", "file.txt"), "being removed by a live process\n");
    expect(s.orchard(["list"]).code).toBe(0);
    expect(existsSync(join(entry, "tree", "file.txt"))).toBe(true);
  });

  it("a worktree swapped for a symbolic link after planning is refused; nothing behind the link is touched", () => {
    const w = s.orchard(["add", "done-1", "--owner", "agent"]).json;
    expect(s.orchard(["release", w.handle, "--owner", "agent"]).code).toBe(0);
    const plan = s.orchard(["cleanup", "plan"]).json;
    expect(plan.items.map((i: { action: string; path: string }) => [i.action, i.path])).toContainEqual(["remove", w.path]);
    const moved = join(s.root, "moved");
    renameSync(w.path, moved);
    symlinkSync(moved, w.path);
    const r = s.orchard(["cleanup", "apply", plan.planId]);
    const item = r.json.items.find((i: { path: string }) => i.path === w.path);
    expect(item.state).not.toBe("done");
    expect(existsSync(join(moved, "README.md"))).toBe(true);
    expect(existsSync(join(moved, ".git"))).toBe(true);
    expect(trashEntries()).toEqual([]);
    expect(listed(w.path)).toBe(true);
  });

  it("on another file system git removes the worktree in place; the trash is not used", (ctx) => {
    const far = otherFileSystem(s.root, "orchard-removal-");
    if (far === null) return ctx.skip("no second file system here");
    undo.push(() => rmSync(far, { recursive: true, force: true }));
    const a = orphan("worktree-agent-a", join(far, "agent-a"));
    const r = s.orchard(["reap-orphans"]);
    expect(r.json).toMatchObject({ ok: true, reaped: 1 });
    expect(existsSync(a)).toBe(false);
    expect(listed(a)).toBe(false);
    expect(trashEntries()).toEqual([]);
  });
});
