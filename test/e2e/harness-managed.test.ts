// The harness rule where Orchard manages the worktree or is about to remove it (issue 47 follow-ups):
// a worktree Orchard made or adopted is judged by its own lease and lock, not by a harness's bare
// path or branch pattern (a marker naming a live session still holds it); Copilot's worktrees under
// the template `orchard copilot install` sets are recognised; merge and cleanup-wave never remove a
// worktree a harness keeps; cleanup's apply reads the harness marker again at the moment of use.
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { existsSync, mkdirSync, readdirSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { Scenario, git } from "../helpers/scenario.js";

let s: Scenario;
let env: Record<string, string>;
beforeEach(() => {
  s = Scenario.create();
  const user = join(s.root, "user");
  mkdirSync(user, { recursive: true });
  env = { HOME: user, CODEX_HOME: join(user, ".codex"), XDG_DATA_HOME: join(user, ".local", "share"), XDG_CONFIG_HOME: join(user, ".config") };
});
afterEach(() => s.cleanup());

const rowOf = (path: string) => s.orchard(["hygiene"], { env }).json.worktrees.find((w: { path: string }) => w.path === path);
/** OpenCode has opened the project: its marker in the common dir holds the root commit. */
const openCodeMarker = (): void => writeFileSync(join(s.primary, ".git", "opencode"), git(s.primary, "rev-list", "--max-parents=0", "HEAD"));
const codexMarker = (path: string, thread: string): void =>
  writeFileSync(join(s.adminDir(path), "codex-thread.json"), JSON.stringify({ version: 1, ownerThreadId: thread }));

describe("a worktree Orchard manages", () => {
  it("on OpenCode's own branch shape is Orchard's (tracked false), removable; the same shape unmanaged stays harness_unverified", () => {
    openCodeMarker();
    const added = s.orchard(["add", "opencode/quiet-fox", "--no-bootstrap"], { env });
    expect(added.code, added.stdout + added.stderr).toBe(0);
    const foreign = s.worktree("opencode/loud-owl");
    expect(rowOf(added.json.path)).toMatchObject({ managed: true, harness: { name: "opencode", session: "quiet-fox", tracked: false } });
    expect(rowOf(foreign)).toMatchObject({ harness: { name: "opencode", tracked: "unknown" }, disposition: "unknown" });

    const removed = s.orchard(["remove", added.json.handle], { env });
    expect(removed.code, removed.stdout).toBe(0);
    expect(existsSync(added.json.path)).toBe(false);
    expect(s.orchard(["remove", foreign], { env }).json.reasons.map((r: { code: string }) => r.code)).toContain("harness_unverified");
    expect(existsSync(foreign)).toBe(true);
  });

  it("known by its identity file alone (the registry lost) is still Orchard's: tracked false, removable", () => {
    openCodeMarker();
    const added = s.orchard(["add", "opencode/lost-fox", "--no-bootstrap"], { env });
    expect(added.code, added.stdout + added.stderr).toBe(0);
    for (const name of readdirSync(s.home)) if (name.startsWith("orchard.db")) rmSync(join(s.home, name));
    expect(rowOf(added.json.path)).toMatchObject({ harness: { name: "opencode", session: "lost-fox", tracked: false } });
    const removed = s.orchard(["remove", added.json.path], { env });
    expect(removed.code, removed.stdout).toBe(0);
    expect(existsSync(added.json.path)).toBe(false);
  });

  it("with a Codex marker naming a session is still harness_tracked", () => {
    const added = s.orchard(["add", "feat/codex", "--no-bootstrap"], { env });
    codexMarker(added.json.path, "thr_9");
    expect(rowOf(added.json.path)).toMatchObject({ managed: true, harness: { name: "codex", session: "thr_9", tracked: true } });
    const refused = s.orchard(["remove", added.json.handle], { env });
    expect(refused.code).toBe(3);
    expect(refused.json.reasons[0]).toMatchObject({ code: "harness_tracked", harness: "codex", session: "thr_9" });
  });
});

describe("Copilot CLI's worktreePathTemplate", () => {
  it("a worktree under <Orchard's home>/copilot/<repo>/<branchSlug> is Copilot's (harness_unverified until adopted)", () => {
    mkdirSync(s.home, { recursive: true });
    const path = join(realpathSync(s.home), "copilot", "app", "fix-a");
    mkdirSync(dirname(path), { recursive: true });
    git(s.primary, "worktree", "add", "-q", "-b", "fix-a", path, "main");
    const row = rowOf(path);
    expect(row).toMatchObject({ harness: { name: "copilot", session: "fix-a", tracked: "unknown" }, disposition: "unknown" });
    expect(row.reasons[0]).toMatchObject({ code: "harness_unverified", harness: "copilot" });
  });
});

describe("merge and cleanup-wave keep a worktree a harness keeps", () => {
  it("merge of an OpenCode worktree it cannot verify is blocked (harness_unverified): nothing lands, the worktree stays", () => {
    openCodeMarker();
    const path = s.worktree("opencode/fox");
    s.commit({ in: path, file: "fox.txt" });
    const main = git(s.primary, "rev-parse", "main");
    const r = s.orchard(["merge", path], { env });
    expect(r.code, r.stdout + r.stderr).toBe(3);
    expect(r.json).toMatchObject({ ok: false, action: "blocked" });
    expect(r.json.reasons[0]).toMatchObject({ code: "harness_unverified", harness: "opencode", session: "fox", drop: expect.stringContaining("OpenCode") });
    expect(git(s.primary, "rev-parse", "main")).toBe(main);
    expect(existsSync(path)).toBe(true);
  });

  it("a wave entry whose worktree a Codex thread owns is blocked (harness_tracked) before anything lands", () => {
    const path = s.worktree("worktree-agent-1");
    const base = git(s.primary, "rev-parse", "main");
    s.commit({ in: path, file: "a.txt" });
    codexMarker(path, "thr_1");
    const manifest = join(s.root, "wave.json");
    writeFileSync(manifest, JSON.stringify([{ agent_id: "a1", worktree_path: path, branch: "worktree-agent-1", expected_base: base }]));
    const r = s.orchard(["cleanup-wave", "--manifest", manifest], { env });
    expect(r.json.result.entries[0]).toMatchObject({
      status: "blocked",
      reason: "harness_tracked",
      harness: { name: "codex", session: "thr_1", drop: expect.stringContaining("archive the Codex thread") },
    });
    expect(git(s.primary, "rev-parse", "main")).toBe(base);
    expect(existsSync(path)).toBe(true);
  });
});

describe("cleanup apply re-reads the harness marker", () => {
  it("plan, then a codex-thread.json appears, then apply: skipped harness_tracked, the worktree kept", () => {
    const added = s.orchard(["add", "feat/late", "--owner", "agent", "--no-bootstrap"], { env });
    expect(s.orchard(["release", added.json.handle, "--owner", "agent"], { env }).code).toBe(0);
    const plan = s.orchard(["cleanup", "plan"], { env }).json;
    expect(plan.items.map((i: { path: string; action: string }) => `${i.action}:${i.path}`)).toContain(`remove:${added.json.path}`);
    codexMarker(added.json.path, "thr_late");
    const applied = s.orchard(["cleanup", "apply", plan.planId], { env });
    const item = applied.json.items.find((i: { path: string }) => i.path === added.json.path);
    expect(item).toMatchObject({ state: "skipped", reasons: [expect.objectContaining({ code: "harness_tracked", harness: "codex", session: "thr_late" })] });
    expect(existsSync(added.json.path)).toBe(true);
  });
});
