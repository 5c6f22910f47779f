// Orchard's MCP server as the real Claude Code meets it (docs/recipes.md, issue 22 item 7 and issue
// 21 item 2): a project's `.mcp.json` runs `npx -y orchard-worktrees mcp` (the package is the
// project's devDependency here, so npx runs it offline); Claude Code connects, lists every tool, and
// a scripted turn calls orchard_add. The lease names the Claude Code process — found past npx's
// `npm exec` and its shell — so the worktree is live while the session runs and dead once it ends.
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { CLI, Scenario } from "../helpers/scenario.js";
import { FakeMessagesApi, type MessagesRequest } from "../helpers/fake-messages-api.js";
import { orchardOnPath, startClaude } from "../helpers/claude-code.js";
import { TOOLS } from "../../src/mcp/tools.js";
import { PROCESS_TIMEOUT_MS } from "../helpers/time.js";

const ROOT = resolve(dirname(CLI), "../..");

let s: Scenario;
let api: FakeMessagesApi | undefined;
let claudeHome: string;

beforeEach(() => {
  s = Scenario.create();
  claudeHome = join(s.root, "claude-home");
  mkdirSync(claudeHome);
  // the project has orchard-worktrees as a devDependency (this build) and the recipe's .mcp.json
  const pkg = join(s.primary, "node_modules", "orchard-worktrees");
  mkdirSync(pkg, { recursive: true });
  writeFileSync(join(pkg, "package.json"), JSON.stringify({ name: "orchard-worktrees", version: "0.1.0", bin: { orchard: "dist/bin/orchard.js" } }));
  symlinkSync(join(ROOT, "dist"), join(pkg, "dist"));
  mkdirSync(join(s.primary, "node_modules", ".bin"));
  symlinkSync("../orchard-worktrees/dist/bin/orchard.js", join(s.primary, "node_modules", ".bin", "orchard"));
  writeFileSync(join(s.primary, "package.json"), JSON.stringify({ name: "app", private: true, devDependencies: { "orchard-worktrees": "*" } }));
  writeFileSync(
    join(s.primary, ".mcp.json"),
    `${JSON.stringify({ mcpServers: { orchard: { command: "npx", args: ["-y", "orchard-worktrees", "mcp"] } } }, null, 2)}\n`,
  );
  // the user approved the project's servers (Claude Code runs a project's .mcp.json only once approved;
  // 2.1.332 takes this setting from the user's settings, not from the project's settings.local.json)
  mkdirSync(join(claudeHome, ".claude"));
  writeFileSync(join(claudeHome, ".claude", "settings.json"), JSON.stringify({ enableAllProjectMcpServers: true }));
});

afterEach(() => {
  api?.close();
  api = undefined;
  s.cleanup();
});

describe("Claude Code with Orchard's MCP server from .mcp.json", () => {
  it("connects from .mcp.json and calls orchard_add; the lease names the Claude Code process", async () => {
    let offered: string[] = [];
    let during: any;
    let answer: string | undefined;
    api = await FakeMessagesApi.start((request: MessagesRequest, index) => {
      if (index === 0) {
        offered = (request.tools ?? []).map((t) => t.name);
        return { tool: "mcp__orchard__orchard_add", input: { branch: "feat/mcp", owner: "claude-mcp", repo: s.primary } };
      }
      if (index === 1) {
        answer = JSON.stringify(request.messages.at(-1)?.content);
        during = s.orchard(["list"]).json.worktrees.find((w: any) => w.branch === "feat/mcp");
      }
      return { text: "done" };
    });
    const run = startClaude(["-p", "take a worktree", "--allowedTools", "mcp__orchard__orchard_add"], {
      cwd: s.primary,
      home: claudeHome,
      apiUrl: api.url,
      // Claude Code gives a server 30 s to connect (MCP_TIMEOUT): npx on a loaded machine can take longer
      env: {
        ...orchardOnPath(s.root, s.home),
        npm_config_offline: "true",
        npm_config_update_notifier: "false",
        MCP_TIMEOUT: String(PROCESS_TIMEOUT_MS),
        // Claude Code 2.1.x defers MCP tools behind ToolSearch; offered directly, the model's first turn can call one
        ENABLE_TOOL_SEARCH: "false",
      },
    });
    const done = await run.done;
    expect(done.code, done.stderr).toBe(0);
    // Claude Code 2.1.x may defer MCP tools behind ToolSearch: offered directly or not, the call below is the proof
    if (offered.some((n) => n.startsWith("mcp__orchard__")))
      expect(offered.filter((n) => n.startsWith("mcp__orchard__")).sort()).toEqual(TOOLS.map((t) => `mcp__orchard__${t.name}`).sort());
    expect(answer).toContain('\\"ok\\":true');
    expect(during).toMatchObject({ managed: true, owner: "claude-mcp", lock: { owner: { kind: "orchard", pid: run.pid } } });
    expect(during.liveness.state).toBe("live");
    const after = s.orchard(["status", during.path]).json.worktree;
    expect(after.liveness.state).toBe("dead"); // the session is over: not live for the 2 h TTL
  });
});
