// Workspaces (SPEC v4 §4.11): a workspace never recovers, adopts, reaps or removes another
// workspace's worktree, judges another workspace's lease only by a proof that holds across
// registries, and, after losing its own registry, restores its worktrees as they were (released
// ones stay released), never from a forged identity file.
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Database from "better-sqlite3";
import { Scenario, git } from "../helpers/scenario.js";

let s: Scenario;
let other: string;
beforeEach(() => {
  s = Scenario.create();
  other = mkdtempSync(join(tmpdir(), "orchard-home-b-"));
});
afterEach(() => {
  s.cleanup();
  rmSync(other, { recursive: true, force: true });
});

/** The CLI in workspace B: another home over the same repository. */
const inB = (args: string[]) => s.orchard(["--home", other, ...args]);
const listed = (path: string) => git(s.primary, "worktree", "list", "--porcelain").includes(`worktree ${path}\n`);
const handles = (home: string): string[] => {
  const db = new Database(join(home, "orchard.db"), { readonly: true });
  try {
    return (db.prepare("SELECT handle FROM worktrees ORDER BY handle").all() as { handle: string }[]).map((r) => r.handle);
  } finally {
    db.close();
  }
};
const codes = (reasons: { code: string }[] | undefined): string[] => (reasons ?? []).map((r) => r.code);
const entryOf = (worktrees: { path: string }[], path: string) => worktrees.find((w) => w.path === path) as Record<string, any>;

describe("another workspace over the same repository", () => {
  it("never recovers, adopts, reaps or cleans up A's live worktree; A still sees it live", () => {
    const a = s.orchard(["add", "feat/x", "--task", "T-1", "--owner", "agent-1", "--no-bootstrap"]);
    expect(a.code, a.stderr).toBe(0);
    const lock = readFileSync(join(s.adminDir(a.json.path), "locked"), "utf8");
    expect(lock).toMatch(/"workspace":"[0-9a-f]{16}"/); // whose lease it is, in the lock itself
    expect(lock).toMatch(/"expires":"\d{4}-/);

    const b = inB(["add", "feat-b", "--no-bootstrap"]);
    expect(b.code, b.stderr).toBe(0);
    expect(handles(other)).toEqual([b.json.handle]); // A's worktree was not taken into B's registry

    const h = inB(["hygiene"]);
    expect(h.code, h.stderr).toBe(0);
    const seen = entryOf(h.json.worktrees, a.json.path);
    expect(seen.disposition).toBe("unknown");
    expect(codes(seen.reasons)).toContain("foreign_workspace");
    expect(seen.managed).toBe(false);

    const reap = inB(["reap-orphans", "--guard", "0s"]);
    expect(reap.code, reap.stderr).toBe(0);
    expect(entryOf(reap.json.entries, a.json.path)).toMatchObject({ status: "skipped", reason: "foreign_workspace" });
    const cleanup = inB(["cleanup", "run", "--include", "reclaimable,reapable,needs_salvage", "--salvage"]);
    expect([0, 3]).toContain(cleanup.code);
    const adopt = inB(["adopt", a.json.path]);
    expect(adopt.code).toBe(3);
    expect(codes(adopt.json.reasons)).toContain("foreign_workspace");

    expect(existsSync(a.json.path)).toBe(true);
    expect(listed(a.json.path)).toBe(true);
    const mine = s.orchard(["status", a.json.handle]);
    expect(mine.json.worktree).toMatchObject({ managed: true, owner: "agent-1", liveness: { state: "live" } });
  });

  it("judges another workspace's lease by the expiry written in its lock once it has passed", () => {
    const a = s.orchard(["add", "feat-e", "--owner", "agent-1", "--ttl", "1s", "--no-bootstrap"]);
    expect(a.code, a.stderr).toBe(0);
    const lockPath = join(s.adminDir(a.json.path), "locked");
    // the lease ran out an hour ago (as after a crash), written as Orchard writes it
    const past = new Date(Date.now() - 3_600_000).toISOString();
    writeFileSync(lockPath, readFileSync(lockPath, "utf8").replace(/"expires":"[^"]+"/, `"expires":"${past}"`));
    const seen = entryOf(inB(["hygiene"]).json.worktrees, a.json.path);
    expect(seen.liveness.state).toBe("dead");
    expect(seen.disposition).toBe("unknown"); // dead, and still never B's to act on
    expect(codes(seen.reasons)).toEqual(["foreign_workspace"]);
  });
});

describe("the registry lost, then an unrelated add", () => {
  it("restores released and leased worktrees as they were: the same verdicts, lifecycle, last owner and lease", () => {
    const done = s.orchard(["add", "feat-a", "--task", "T-1", "--owner", "alice", "--no-bootstrap"]).json;
    writeFileSync(join(done.path, "notes.txt"), "work alice left uncommitted\n");
    expect(s.orchard(["release", done.handle, "--owner", "alice"]).json.ok).toBe(true);
    const held = s.orchard(["add", "feat-b", "--owner", "bob", "--no-bootstrap"]).json;
    const dispositions = () =>
      Object.fromEntries((s.orchard(["hygiene"]).json.worktrees as { handle: string; disposition: string }[]).map((w) => [w.handle, w.disposition]));
    const before = dispositions();
    expect(before[done.handle]).toBe("needs_salvage"); // released with work in it

    for (const name of readdirSync(s.home)) if (name.startsWith("orchard.db")) rmSync(join(s.home, name));
    expect(s.orchard(["add", "feat-c", "--no-bootstrap"]).code).toBe(0);
    const after = dispositions();
    expect({ [done.handle]: after[done.handle], [held.handle]: after[held.handle] }).toEqual({
      [done.handle]: before[done.handle],
      [held.handle]: before[held.handle],
    });
    const status = s.orchard(["status", done.handle]).json.worktree;
    expect(status).toMatchObject({ lifecycle: "terminal", owner: null, lastOwner: "alice" });
    expect(s.orchard(["status", held.handle]).json.worktree).toMatchObject({ lifecycle: "active", owner: "bob", liveness: { state: "live" } });
  });

  it("never restores a forged identity file: a handle that leaves the workspace, or one planted outside it", () => {
    const mine = s.orchard(["add", "feat-a", "--no-bootstrap"]).json;
    const identity = JSON.parse(readFileSync(join(s.adminDir(mine.path), "orchard.json"), "utf8"));
    const planted = s.worktree("planted");
    writeFileSync(join(s.adminDir(planted), "orchard.json"), JSON.stringify({ ...identity, handle: "app@../../x", branch: "planted" }));
    for (const name of readdirSync(s.home)) if (name.startsWith("orchard.db")) rmSync(join(s.home, name));
    expect(s.orchard(["add", "feat-c", "--task", "T-9", "--no-bootstrap"]).code).toBe(0); // a write: restores what it may
    expect(handles(s.home)).not.toContain("app@../../x");
    expect(handles(s.home)).toContain(mine.handle);
    const seen = entryOf(s.orchard(["hygiene"]).json.worktrees, planted);
    expect(seen.managed).toBe(false);
  });
});
