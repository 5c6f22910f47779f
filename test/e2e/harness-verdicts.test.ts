// A worktree its harness still tracks (harness_tracked), or whose tracking cannot be read
// (harness_unverified), is never reclaimable or reapable, and cleanup, reap-orphans and remove keep
// it; `next` names the harness's own way to drop it. Once the harness's record is gone it is judged
// like any foreign (or managed) worktree (SPEC v5 §1 harness).
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { existsSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { Scenario, deadPid, git } from "../helpers/scenario.js";

let s: Scenario;
let env: Record<string, string>;
beforeEach(() => {
  s = Scenario.create();
  const user = join(s.root, "user");
  mkdirSync(user, { recursive: true });
  env = { HOME: user, CODEX_HOME: join(user, ".codex"), XDG_DATA_HOME: join(user, ".local", "share"), XDG_CONFIG_HOME: join(user, ".config") };
});
afterEach(() => s.cleanup());

const codes = (reasons: { code: string }[]): string[] => reasons.map((r) => r.code);
const rowOf = (path: string) => s.orchard(["hygiene"], { env }).json.worktrees.find((w: { path: string }) => w.path === path);

/** A Codex worktree at main (clean, merged): detached under $CODEX_HOME, its thread's marker in the admin dir. */
function codexWorktree(id: string): { path: string; marker: string } {
  const path = join(env.CODEX_HOME as string, "worktrees", id, "app");
  mkdirSync(dirname(path), { recursive: true });
  git(s.primary, "worktree", "add", "-q", "--detach", path, "main");
  const marker = join(s.adminDir(path), "codex-thread.json");
  writeFileSync(marker, JSON.stringify({ version: 1, ownerThreadId: `thread-${id}` }));
  return { path, marker };
}

describe("harness verdicts", () => {
  it("a Codex worktree its thread owns: kept by hygiene, cleanup and reap-orphans; reaped once the marker is gone", () => {
    const { path, marker } = codexWorktree("a1b2");
    git(s.primary, "worktree", "lock", "--reason", String(deadPid()), path); // an owner long gone: reapable but for Codex
    const row = rowOf(path);
    expect(row.disposition).toBe("idle");
    expect(row.reasons[0]).toMatchObject({ code: "harness_tracked", harness: "codex", session: "thread-a1b2" });
    expect(row.suggestion).toEqual({ action: expect.stringContaining("archive the Codex thread"), command: null });

    const reap = s.orchard(["reap-orphans", "--guard", "0s"], { env });
    expect(reap.code, reap.stderr).toBe(0);
    expect(reap.json.entries.find((e: { path: string }) => e.path === path)).toMatchObject({ status: "skipped", reason: "harness_tracked" });
    const cleanup = s.orchard(["cleanup", "run", "--include", "reapable,reclaimable,needs_salvage", "--salvage"], { env });
    expect([0, 3]).toContain(cleanup.code);
    expect(existsSync(path)).toBe(true);

    // the thread archived (Codex drops its marker): an ordinary foreign worktree, reaped as one
    rmSync(marker);
    expect(rowOf(path)).toMatchObject({ harness: { name: "codex", tracked: false }, disposition: "reapable" });
    const reaped = s.orchard(["reap-orphans", "--guard", "0s"], { env });
    expect(reaped.json.entries.find((e: { path: string }) => e.path === path)).toMatchObject({ status: "reaped" });
    expect(existsSync(path)).toBe(false);
  });

  it("an adopted Codex worktree, released: remove refuses it (harness_tracked) until the thread's marker is gone", () => {
    const { path, marker } = codexWorktree("c3d4");
    const adopted = s.orchard(["adopt", path, "--owner", "codex:thread-c3d4"], { env });
    expect(adopted.code, adopted.stdout).toBe(0);
    expect(s.orchard(["release", adopted.json.handle, "--owner", "codex:thread-c3d4"], { env }).code).toBe(0);
    const refused = s.orchard(["remove", adopted.json.handle], { env });
    expect(refused.code, refused.stdout).toBe(3);
    expect(codes(refused.json.reasons)).toContain("harness_tracked");
    expect(s.orchard(["cleanup", "run"], { env }).code).toBe(0);
    expect(existsSync(path)).toBe(true);

    rmSync(marker);
    const removed = s.orchard(["remove", adopted.json.handle], { env });
    expect(removed.code, removed.stdout).toBe(0);
    expect(existsSync(path)).toBe(false);
  });

  it("an OpenCode worktree: harness_unverified (its database is not read), kept; a foreign worktree like any other once its marker is gone", () => {
    const root = git(s.primary, "rev-list", "--max-parents=0", "HEAD");
    const path = join(env.XDG_DATA_HOME as string, "opencode", "worktree", root, "quiet-fox");
    mkdirSync(dirname(path), { recursive: true });
    git(s.primary, "worktree", "add", "-q", "-b", "opencode/quiet-fox", path, "main");
    const marker = join(s.primary, ".git", "opencode");
    writeFileSync(marker, root);

    const row = rowOf(path);
    expect(row).toMatchObject({ disposition: "unknown", harness: { name: "opencode", tracked: "unknown" } });
    expect(row.reasons[0]).toMatchObject({ code: "harness_unverified", harness: "opencode", drop: expect.stringContaining("OpenCode") });
    const explain = s.orchard(["explain", "harness_unverified"], { env });
    expect(explain.code, explain.stdout).toBe(0);
    expect(s.orchard(["cleanup", "run", "--include", "reapable,reclaimable,needs_salvage", "--salvage"], { env }).code).toBe(0);
    const remove = s.orchard(["remove", path], { env });
    expect(remove.code).toBe(3);
    expect(codes(remove.json.reasons)).toContain("harness_unverified");
    expect(existsSync(path)).toBe(true);

    rmSync(marker);
    expect(rowOf(path)).toMatchObject({ disposition: "reclaimable", harness: { name: "opencode", tracked: false } });
  });
});

describe("roots a harness sweeps by count (Cursor's ~/.cursor/worktrees)", () => {
  it("add refuses a workspace whose worktrees would go there (swept_root, exit 3); hygiene notes a managed worktree there", () => {
    const home = join(env.HOME as string, ".cursor", "worktrees", "orchard-home");
    const refused = s.orchard(["--home", home, "add", "feat/cursor", "--no-bootstrap"], { env });
    expect(refused.code, refused.stdout + refused.stderr).toBe(3);
    expect(refused.json.reasons[0]).toMatchObject({ code: "swept_root", harness: "cursor", root: join(env.HOME as string, ".cursor", "worktrees") });
    expect(git(s.primary, "worktree", "list", "--porcelain")).not.toContain("feat/cursor");

    // a Cursor worktree adopted in place is Orchard's now, and Cursor may still delete it: said
    const path = join(env.HOME as string, ".cursor", "worktrees", "app", "p4q2");
    mkdirSync(dirname(path), { recursive: true });
    git(s.primary, "worktree", "add", "-q", "--detach", path, "main");
    expect(s.orchard(["adopt", path], { env }).code).toBe(0);
    const notes = s.orchard(["hygiene"], { env }).json.notes;
    expect(notes).toContainEqual(expect.objectContaining({ code: "swept_root", path, harness: "cursor" }));
  });
});
