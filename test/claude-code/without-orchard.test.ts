// A teammate without Orchard (SPEC v4 §3.14, issue 40 item 5): the committed project install runs
// `orchard` through PATH, and on a machine that has none the hooks fall back to what Claude Code does
// natively — the same worktree path and branch from the same base, ExitWorktree removing a clean
// one — instead of failing every session with "WorktreeCreate hook failed … orchard: not found".
// Proven against the real Claude Code with no `orchard` on PATH, beside Claude Code without hooks; a clean
// worktree goes with its branch (ExitWorktree, a finished subagent) and kept work is said kept (issue 49 item 12).
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { Scenario, git } from "../helpers/scenario.js";
import { pathWithoutOrchard } from "../helpers/env.js";
import { FakeMessagesApi, mentions, scripted, type Turn } from "../helpers/fake-messages-api.js";
import { startClaude, installInProject } from "../helpers/claude-code.js";

let s: Scenario;
let api: FakeMessagesApi | undefined;

beforeEach(() => {
  s = Scenario.create();
});

afterEach(() => {
  api?.close();
  api = undefined;
  s.cleanup();
});

/** `claude <args>` in `cwd` with a PATH that has no orchard (the test process's own PATH has none). */
async function claude(cwd: string, args: string[], turns: Turn[] = []) {
  const home = join(cwd, "..", "claude-home");
  mkdirSync(home, { recursive: true });
  api = await FakeMessagesApi.start(scripted(turns));
  const r = await startClaude(args, { cwd, home, apiUrl: api.url }).done;
  api.close();
  return { ...r, requests: api.requests };
}

/** The linked worktrees of a repository: path relative to its primary, branch, commit. */
function worktrees(primary: string): { path: string; branch: string; head: string }[] {
  const blocks = git(primary, "worktree", "list", "--porcelain").split("\n\n").slice(1);
  return blocks.map((block) => {
    const line = (key: string) => (block.split("\n").find((l) => l.startsWith(`${key} `)) ?? "").slice(key.length + 1);
    return { path: line("worktree").slice(primary.length + 1), branch: line("branch"), head: line("HEAD") };
  });
}

/** A project whose `.worktreeinclude` names ignored files (copied), an untracked file git does not ignore and a tracked one (neither copied). */
function withIncludes(sc: Scenario): void {
  writeFileSync(join(sc.primary, ".gitignore"), ".env\nlocal/\n*.log\n.claude/\n");
  writeFileSync(join(sc.primary, ".worktreeinclude"), ".env\nlocal/\nnotes.txt\nREADME.md\n");
  git(sc.primary, "add", ".gitignore", ".worktreeinclude");
  git(sc.primary, "commit", "-q", "-m", "includes");
  git(sc.primary, "push", "-q", "origin", "main");
  writeFileSync(join(sc.primary, ".env"), "SECRET=1\n");
  mkdirSync(join(sc.primary, "local", "deep"), { recursive: true });
  writeFileSync(join(sc.primary, "local", "deep", "config.json"), "{}\n");
  writeFileSync(join(sc.primary, "debug.log"), "not named\n");
  writeFileSync(join(sc.primary, "notes.txt"), "not ignored\n");
}

/** The files of a worktree git does not track, with their contents. */
function untracked(worktree: string): Record<string, string> {
  const files = git(worktree, "ls-files", "--others").split("\n").filter(Boolean).sort();
  return Object.fromEntries(files.map((f) => [f, readFileSync(join(worktree, f), "utf8")]));
}

describe("a project install on a machine without orchard", () => {
  it("claude --worktree copies the ignored files .worktreeinclude names, exactly as native Claude Code does", async () => {
    const native = Scenario.create();
    let nativeFiles: Record<string, string>;
    try {
      withIncludes(native);
      const r = await claude(native.primary, ["--worktree", "inc", "-p", "hello"]);
      expect(r.code, r.stderr).toBe(0);
      nativeFiles = untracked(join(native.primary, ".claude", "worktrees", "inc"));
    } finally {
      native.cleanup();
    }
    expect(nativeFiles).toEqual({ ".env": "SECRET=1\n", "local/deep/config.json": "{}\n" });

    installInProject(s);
    withIncludes(s);
    const r = await claude(s.primary, ["--worktree", "inc", "-p", "hello"]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).not.toContain("could not all be copied");
    expect(untracked(join(s.primary, ".claude", "worktrees", "inc"))).toEqual(nativeFiles);
  });

  it("claude --worktree gets the worktree native Claude Code makes (path, branch, base); ExitWorktree removes it when clean and keeps work", async () => {
    expect(
      pathWithoutOrchard()
        .split(":")
        .some((dir) => existsSync(join(dir, "orchard"))),
    ).toBe(false); // the PATH the hooks run with
    // native: the same repository without Orchard's hooks
    const native = Scenario.create();
    let nativeWorktrees: ReturnType<typeof worktrees>;
    try {
      git(native.primary, "switch", "-q", "-c", "feat"); // the session starts on a feature branch: native bases on origin's default
      git(native.primary, "commit", "-q", "--allow-empty", "-m", "feature");
      const r = await claude(native.primary, ["--worktree", "team/f1", "-p", "hello"]);
      expect(r.code, r.stderr).toBe(0);
      nativeWorktrees = worktrees(native.primary).map((w) => ({
        ...w,
        head: w.head === git(native.primary, "rev-parse", "origin/main") ? "origin/main" : w.head,
      }));
    } finally {
      native.cleanup();
    }
    expect(nativeWorktrees).toEqual([{ path: ".claude/worktrees/team+f1", branch: "refs/heads/worktree-team+f1", head: "origin/main" }]);

    installInProject(s);
    git(s.primary, "switch", "-q", "-c", "feat");
    git(s.primary, "commit", "-q", "--allow-empty", "-m", "feature");
    const exit: Turn = { tool: "ExitWorktree", input: { action: "remove", discard_changes: true } };
    const r = await claude(s.primary, ["--worktree", "team/f1", "-p", "hello", "--allowedTools", "ExitWorktree"], [{ text: "looked" }]);
    expect(r.code, r.stderr).toBe(0);
    const [w] = worktrees(s.primary);
    expect({ ...w, head: w?.head === git(s.primary, "rev-parse", "origin/main") ? "origin/main" : w?.head }).toEqual(nativeWorktrees[0]);
    const path = join(s.primary, ".claude", "worktrees", "team+f1");
    expect(r.requests.some((q) => mentions(q, `Primary working directory: ${path}`))).toBe(true);
    expect((s.orchard(["list"]).json.worktrees as any[]).filter((x) => x.managed)).toEqual([]); // Orchard took no part

    // the same name again: taken back with what the first session left; ExitWorktree keeps the work
    writeFileSync(join(path, "half-done.txt"), "precious\n");
    const write: Turn = { tool: "Bash", input: { command: "cat half-done.txt", description: "read" } };
    const again = await claude(s.primary, ["--worktree", "team/f1", "-p", "hello", "--allowedTools", "Bash", "ExitWorktree"], [write, exit]);
    expect(again.code, again.stderr).toBe(0);
    expect(readFileSync(join(path, "half-done.txt"), "utf8")).toBe("precious\n");
    // the model is told the truth (issue 49 item 12): the fallback exits 1 when it keeps work, so
    // ExitWorktree answers "could not remove it", never "Exited and removed worktree"
    const answer = JSON.stringify(again.requests.at(-1)?.messages);
    expect(answer).toContain(`Exited worktree but could not remove it. It is kept at \u201c${path}\u201d.`);
    expect(answer).not.toContain("Exited and removed worktree");
    expect(git(s.primary, "branch", "--list", "worktree-team+f1")).not.toBe("");

    // clean: ExitWorktree removes it, as native does
    const clean = await claude(s.primary, ["--worktree", "f2", "-p", "hello", "--allowedTools", "ExitWorktree"], [exit]);
    expect(clean.code, clean.stderr).toBe(0);
    expect(existsSync(join(s.primary, ".claude", "worktrees", "f2"))).toBe(false);
    expect(worktrees(s.primary).map((x) => x.path)).toEqual([".claude/worktrees/team+f1"]);
    // and its branch with it, as native does (the hook runs inside the worktree it removes: the delete runs from the primary)
    expect(git(s.primary, "branch", "--list", "worktree-f2")).toBe("");
    expect(JSON.stringify(clean.requests.at(-1)?.messages)).toContain("Exited and removed worktree");
  });

  it("a finished subagent's clean worktree goes with its branch, as native does (issue 49 item 12)", async () => {
    installInProject(s);
    const home = join(s.root, "claude-home");
    mkdirSync(home, { recursive: true });
    const subagent: Turn = {
      tool: "Agent",
      input: {
        description: "isolated work",
        prompt: "SUBAGENT-TASK: change nothing",
        subagent_type: "general-purpose",
        isolation: "worktree",
        run_in_background: false,
      },
    };
    api = await FakeMessagesApi.start((request, index) => (index === 0 ? subagent : { text: mentions(request, "SUBAGENT-TASK") ? "nothing to do" : "done" }));
    const r = await startClaude(["-p", "start an isolated subagent", "--allowedTools", "Agent"], { cwd: s.primary, home, apiUrl: api.url }).done;
    expect(r.code, r.stderr).toBe(0);
    expect(api.requests.some((q) => mentions(q, "SUBAGENT-TASK"))).toBe(true);
    expect(worktrees(s.primary)).toEqual([]);
    expect(git(s.primary, "branch", "--list", "worktree-agent-*")).toBe("");
  });
});
