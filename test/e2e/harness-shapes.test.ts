// Each harness's worktree, built on disk as that harness builds it (real git, the harness's roots
// under a private HOME / CODEX_HOME / XDG_*), is named in the `harness` field of list, status and
// hygiene (SPEC v5 §1 harness; docs/harnesses.md). One test per shape.
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { Scenario, git } from "../helpers/scenario.js";

let s: Scenario;
let env: Record<string, string>;
let user: string;
beforeEach(() => {
  s = Scenario.create();
  user = join(s.root, "user");
  mkdirSync(user, { recursive: true });
  env = {
    HOME: user,
    CODEX_HOME: join(user, ".codex"),
    XDG_DATA_HOME: join(user, ".local", "share"),
    XDG_CONFIG_HOME: join(user, ".config"),
  };
});
afterEach(() => s.cleanup());

/** A worktree at `path`, on a new `branch` or detached at main. */
function worktreeAt(path: string, branch: string | null): string {
  mkdirSync(dirname(path), { recursive: true });
  if (branch === null) git(s.primary, "worktree", "add", "-q", "--detach", path, "main");
  else git(s.primary, "worktree", "add", "-q", "-b", branch, path, "main");
  return path;
}

/** The `harness` of the worktree at `path` in list, status and hygiene: the same in all three. */
function harnessOf(path: string): unknown {
  const listed = s.orchard(["list"], { env }).json.worktrees.find((w: { path: string }) => w.path === path);
  const status = s.orchard(["status", path], { env });
  expect(status.code, status.stdout + status.stderr).toBe(0);
  const hygiene = s.orchard(["hygiene"], { env }).json.worktrees.find((w: { path: string }) => w.path === path);
  expect(status.json.worktree.harness).toEqual(listed.harness);
  expect(hygiene.harness).toEqual(listed.harness);
  // never reclaimable while its harness tracks it, or may
  if (listed.harness && listed.harness.tracked !== false) expect(hygiene.disposition).not.toBe("reclaimable");
  return listed.harness;
}

const rootSha = (): string => git(s.primary, "rev-list", "--max-parents=0", "HEAD");

describe("harness shapes", () => {
  it("codex: $CODEX_HOME/worktrees/<4 hex>/<repo>, detached, codex-thread.json in the admin dir, core.worktree naming its own path", () => {
    const path = worktreeAt(join(env.CODEX_HOME as string, "worktrees", "a1b2", "app"), null);
    writeFileSync(join(s.adminDir(path), "codex-thread.json"), JSON.stringify({ version: 1, ownerThreadId: "019a-thread" }));
    git(s.primary, "config", "extensions.worktreeConfig", "true");
    git(path, "config", "--worktree", "core.worktree", path);
    expect(harnessOf(path)).toEqual({ name: "codex", session: "019a-thread", tracked: true });
    // Codex's own core.worktree is not a relocation: its state is read as any worktree's
    const status = s.orchard(["status", path], { env }).json.worktree;
    expect(status.blocked).toBeUndefined();
    expect(status.dirty).toMatchObject({ tracked: 0, untracked: 0 });
  });

  it("codex: the marker alone names Codex wherever the worktree is (a moved git-worktree-root)", () => {
    const path = worktreeAt(join(s.root, "elsewhere", "c0de", "app"), null);
    writeFileSync(join(s.adminDir(path), "codex-thread.json"), JSON.stringify({ version: 1, ownerThreadId: "thr-2" }));
    expect(harnessOf(path)).toEqual({ name: "codex", session: "thr-2", tracked: true });
  });

  it("opencode: <XDG_DATA_HOME>/opencode/worktree/<root sha>/<name> on opencode/<name>, marker <common dir>/opencode", () => {
    const path = worktreeAt(join(env.XDG_DATA_HOME as string, "opencode", "worktree", rootSha(), "brave-eagle"), "opencode/brave-eagle");
    writeFileSync(join(s.primary, ".git", "opencode"), rootSha());
    expect(harnessOf(path)).toEqual({ name: "opencode", session: "brave-eagle", tracked: "unknown" });
  });

  it("opencode: its adapter's detached worktree under the same root", () => {
    const path = worktreeAt(join(env.XDG_DATA_HOME as string, "opencode", "worktree", rootSha(), "calm-otter"), null);
    writeFileSync(join(s.primary, ".git", "opencode"), `${rootSha()}\n`);
    expect(harnessOf(path)).toEqual({ name: "opencode", session: "calm-otter", tracked: "unknown" });
  });

  it("copilot: <repo>.worktrees/<branchSlug>", () => {
    const path = worktreeAt(`${s.primary}.worktrees/fix-login`, "fix/login");
    expect(harnessOf(path)).toEqual({ name: "copilot", session: "fix-login", tracked: "unknown" });
  });

  it("gemini: <repo>/.gemini/worktrees/<name> on worktree-<name>", () => {
    const path = worktreeAt(join(s.primary, ".gemini", "worktrees", "tidy-docs"), "worktree-tidy-docs");
    expect(harnessOf(path)).toEqual({ name: "gemini", session: "tidy-docs", tracked: "unknown" });
  });

  it("cursor: ~/.cursor/worktrees/<repo>/<id>, detached", () => {
    const path = worktreeAt(join(user, ".cursor", "worktrees", "app", "k3x9"), null);
    expect(harnessOf(path)).toEqual({ name: "cursor", session: "k3x9", tracked: "unknown" });
  });

  it("vibe-kanban: on vk/<4 hex>-<slug>", () => {
    const path = worktreeAt(join(s.root, "vk", "1a2b-fix-bug", "app"), "vk/1a2b-fix-bug");
    expect(harnessOf(path)).toEqual({ name: "vibe-kanban", session: "1a2b-fix-bug", tracked: "unknown" });
  });

  it("conductor: ~/conductor/workspaces/<repo>/<name>", () => {
    const path = worktreeAt(join(user, "conductor", "workspaces", "app", "lima"), "lima");
    expect(harnessOf(path)).toEqual({ name: "conductor", session: "lima", tracked: "unknown" });
  });

  it("sculptor: ~/.sculptor/workspaces/<id>/code", () => {
    const id = "8030a77d167e46e4af0fbc89cb81cf02";
    const path = worktreeAt(join(user, ".sculptor", "workspaces", id, "code"), "sculptor/task");
    expect(harnessOf(path)).toEqual({ name: "sculptor", session: id, tracked: "unknown" });
  });

  it("workmux: <repo>__worktrees/<name> (no record of its own: tracked false)", () => {
    const path = worktreeAt(`${s.primary}__worktrees/feature-a`, "feature-a");
    expect(harnessOf(path)).toEqual({ name: "workmux", session: "feature-a", tracked: false });
  });

  it("ccmanager: the path its autoDirectoryPattern gives the branch", () => {
    const config = join(env.XDG_CONFIG_HOME as string, "ccmanager", "config.json");
    mkdirSync(dirname(config), { recursive: true });
    writeFileSync(config, JSON.stringify({ worktree: { autoDirectory: true, autoDirectoryPattern: "../{project}-wt/{branch}" } }));
    const path = worktreeAt(join(s.root, "app-wt", "feat-y"), "feat/y");
    expect(harnessOf(path)).toEqual({ name: "ccmanager", session: "feat/y", tracked: false });
  });

  it("crystal: <repo>/worktrees/<name> where Crystal is installed (~/.crystal); not without it", () => {
    const path = worktreeAt(join(s.primary, "worktrees", "session-1"), "session-1");
    expect(harnessOf(path)).toBeNull();
    mkdirSync(join(user, ".crystal"));
    expect(harnessOf(path)).toEqual({ name: "crystal", session: "session-1", tracked: "unknown" });
  });

  it("uzi: <XDG_DATA_HOME>/uzi/worktrees/<name>, tracked while state.json names it", () => {
    const path = worktreeAt(join(env.XDG_DATA_HOME as string, "uzi", "worktrees", "claude-app-abc123-1700000000"), "claude-app-abc123-1700000000");
    const state = join(env.XDG_DATA_HOME as string, "uzi", "state.json");
    writeFileSync(state, JSON.stringify({ "claude-app": { worktree_path: path } }));
    expect(harnessOf(path)).toEqual({ name: "uzi", session: "claude-app-abc123-1700000000", tracked: true });
    writeFileSync(state, "{}");
    expect(harnessOf(path)).toEqual({ name: "uzi", session: "claude-app-abc123-1700000000", tracked: false });
  });

  it("claude-code: <repo>/.claude/worktrees/<name> on worktree-<name> (its lock line decides: never harness-tracked)", () => {
    const path = worktreeAt(join(s.primary, ".claude", "worktrees", "agent-a1"), "worktree-agent-a1");
    expect(harnessOf(path)).toEqual({ name: "claude-code", session: "agent-a1", tracked: false });
  });

  it("a worktree of no harness's shape: null", () => {
    const path = s.worktree("plain");
    expect(harnessOf(path)).toBeNull();
  });
});
