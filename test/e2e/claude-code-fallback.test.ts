// The hooks of a project install, run as Claude Code runs them: `/bin/sh -c <the installed command>`
// with the hook's JSON on stdin, with and without `orchard` on PATH (issue 49 items 12, 13, 15).
// The command is short — `sh <the script beside the settings> claude-code <hook>` — so a refusal shows
// the person Orchard's sentence, not a page of shell; without orchard the script does what Claude Code
// does natively: a clean worktree goes with its branch, a dirty one is kept and the hook says so
// (exit 1, so ExitWorktree never tells the model it was removed). test/claude-code/without-orchard.test.ts
// runs the same hooks under the real Claude Code.
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { Scenario, git } from "../helpers/scenario.js";
import { hermeticEnv } from "../helpers/env.js";
import { orchardOnPath } from "../helpers/claude-code.js";
import { PROCESS_TIMEOUT_MS } from "../helpers/time.js";

let s: Scenario;
beforeEach(() => {
  s = Scenario.create();
});
afterEach(() => s.cleanup());

const settingsFile = () => join(s.primary, ".claude", "settings.json");
const scriptFile = () => join(s.primary, ".claude", "orchard-hook.sh");

/** The installed command of one hook event. */
function installed(event: string): string {
  const hooks = JSON.parse(readFileSync(settingsFile(), "utf8")).hooks as Record<string, { hooks: { command: string }[] }[]>;
  return hooks[event]?.[0]?.hooks[0]?.command as string;
}

/** Runs the installed hook as Claude Code does: `/bin/sh -c`, the JSON on stdin, CLAUDE_PROJECT_DIR set. */
function hook(event: string, input: Record<string, unknown>, options: { cwd: string; orchard: boolean }) {
  const env = hermeticEnv({ CLAUDE_PROJECT_DIR: s.primary, ...(options.orchard ? orchardOnPath(s.root, s.home) : {}) });
  const r = spawnSync("/bin/sh", ["-c", installed(event)], {
    cwd: options.cwd,
    env,
    input: JSON.stringify(input),
    encoding: "utf8",
    timeout: PROCESS_TIMEOUT_MS,
  });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

const payload = (event: string, extra: Record<string, unknown>) => ({
  session_id: "s-1",
  transcript_path: "/nowhere.jsonl",
  cwd: s.primary,
  hook_event_name: event,
  ...extra,
});

function install(): void {
  const r = s.orchard(["claude-code", "install", "--project"], { noHome: true });
  expect(r.code, r.stderr).toBe(0);
  git(s.primary, "add", "-A");
  git(s.primary, "commit", "-q", "-m", "orchard hooks");
  git(s.primary, "push", "-q", "origin", "main");
}

const branches = () => git(s.primary, "branch", "--format=%(refname:short)").split("\n").filter(Boolean).sort();

describe("the installed hooks without orchard on PATH: what Claude Code does natively", () => {
  it("ExitWorktree on a clean worktree removes it and its branch; the hook runs inside the worktree it removes", () => {
    install();
    const made = hook("WorktreeCreate", payload("WorktreeCreate", { name: "x4" }), { cwd: s.primary, orchard: false });
    expect(made.code, made.stderr).toBe(0);
    const path = join(s.primary, ".claude", "worktrees", "x4");
    expect(made.stdout).toBe(`${path}\n`);
    expect(branches()).toEqual(["main", "worktree-x4"]);
    const removed = hook("WorktreeRemove", payload("WorktreeRemove", { cwd: path, worktree_path: path }), { cwd: path, orchard: false });
    expect(removed.code, removed.stderr).toBe(0);
    expect(existsSync(path)).toBe(false);
    expect(branches()).toEqual(["main"]);
  });

  it("a finished subagent's clean worktree goes with its branch", () => {
    install();
    const made = hook("WorktreeCreate", payload("WorktreeCreate", { name: "agent-a1b2" }), { cwd: s.primary, orchard: false });
    expect(made.code, made.stderr).toBe(0);
    const path = join(s.primary, ".claude", "worktrees", "agent-a1b2");
    const stopped = hook("SubagentStop", payload("SubagentStop", { cwd: path, agent_id: "a1b2", agent_type: "general-purpose" }), {
      cwd: path,
      orchard: false,
    });
    expect(stopped.code, stopped.stderr).toBe(0);
    expect(existsSync(path)).toBe(false);
    expect(branches()).toEqual(["main"]);
  });

  it("a dirty worktree is kept with its branch, and the hook exits 1 saying why and what to do, in one line", () => {
    install();
    const made = hook("WorktreeCreate", payload("WorktreeCreate", { name: "x5" }), { cwd: s.primary, orchard: false });
    expect(made.code, made.stderr).toBe(0);
    const path = join(s.primary, ".claude", "worktrees", "x5");
    writeFileSync(join(path, "half-done.txt"), "precious\n");
    const removed = hook("WorktreeRemove", payload("WorktreeRemove", { cwd: path, worktree_path: path }), { cwd: path, orchard: false });
    expect(removed.code).toBe(1);
    const lines = removed.stderr.split("\n").filter((l) => l.startsWith("orchard:"));
    expect(lines).toEqual([
      `orchard: not found on PATH: ${path} was kept: git worktree remove refused it (it holds changes or untracked files); commit or discard them, then git worktree remove it`,
    ]);
    expect(readFileSync(join(path, "half-done.txt"), "utf8")).toBe("precious\n");
    expect(branches()).toEqual(["main", "worktree-x5"]);
  });
});

describe("the installed command is short: a refusal reads as Orchard's sentence", () => {
  it("each command is `sh <script> claude-code <hook>`; a bad setting fails the create with Orchard's message and its next step", () => {
    install();
    for (const event of ["WorktreeCreate", "WorktreeRemove", "SessionStart", "SubagentStop"]) expect(installed(event).length).toBeLessThan(90);
    expect(installed("WorktreeCreate")).toBe(`sh "\${CLAUDE_PROJECT_DIR:-.}/.claude/orchard-hook.sh" claude-code worktree-create`);
    // a live owner holds the branch: another session's worktree
    const other = s.orchard(["add", "worktree-busy", "--owner", "someone", "--pid", String(process.pid)]);
    expect(other.code, other.stderr).toBe(0);
    const r = hook("WorktreeCreate", payload("WorktreeCreate", { name: "busy" }), { cwd: s.primary, orchard: true });
    expect(r.code).toBe(1);
    expect(r.stdout).toBe("");
    expect(r.stderr).toMatch(
      /^orchard: orchard refused the worktree for busy .*live_owner: .*\(next: another live session or process holds it: end that session/,
    );
    expect(r.stderr.split("\n").filter(Boolean)).toHaveLength(1);
  });

  it("with orchard on PATH the same command runs Orchard: the worktree is managed", () => {
    install();
    const r = hook("WorktreeCreate", payload("WorktreeCreate", { name: "m1" }), { cwd: s.primary, orchard: true });
    expect(r.code, r.stderr).toBe(0);
    const path = r.stdout.trim();
    expect(path.startsWith(join(s.home, "worktrees"))).toBe(true);
    expect((s.orchard(["list"]).json.worktrees as { path: string; managed: boolean }[]).find((w) => w.path === path)?.managed).toBe(true);
  });
});

describe("Orchard keeps work on ExitWorktree remove: one line with the reason and the next step (issue 49 item 15)", () => {
  it("a dirty worktree: exit 1, and stderr is one line naming what holds it and what to run", () => {
    install();
    const made = hook("WorktreeCreate", payload("WorktreeCreate", { name: "k1" }), { cwd: s.primary, orchard: true });
    expect(made.code, made.stderr).toBe(0);
    const path = made.stdout.trim();
    writeFileSync(join(path, "half-done.txt"), "precious\n");
    const r = hook("WorktreeRemove", payload("WorktreeRemove", { cwd: path, worktree_path: path }), { cwd: path, orchard: true });
    expect(r.code).toBe(1);
    const handle = (s.orchard(["status", path]).json.worktree as { handle: string }).handle;
    expect(r.stderr).toBe(
      `orchard: kept ${path}: dirty (the worktree has tracked changes or untracked files); nothing was lost. ` +
        `Next: commit and push the work in ${path}, or \`orchard remove ${handle} --salvage\` (keeps it in a salvage ref, then removes the worktree)\n`,
    );
    expect(readFileSync(join(path, "half-done.txt"), "utf8")).toBe("precious\n");
  });
});

describe("an unknown worktree.baseRef: warned, its file set aside and said, as Claude Code does (issue 49 item 14)", () => {
  it("the session gets its worktree from the default branch; the person reads the warning, the model reads it in additionalContext", () => {
    install();
    git(s.primary, "switch", "-q", "-c", "feat");
    git(s.primary, "commit", "-q", "--allow-empty", "-m", "feature");
    // Claude Code sets the whole file aside: its other worktree settings (one Orchard would refuse) are not read either
    writeFileSync(join(s.primary, ".claude", "settings.local.json"), JSON.stringify({ worktree: { baseRef: "main", symlinkDirectories: ["../out"] } }));
    const r = hook("WorktreeCreate", payload("WorktreeCreate", { name: "b1" }), { cwd: s.primary, orchard: true });
    expect(r.code, r.stderr).toBe(0);
    const path = r.stdout.trim();
    expect(git(path, "rev-parse", "HEAD")).toBe(git(s.primary, "rev-parse", "main"));
    expect(r.stderr).toContain(
      `settings.local.json: worktree.baseRef "main" is neither "fresh" nor "head": Claude Code does not load that file's settings, and Orchard applies none of its worktree settings either`,
    );
    const start = hook("SessionStart", payload("SessionStart", { cwd: path, source: "startup" }), { cwd: path, orchard: true });
    expect(start.code, start.stderr).toBe(0);
    const context = JSON.parse(start.stdout).hookSpecificOutput.additionalContext as string;
    expect(context).toContain("without one of Claude Code's settings, as Claude Code itself would");
    expect(context).toContain('worktree.baseRef \\"main\\" is neither');
  });
});

describe("install writes the script beside the settings; uninstall removes it byte-exact", () => {
  it("install is idempotent; uninstall gives the directory back; an edited script is kept and said", () => {
    mkdirSync(join(s.primary, ".claude"));
    const text = `${JSON.stringify({ model: "x" }, null, 2)}\n`;
    writeFileSync(settingsFile(), text);
    const first = s.orchard(["claude-code", "install", "--project"], { noHome: true });
    expect(first.code, first.stderr).toBe(0);
    expect(first.json.script).toEqual({ file: scriptFile(), action: "written" });
    const again = s.orchard(["claude-code", "install", "--project"], { noHome: true });
    expect(again.json).toMatchObject({ action: "unchanged", script: { action: "unchanged" } });
    const removed = s.orchard(["claude-code", "uninstall", "--project"]);
    expect(removed.json).toMatchObject({ action: "uninstalled", script: { file: scriptFile(), action: "removed" } });
    expect(readFileSync(settingsFile(), "utf8")).toBe(text);
    expect(existsSync(scriptFile())).toBe(false);

    // the script alone missing: install writes it back
    expect(s.orchard(["claude-code", "install", "--project"], { noHome: true }).code).toBe(0);
    writeFileSync(scriptFile(), `${readFileSync(scriptFile(), "utf8")}# mine\n`);
    const edited = s.orchard(["claude-code", "uninstall", "--project"], { json: false });
    expect(edited.code, edited.stderr).toBe(0);
    expect(edited.stdout).toContain(`kept ${scriptFile()}: it is not the script install wrote`);
    expect(readFileSync(scriptFile(), "utf8")).toContain("# mine");
    expect(readFileSync(settingsFile(), "utf8")).toBe(text);
  });

  it("a file of someone else's at the script's path is exit 2, and nothing is written", () => {
    mkdirSync(join(s.primary, ".claude"));
    writeFileSync(scriptFile(), "#!/bin/sh\necho mine\n");
    const r = s.orchard(["claude-code", "install", "--project"], { noHome: true });
    expect(r.code).toBe(2);
    expect(r.json.error.message).toContain("is not Orchard's hook script");
    expect(existsSync(settingsFile())).toBe(false);
  });
});
