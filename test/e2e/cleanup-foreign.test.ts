// `orchard cleanup` converges on foreign debris too (SPEC §3.7 v2): a reapable foreign worktree
// becomes a `reap` item whose precondition is the whole orphan-sweep proof (§3.8), re-checked at
// the moment of use; an unlocked foreign entry whose directory is gone becomes a `prune` of that
// one entry. Nothing else is done to foreign worktrees. Each refusal beside its success.
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { Scenario, deadPid, git, liveProcess } from "../helpers/scenario.js";

let s: Scenario;
beforeEach(() => {
  s = Scenario.create();
});
afterEach(() => s.cleanup());

type Item = { path: string; handle: string | null; action: string; state: string; reasons: { code: string; field?: string }[] };
const cli = (...args: string[]) => {
  const r = s.orchard(args);
  expect([0, 1, 3], r.stdout + r.stderr).toContain(r.code);
  return r.json;
};
const listed = (path: string) => git(s.primary, "worktree", "list", "--porcelain").includes(`worktree ${path}\n`);
/** A Claude Code agent worktree whose session died: locked with a dead pid, merged (no commits of its own). */
const crashed = (name: string, options: { age?: number } = {}): string => {
  const path = s.worktree(name, { lock: `claude agent ${name} (pid ${deadPid()})` });
  if (options.age !== 0) s.ageLock(path, options.age ?? 3600);
  return path;
};
const itemAt = (items: Item[], path: string) => items.find((i) => i.path === path);

describe("reap items for foreign worktrees", () => {
  it("a reapable foreign worktree is reaped under the whole §3.8 proof; a fresh lock fails the proof at use", () => {
    const old = crashed("agent-old");
    const fresh = crashed("agent-fresh", { age: 0 });
    const p = cli("cleanup", "plan");
    expect(itemAt(p.items, old)).toMatchObject({ action: "reap", handle: null });
    expect(itemAt(p.items, fresh)).toMatchObject({ action: "reap", handle: null });
    const a = cli("cleanup", "apply", p.planId);
    expect(itemAt(a.items, old)).toMatchObject({ state: "done" });
    expect(itemAt(a.items, fresh)?.state).toBe("skipped");
    expect(itemAt(a.items, fresh)?.reasons.map((r) => r.code)).toEqual(["lock_too_fresh"]);
    expect(listed(old)).toBe(false);
    expect(existsSync(old)).toBe(false);
    expect(listed(fresh)).toBe(true);
    // reap-orphans' own verdict agrees on what was left
    expect(s.orchard(["reap-orphans"]).json.entries.map((e: { reason: string }) => e.reason)).toEqual(["lock_too_fresh"]);
  });

  it("work that appears between plan and apply is never reaped: a dirty file, a process inside", () => {
    const dirty = crashed("agent-dirty");
    const busy = crashed("agent-busy");
    const p = cli("cleanup", "plan");
    expect([itemAt(p.items, dirty)?.action, itemAt(p.items, busy)?.action]).toEqual(["reap", "reap"]);
    writeFileSync(join(dirty, "notes.md"), "written after the plan\n");
    const inside = liveProcess(busy);
    try {
      const a = cli("cleanup", "apply", p.planId);
      expect(itemAt(a.items, dirty)?.reasons.map((r) => `${r.code}:${r.field}`)).toEqual(["precondition_changed:dirtyDigest"]);
      expect(itemAt(a.items, busy)?.reasons.map((r) => `${r.code}:${r.field}`)).toEqual(["precondition_changed:liveness"]);
    } finally {
      inside.stop();
    }
    expect(readFileSync(join(dirty, "notes.md"), "utf8")).toBe("written after the plan\n");
    expect(listed(busy)).toBe(true);
  });

  it("a foreign worktree with unmerged commits or an unknown lock is not planned; cleanup takes no other action on it", () => {
    const unmerged = s.worktree("agent-unmerged", { lock: `claude agent x (pid ${deadPid()})` });
    s.commit({ in: unmerged, file: "work.txt" });
    s.ageLock(unmerged, 3600);
    const plain = s.worktree("plain-foreign");
    const r = cli("cleanup", "run");
    expect(r.items).toEqual([]);
    expect(listed(unmerged) && listed(plain)).toBe(true);
  });
});

describe("prune items for foreign missing entries", () => {
  it("prunes exactly the unlocked foreign entry whose directory is gone; a locked one is kept (foreign_lock)", () => {
    const gone = s.worktree("gone-unlocked");
    const goneLocked = s.worktree("gone-locked", { lock: `claude agent y (pid ${deadPid()})` });
    const other = s.worktree("gone-too-but-planned-later");
    rmSync(gone, { recursive: true, force: true });
    rmSync(goneLocked, { recursive: true, force: true });
    const p = cli("cleanup", "plan");
    expect(itemAt(p.items, gone)).toMatchObject({ action: "prune", handle: null });
    expect(itemAt(p.items, goneLocked)).toBeUndefined();
    expect(p.skipped.find((x: { path: string }) => x.path === goneLocked).reasons[0].code).toBe("foreign_lock");
    rmSync(other, { recursive: true, force: true }); // after planning: not in the plan, not pruned
    const a = cli("cleanup", "apply", p.planId);
    expect(itemAt(a.items, gone)?.state).toBe("done");
    expect(listed(gone)).toBe(false);
    expect(listed(goneLocked)).toBe(true);
    expect(listed(other)).toBe(true);
  });

  it("a directory that came back before apply is not pruned", () => {
    const back = s.worktree("comes-back");
    rmSync(back, { recursive: true, force: true });
    const p = cli("cleanup", "plan");
    expect(itemAt(p.items, back)?.action).toBe("prune");
    mkdirSync(back);
    writeFileSync(join(back, "restored.txt"), "someone put it back\n");
    const a = cli("cleanup", "apply", p.planId);
    expect(itemAt(a.items, back)?.state).toBe("skipped");
    expect(listed(back)).toBe(true);
    expect(readFileSync(join(back, "restored.txt"), "utf8")).toBe("someone put it back\n");
  });
});
