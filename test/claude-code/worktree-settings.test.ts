// Claude Code's worktree settings honoured by Orchard's WorktreeCreate hook (issue 22 item 3),
// proven against the real Claude Code: `worktree.baseRef: "head"` starts the session's worktree
// from the branch the primary has checked out; `worktree.symlinkDirectories` links the primary's
// directories into it, and removing the worktree never follows the link; `worktree.sparsePaths`
// checks out only those directories; a value that cannot be honoured fails the session, naming it.
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { existsSync, lstatSync, mkdirSync, readFileSync, readlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { Scenario, git } from "../helpers/scenario.js";
import { FakeMessagesApi, mentions, scripted, type Turn } from "../helpers/fake-messages-api.js";
import { orchardOnPath, startClaude, installInProject } from "../helpers/claude-code.js";

let s: Scenario;
let api: FakeMessagesApi | undefined;
let claudeHome: string;
let requests: FakeMessagesApi["requests"] = [];

beforeEach(() => {
  s = Scenario.create();
  claudeHome = join(s.root, "claude-home");
  mkdirSync(claudeHome);
  // `node_modules/` matches a directory only: the worktree's link is untracked to git
  writeFileSync(join(s.primary, ".gitignore"), "node_modules/\n");
  mkdirSync(join(s.primary, "node_modules", "pkg"), { recursive: true });
  writeFileSync(join(s.primary, "node_modules", "pkg", "index.js"), "module.exports = 1;\n");
  installInProject(s);
});

afterEach(() => {
  api?.close();
  api = undefined;
  s.cleanup();
});

/** Claude Code's project settings with `worktree` set (the file install wrote, its hooks kept). */
function setWorktreeSettings(worktree: Record<string, unknown>): void {
  const file = join(s.primary, ".claude", "settings.json");
  const settings = JSON.parse(readFileSync(file, "utf8"));
  writeFileSync(file, JSON.stringify({ ...settings, worktree }, null, 2));
  git(s.primary, "commit", "-q", "-am", "worktree settings");
}

async function claude(args: string[], turns: Turn[] = []) {
  api = await FakeMessagesApi.start(scripted(turns));
  const run = startClaude(args, { cwd: s.primary, home: claudeHome, apiUrl: api.url, env: orchardOnPath(s.root, s.home) });
  const result = await run.done;
  api.close();
  requests = api.requests;
  return result;
}

const managed = () => (s.orchard(["list"]).json.worktrees as any[]).filter((w) => w.managed);

describe("worktree.baseRef", () => {
  it('"head": the session starts from the branch the primary is on, not from main', async () => {
    setWorktreeSettings({ baseRef: "head" });
    git(s.primary, "switch", "-q", "-c", "feat");
    writeFileSync(join(s.primary, "feature.txt"), "unpushed work\n");
    git(s.primary, "add", "feature.txt");
    git(s.primary, "commit", "-q", "-m", "feature work, not on main");
    const feat = git(s.primary, "rev-parse", "HEAD");
    const r = await claude(["--worktree", "f1", "-p", "hello"]);
    expect(r.code, r.stderr).toBe(0);
    const [w] = managed();
    expect(w.branch).toBe("worktree-f1");
    expect(git(w.path, "rev-parse", "HEAD")).toBe(feat);
    expect(readFileSync(join(w.path, "feature.txt"), "utf8")).toBe("unpushed work\n");
    expect(w.base).toMatchObject({ ref: "refs/heads/feat", commit: feat });
  });

  it("a value Claude Code does not know: its file is set aside with a warning, as Claude Code does, and the session goes on; the model is told (issue 49 item 14)", async () => {
    // in a layer of its own: Claude Code 2.1.332 sets aside a settings file with an invalid value, hooks and all
    writeFileSync(join(s.primary, ".claude", "settings.local.json"), JSON.stringify({ worktree: { baseRef: "bogus" } }));
    const main = git(s.primary, "rev-parse", "HEAD");
    git(s.primary, "switch", "-q", "-c", "feat");
    git(s.primary, "commit", "-q", "--allow-empty", "-m", "feature work");
    const r = await claude(["--worktree", "f1", "-p", "hello"]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain("settings.local.json (worktree.baseRef): Invalid value"); // Claude Code's own warning
    const [w] = managed();
    expect(git(w.path, "rev-parse", "HEAD")).toBe(main);
    expect(requests.some((q) => mentions(q, "without one of Claude Code's settings, as Claude Code itself would"))).toBe(true);
  });

  it('"fresh" (and unset) starts from the default branch', async () => {
    setWorktreeSettings({ baseRef: "fresh" });
    const main = git(s.primary, "rev-parse", "HEAD");
    git(s.primary, "switch", "-q", "-c", "feat");
    git(s.primary, "commit", "-q", "--allow-empty", "-m", "feature work");
    const r = await claude(["--worktree", "f1", "-p", "hello"]);
    expect(r.code, r.stderr).toBe(0);
    const [w] = managed();
    expect(git(w.path, "rev-parse", "HEAD")).toBe(main);
  });
});

describe("worktree.symlinkDirectories", () => {
  it("links the primary's node_modules into the session's worktree; removing the clean worktree never follows the link", async () => {
    setWorktreeSettings({ symlinkDirectories: ["node_modules"] });
    const exit: Turn = { tool: "ExitWorktree", input: { action: "remove", discard_changes: true } };
    let linked: { link: string; clean: string } | undefined;
    api = await FakeMessagesApi.start((_request, index) => {
      if (index === 0) {
        const [w] = managed();
        linked = { link: readlinkSync(join(w.path, "node_modules")), clean: git(w.path, "status", "--porcelain") };
      }
      return index === 0 ? exit : { text: "done" };
    });
    const run = startClaude(["--worktree", "f1", "-p", "hello", "--allowedTools", "ExitWorktree"], {
      cwd: s.primary,
      home: claudeHome,
      apiUrl: api.url,
      env: orchardOnPath(s.root, s.home),
    });
    const r = await run.done;
    expect(r.code, r.stderr).toBe(0);
    // during the session: a link to the primary's directory (untracked to git, not work to Orchard)
    expect(linked?.link).toBe(join(s.primary, "node_modules"));
    expect(linked?.clean).toBe("?? node_modules\n".trim());
    // ExitWorktree removed the clean worktree, and the primary's directory behind the link is whole
    expect(existsSync(join(s.home, "worktrees", "app@worktree-f1"))).toBe(false);
    expect(managed()).toEqual([]);
    expect(lstatSync(join(s.primary, "node_modules")).isDirectory()).toBe(true);
    expect(readFileSync(join(s.primary, "node_modules", "pkg", "index.js"), "utf8")).toBe("module.exports = 1;\n");
  });
});

describe("worktree.sparsePaths", () => {
  it("the session's worktree checks out only those directories (cone mode) and the root's files", async () => {
    for (const dir of ["packages/app", "packages/lib"]) {
      mkdirSync(join(s.primary, dir), { recursive: true });
      writeFileSync(join(s.primary, dir, "index.js"), `// ${dir}\n`);
    }
    git(s.primary, "add", "-A");
    git(s.primary, "commit", "-q", "-m", "two packages");
    setWorktreeSettings({ sparsePaths: ["packages/app"] });
    const r = await claude(["--worktree", "f1", "-p", "hello"]);
    expect(r.code, r.stderr).toBe(0);
    const [w] = managed();
    expect(readFileSync(join(w.path, "packages", "app", "index.js"), "utf8")).toBe("// packages/app\n");
    expect(existsSync(join(w.path, "packages", "lib"))).toBe(false);
    expect(existsSync(join(w.path, ".gitignore"))).toBe(true);
    expect(git(w.path, "sparse-checkout", "list")).toBe("packages/app");
    expect(git(w.path, "status", "--porcelain")).toBe("");
    // the primary stays whole
    expect(existsSync(join(s.primary, "packages", "lib", "index.js"))).toBe(true);
  });

  it("a value Claude Code would not accept is refused loudly: the session fails naming it, install writes nothing (exit 2)", async () => {
    setWorktreeSettings({ sparsePaths: ["../elsewhere"] });
    const r = await claude(["--worktree", "f1", "-p", "hello"]);
    expect(r.code).not.toBe(0);
    expect(r.stdout + r.stderr).toContain('worktree.sparsePaths entry "../elsewhere" climbs out of the repository');
    // what the person reads: the short installed command, then Orchard's sentence (issue 49 item 13)
    const failed = (r.stdout + r.stderr).split("\n").find((l) => l.includes("WorktreeCreate hook failed")) ?? "";
    expect(failed.slice(0, failed.indexOf("orchard: "))).toMatch(
      /WorktreeCreate hook failed: sh "\$\{CLAUDE_PROJECT_DIR:-\.\}\/\.claude\/orchard-hook\.sh" claude-code worktree-create: $/,
    );
    expect(managed()).toEqual([]);
    const before = readFileSync(join(s.primary, ".claude", "settings.json"), "utf8");
    const install = s.orchard(["claude-code", "install", "--project", "--policy", "reuse-compatible"], { noHome: true, json: false });
    expect(install.code).toBe(2);
    expect(install.stderr).toContain("worktree.sparsePaths");
    expect(readFileSync(join(s.primary, ".claude", "settings.json"), "utf8")).toBe(before);
  });
});

describe("claude --settings <file|json> (SPEC v4 §3.14: every layer Claude Code reads)", () => {
  it("the flag's worktree settings apply, as a file relative to where Claude started and as inline JSON, over the project's", async () => {
    git(s.primary, "switch", "-q", "-c", "feat");
    git(s.primary, "commit", "-q", "--allow-empty", "-m", "feature work, not on main");
    const feat = git(s.primary, "rev-parse", "HEAD");
    // a file, relative: baseRef "head" (the project says nothing)
    writeFileSync(join(s.root, "flag-settings.json"), JSON.stringify({ worktree: { baseRef: "head" } }));
    const byFile = await claude(["--settings", "../flag-settings.json", "--worktree", "f1", "-p", "hello"]);
    expect(byFile.code, byFile.stderr).toBe(0);
    const [f1] = managed();
    expect(git(f1.path, "rev-parse", "HEAD")).toBe(feat);
    expect(byFile.stderr).not.toContain("--settings");
    // inline JSON wins over the project's file: the project says "fresh" and no links
    setWorktreeSettings({ baseRef: "fresh" });
    const inline = await claude(["--worktree", "f2", `--settings={"worktree":{"baseRef":"head","symlinkDirectories":["node_modules"]}}`, "-p", "hello"]);
    expect(inline.code, inline.stderr).toBe(0);
    const f2 = managed().find((w) => w.branch === "worktree-f2");
    expect(git(f2.path, "rev-parse", "HEAD")).toBe(git(s.primary, "rev-parse", "HEAD"));
    expect(readlinkSync(join(f2.path, "node_modules"))).toBe(join(s.primary, "node_modules"));
  });
});
