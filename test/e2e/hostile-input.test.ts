// Hostile and mistaken input gets the answer SPEC v3 gives it (issue 20 items 9 and 11):
// - `lease.ttl: "0s"` in .orchard.json is refused as `--ttl 0s` is (every lease would be born dead);
// - `reap-orphans` exits 0 on a bad .orchard.json (reaps nothing, says why): a hostile repository
//   must not fail every agent's session start; only a bad command line is exit 2 for it;
// - `hygiene --html <a directory>` is invalid input (exit 2), before any work;
// - control and bidirectional-override characters are refused in owner, task and branch (exit 2
//   invalid_input, CLI and MCP alike), and data that already holds them is shown escaped in the
//   tables and the HTML report.
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { existsSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { Scenario, CLI, deadPid, git } from "../helpers/scenario.js";
import { hermeticEnv } from "../helpers/env.js";
import { PROCESS_TIMEOUT_MS } from "../helpers/time.js";

let s: Scenario;
beforeEach(() => {
  s = Scenario.create();
});
afterEach(() => s.cleanup());

const RLO = "\u202e";
const managed = () => (existsSync(join(s.home, "worktrees")) ? readdirSync(join(s.home, "worktrees")) : []);

describe("lease.ttl in .orchard.json", () => {
  it('"0s" and a bare number are refused like --ttl 0s: exit 2 invalid_config naming lease.ttl, nothing created', () => {
    expect(s.orchard(["add", "feat-a", "--owner", "a", "--ttl", "0s"]).code).toBe(2);
    for (const ttl of ["0s", "0m", "5"]) {
      writeFileSync(join(s.primary, ".orchard.json"), JSON.stringify({ lease: { ttl } }));
      const r = s.orchard(["add", "feat-a", "--owner", "a"]);
      expect(r.code, ttl).toBe(2);
      expect(r.json.error.code).toBe("invalid_config");
      expect(r.json.error.message).toContain("lease.ttl");
    }
    expect(managed()).toEqual([]);
    writeFileSync(join(s.primary, ".orchard.json"), JSON.stringify({ lease: { ttl: "30m" } }));
    expect(s.orchard(["add", "feat-a", "--owner", "a"]).code).toBe(0);
  });
});

describe("reap-orphans on a bad .orchard.json", () => {
  it("exits 0, reaps nothing and says why; a bad command line is still exit 2", () => {
    const orphan = s.worktree("worktree-agent-a", { lock: `claude agent a (pid ${deadPid()})` });
    s.ageLock(orphan, 600);
    writeFileSync(join(s.primary, ".orchard.json"), "{ not json");
    const r = s.orchard(["reap-orphans"]);
    expect(r.code).toBe(0);
    expect(r.json).toMatchObject({ ok: false, reaped: 0, error: { code: "invalid_config" } });
    expect(r.stderr).toContain("nothing reaped");
    expect(existsSync(join(orphan, "README.md"))).toBe(true);
    const human = s.orchard(["reap-orphans"], { json: false });
    expect(human.code).toBe(0);
    expect(human.stderr).toContain(".orchard.json");
    writeFileSync(join(s.primary, ".orchard.json"), JSON.stringify({ lease: { ttl: "0s" } }));
    expect(s.orchard(["reap-orphans"]).code).toBe(0);
    expect(s.orchard(["reap-orphans", "--guard", "soon"]).code).toBe(2);
  });
});

describe("hygiene --html", () => {
  it("a directory, or a file in no directory, is exit 2 before any work", () => {
    const dir = join(s.root, "report");
    mkdirSync(dir);
    for (const target of [dir, join(s.root, "no-such-dir", "r.html")]) {
      const r = s.orchard(["hygiene", "--html", target]);
      expect(r.code, target).toBe(2);
      expect(r.json.error.code).toBe("invalid_argument");
    }
    expect(readdirSync(dir)).toEqual([]);
  });
});

describe("control and bidi characters", () => {
  it("are refused in owner, task and branch: exit 2 invalid_input, nothing created", () => {
    const cases: [string, string[]][] = [
      ["owner", ["add", "feat-a", "--owner", `agent${RLO}1`]],
      ["task", ["add", "feat-a", "--task", `fix ${RLO}gpj.exe`]],
      ["isolate", ["add", "feat-a", "--task", "a\u2066b\u2069"]],
      ["branch", ["add", `feat${RLO}a`]],
      ["branch control", ["add", "feat\u0085a"]],
      ["release owner", ["release", "app@x", "--owner", `a${RLO}`]],
    ];
    for (const [what, args] of cases) {
      const r = s.orchard(args);
      expect(r.code, what).toBe(2);
      expect(r.json.error.code, what).toBe("invalid_input");
    }
    expect(managed()).toEqual([]);
    expect(git(s.primary, "branch", "--list")).not.toContain("feat");
  });

  it("the MCP tool refuses them the same way", async () => {
    const env = hermeticEnv() as Record<string, string>;
    const transport = new StdioClientTransport({ command: process.execPath, args: [CLI, "--home", s.home, "mcp"], cwd: s.primary, env, stderr: "pipe" });
    const client = new Client({ name: "orchard-test", version: "1.0.0" });
    await client.connect(transport, { timeout: PROCESS_TIMEOUT_MS });
    try {
      const r = await client.callTool({ name: "orchard_add", arguments: { branch: "feat-a", owner: `agent${RLO}` } }, undefined, {
        timeout: PROCESS_TIMEOUT_MS,
      });
      expect(JSON.parse((r.content as { text: string }[])[0]?.text ?? "")).toMatchObject({ ok: false, error: { code: "invalid_input" } });
    } finally {
      await client.close();
    }
    expect(managed()).toEqual([]);
  });

  it("data that already holds them is shown escaped in tables and the HTML report", () => {
    // a branch made with plain git (git accepts U+202E in a ref name): Orchard did not name it, it only shows it
    const branch = `worktree-agent-${RLO}gpj.exe`;
    s.worktree(branch, { path: join(s.root, "foreign", "agent-x") });
    const human = s.orchard(["hygiene"], { json: false });
    expect(human.code).toBe(0);
    expect(human.stdout).not.toContain(RLO);
    expect(human.stdout).toContain("worktree-agent-\\u{202e}gpj.exe");
    const page = join(s.root, "report.html");
    expect(s.orchard(["hygiene", "--html", page]).code).toBe(0);
    const html = readFileSync(page, "utf8");
    expect(html).not.toContain(RLO);
    expect(html).toContain("worktree-agent-\\u{202e}gpj.exe");
  });
});
