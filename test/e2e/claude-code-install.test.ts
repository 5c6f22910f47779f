// `orchard claude-code install|uninstall` through the real CLI (SPEC v3 §3.14): a project install
// writes a portable command and says which, never a path of this machine; every value in a hook
// command is validated and shell-quoted; uninstall removes exactly what install wrote, and both keep
// the file's formatting. (test/claude-code/ runs the installed hooks under the real Claude Code.)
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { existsSync, mkdirSync, readFileSync, realpathSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { CLI, Scenario } from "../helpers/scenario.js";

let s: Scenario;
beforeEach(() => {
  s = Scenario.create();
});
afterEach(() => s.cleanup());

const projectFile = () => join(s.primary, ".claude", "settings.json");
const commandsIn = (file: string): string[] => {
  const hooks = JSON.parse(readFileSync(file, "utf8")).hooks as Record<string, { hooks: { command: string }[] }[]>;
  return Object.values(hooks).flatMap((groups) => groups.flatMap((g) => g.hooks.map((h) => h.command)));
};

describe("install --project writes a portable command", () => {
  it("the bin name `orchard` by default — even when run as node + script — and says so", () => {
    const r = s.orchard(["claude-code", "install", "--project"], { noHome: true });
    expect(r.code, r.stderr).toBe(0);
    expect(r.json).toMatchObject({ action: "installed", file: projectFile(), command: "orchard" });
    // each falls back to Claude Code's native behaviour where PATH has no orchard (a teammate without it)
    // through the script install writes beside the settings (committed with them): a short command
    const orchardFirst = (sub: string) => `sh "\${CLAUDE_PROJECT_DIR:-.}/.claude/orchard-hook.sh" ${sub}`;
    expect(commandsIn(projectFile())).toEqual([
      orchardFirst("claude-code worktree-create"),
      orchardFirst("claude-code worktree-remove"),
      orchardFirst("claude-code session-start"),
      orchardFirst("claude-code subagent-stop"),
    ]);
    const text = readFileSync(projectFile(), "utf8");
    expect(text).not.toContain(process.execPath);
    expect(text).not.toContain(realpathSync(CLI));
    expect(text).not.toContain(s.root);
    const human = s.orchard(["claude-code", "install", "--project", "--via", "npx", "--dry-run"], { noHome: true, json: false });
    expect(human.code, human.stderr).toBe(0);
    expect(human.stdout).toContain("(the hooks run `npx -y orchard-worktrees`)");
  });

  it("--via npx writes the published package through npx", () => {
    const r = s.orchard(["claude-code", "install", "--project", "--via", "npx"], { noHome: true });
    expect(r.code, r.stderr).toBe(0);
    expect(r.json.command).toBe("npx -y orchard-worktrees");
    expect(commandsIn(projectFile())[0]).toBe("npx -y orchard-worktrees claude-code worktree-create");
  });

  it("a path of this machine is refused for a project (--via path, --home): exit 2, nothing written", () => {
    for (const r of [
      s.orchard(["claude-code", "install", "--project", "--via", "path"], { noHome: true }),
      s.orchard(["claude-code", "install", "--project"]), // the scenario passes --home
      s.orchard(["claude-code", "install", "--project", "--via", "nvm"], { noHome: true }),
    ]) {
      expect(r.code, r.stderr).toBe(2);
      expect(r.json.error.message).toMatch(/never writes a path of this machine|--via must be one of/);
    }
    expect(existsSync(projectFile())).toBe(false);
  });

  it("--command is written as given (the escape hatch), --home and all", () => {
    const r = s.orchard(["claude-code", "install", "--project", "--command", "/opt/orchard/bin/orchard"]);
    expect(r.code, r.stderr).toBe(0);
    expect(commandsIn(projectFile())[0]).toBe("/opt/orchard/bin/orchard claude-code worktree-create");
  });

  it("a user install pins this node and script (and --home), quoted, when PATH does not find this program", () => {
    const config = join(s.root, "claude-config");
    const r = s.orchard(["claude-code", "install", "--user"], { env: { CLAUDE_CONFIG_DIR: config } });
    expect(r.code, r.stderr).toBe(0);
    const [create] = commandsIn(join(config, "settings.json"));
    expect(create).toBe(`${process.execPath} ${realpathSync(CLI)} --home ${s.home} claude-code worktree-create`);
  });
});

describe("install --policy (issue 20 item 10)", () => {
  it("an unknown policy is exit 2 and writes nothing; a shell command in it never lands in a hook", () => {
    const marker = join(s.root, "pwned");
    const r = s.orchard(["claude-code", "install", "--project", "--policy", `reuse-compatible; touch ${marker}`], { noHome: true });
    expect(r.code).toBe(2);
    expect(r.json.error.message).toContain("--policy must be one of isolated, reuse-compatible, recycle-terminal, exclusive-task");
    expect(existsSync(projectFile())).toBe(false);
    expect(existsSync(marker)).toBe(false);
    const ok = s.orchard(["claude-code", "install", "--project", "--policy", "exclusive-task"], { noHome: true });
    expect(ok.code, ok.stderr).toBe(0);
    expect(commandsIn(projectFile())[0]).toContain('orchard-hook.sh" claude-code worktree-create --policy exclusive-task');
  });

  it("a --home with a quote or a space is one shell word in a user install's command", () => {
    const config = join(s.root, "claude-config");
    const home = join(s.root, "it's a home");
    const r = s.orchard(["--home", home, "claude-code", "install", "--user", "--via", "bin"], { env: { CLAUDE_CONFIG_DIR: config } });
    expect(r.code, r.stderr).toBe(0);
    expect(r.json.command).toBe(`orchard --home '${home.replace("'", "'\\''")}'`);
  });
});

describe("uninstall removes exactly what install wrote", () => {
  const USER = { model: "x", hooks: { PreToolUse: [{ matcher: "Bash", hooks: [{ type: "command", command: "echo hi" }] }] }, env: { A: "1" } };

  for (const [style, text] of [
    ["compact", JSON.stringify(USER)],
    ["2-space", `${JSON.stringify(USER, null, 2)}\n`],
  ] as const)
    it(`${style}: install keeps the style and adds only Orchard's lines; uninstall gives the file back byte for byte`, () => {
      mkdirSync(join(s.primary, ".claude"));
      writeFileSync(projectFile(), text);
      const installed = s.orchard(["claude-code", "install", "--project"], { noHome: true, json: false });
      expect(installed.code, installed.stderr).toBe(0);
      const after = readFileSync(projectFile(), "utf8");
      if (style === "compact") expect(after).not.toContain("\n");
      else {
        const diff = installed.stdout.split("\n").slice(1);
        expect(diff.filter((l) => l.startsWith("- "))).toEqual([]);
        expect(diff.filter((l) => l.startsWith("+ ")).join("\n")).toContain('orchard-hook.sh\\" claude-code worktree-create"');
      }
      const removed = s.orchard(["claude-code", "uninstall", "--project"]);
      expect(removed.code, removed.stderr).toBe(0);
      expect(removed.json.action).toBe("uninstalled");
      expect(readFileSync(projectFile(), "utf8")).toBe(text);
      const again = s.orchard(["claude-code", "uninstall", "--project"]);
      expect(again.json.action).toBe("not_installed");
      expect(readFileSync(projectFile(), "utf8")).toBe(text);
    });

  it("--dry-run prints the diff and writes nothing; a user's hooks in Orchard's events stay", () => {
    const config = join(s.root, "claude-config");
    mkdirSync(config);
    const text = `${JSON.stringify({ hooks: { SessionStart: [{ hooks: [{ type: "command", command: "my-sweep" }] }] } }, null, 2)}\n`;
    writeFileSync(join(config, "settings.json"), text);
    const env = { CLAUDE_CONFIG_DIR: config };
    expect(s.orchard(["claude-code", "install", "--user", "--command", "orchard"], { env }).code).toBe(0);
    const installed = readFileSync(join(config, "settings.json"), "utf8");
    const dry = s.orchard(["claude-code", "uninstall", "--dry-run"], { env, json: false });
    expect(dry.code, dry.stderr).toBe(0);
    expect(dry.stdout).toMatch(/^- +"command": "orchard claude-code session-start"$/m);
    expect(dry.stdout).not.toMatch(/^- .*my-sweep/m);
    expect(readFileSync(join(config, "settings.json"), "utf8")).toBe(installed);
    expect(s.orchard(["claude-code", "uninstall"], { env }).code).toBe(0);
    expect(readFileSync(join(config, "settings.json"), "utf8")).toBe(text);
  });

  it("a settings file that is not JSON is exit 2 and stays as it was", () => {
    mkdirSync(join(s.primary, ".claude"));
    writeFileSync(projectFile(), "{ not json");
    const r = s.orchard(["claude-code", "uninstall", "--project"]);
    expect(r.code).toBe(2);
    expect(readFileSync(projectFile(), "utf8")).toBe("{ not json");
  });
});
