// MCP leases name the client (SPEC v3 §3.12, issue 21 item 2): `orchard_add` without `pid` leases
// to the process the server serves — followed past the launcher it was started through (`sh -c`,
// the real `npx` running the package from a project's node_modules) — so when that client dies the
// worktree is dead at once, not live for the TTL. The client here is a real process of its own: the
// SDK's client in `node -e`, which the test kills.
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { spawn, type ChildProcess } from "node:child_process";
import { mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { createInterface } from "node:readline";
import { CLI, Scenario } from "../helpers/scenario.js";
import { hermeticEnv } from "../helpers/env.js";
import { PROCESS_TIMEOUT_MS } from "../helpers/time.js";

const ROOT = resolve(dirname(CLI), "../..");

/** An MCP client process: spawns the server as told, makes one call, prints its answer, then waits to be killed. */
const CLIENT = `
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
const { command, args, cwd, call, timeout } = JSON.parse(process.argv[1]);
const transport = new StdioClientTransport({ command, args, cwd, env: process.env, stderr: "inherit" });
const client = new Client({ name: "orchard-test-client", version: "1.0.0" });
await client.connect(transport, { timeout });
const r = await client.callTool({ name: call.name, arguments: call.arguments }, undefined, { timeout });
process.stdout.write(JSON.stringify({ pid: process.pid, result: JSON.parse(r.content[0].text) }) + "\\n");
setInterval(() => {}, 1 << 30);
`;

let s: Scenario;
let clients: ChildProcess[] = [];
beforeEach(() => {
  s = Scenario.create();
});
afterEach(() => {
  for (const c of clients) c.kill("SIGKILL");
  clients = [];
  s.cleanup();
});

interface Launch {
  command: string;
  args: string[];
  cwd: string;
}

/** Starts a client that calls one tool through `launch`; resolves with its pid and the tool's answer. */
function callFromClient(launch: Launch, call: { name: string; arguments: Record<string, unknown> }, env: Record<string, string> = {}) {
  const child = spawn(process.execPath, ["--input-type=module", "-e", CLIENT, JSON.stringify({ ...launch, call, timeout: PROCESS_TIMEOUT_MS })], {
    cwd: ROOT, // where the SDK resolves from
    env: hermeticEnv({ ORCHARD_HOME: s.home, ...env }),
    stdio: ["ignore", "pipe", "pipe"],
  });
  clients.push(child);
  let stderr = "";
  child.stderr?.on("data", (d: Buffer) => (stderr += d.toString()));
  return new Promise<{ pid: number; result: any; child: ChildProcess }>((done, fail) => {
    createInterface({ input: child.stdout! }).once("line", (line) => done({ ...(JSON.parse(line) as { pid: number; result: any }), child }));
    child.once("exit", (code) => fail(new Error(`the client exited ${code}: ${stderr}`)));
  });
}

async function killAndWait(child: ChildProcess): Promise<void> {
  const exited = new Promise((done) => child.once("exit", done));
  child.kill("SIGKILL");
  await exited;
}

const viaSh = (): Launch => ({ command: "sh", args: ["-c", `"${process.execPath}" "${CLI}" mcp; exit $?`], cwd: s.primary });

/** A project with orchard-worktrees as a dependency in node_modules (this build), so `npx -y orchard-worktrees` runs offline. */
function npxProject(): Launch {
  const project = join(s.root, "project");
  const pkg = join(project, "node_modules", "orchard-worktrees");
  mkdirSync(join(project, "node_modules", ".bin"), { recursive: true });
  mkdirSync(pkg);
  writeFileSync(join(project, "package.json"), JSON.stringify({ name: "project", version: "1.0.0", devDependencies: { "orchard-worktrees": "*" } }));
  writeFileSync(join(pkg, "package.json"), JSON.stringify({ name: "orchard-worktrees", version: "0.1.0", bin: { orchard: "dist/bin/orchard.js" } }));
  symlinkSync(join(ROOT, "dist"), join(pkg, "dist"));
  symlinkSync("../orchard-worktrees/dist/bin/orchard.js", join(project, "node_modules", ".bin", "orchard"));
  return { command: "npx", args: ["-y", "orchard-worktrees", "mcp"], cwd: project };
}

const NPM_OFFLINE = { npm_config_offline: "true", npm_config_update_notifier: "false", npm_config_fund: "false", npm_config_audit: "false" };

describe("orchard_add without pid leases to the MCP client", () => {
  for (const [name, launch, env] of [
    ["sh -c", viaSh, {}],
    ["npx -y orchard-worktrees (npm exec, then sh -c)", npxProject, NPM_OFFLINE],
  ] as const)
    it(`through ${name}: the lease names the client; after the client dies the worktree is dead`, async () => {
      const { pid, result, child } = await callFromClient(
        launch(),
        { name: "orchard_add", arguments: { branch: "feat/a", owner: "agent-1", repo: s.primary } },
        env,
      );
      expect(result).toMatchObject({ ok: true, action: "created" });
      const before = s.orchard(["status", result.path]).json.worktree;
      expect(before.lock.owner).toMatchObject({ kind: "orchard", pid });
      expect(before.liveness.state).toBe("live");
      await killAndWait(child);
      const after = s.orchard(["status", result.path]).json.worktree;
      expect(after.liveness.state).toBe("dead"); // not live for the 2 h TTL
      expect(after.liveness.signals.map((x: any) => x.code)).toContain("pid_dead");
    });

  it("a pid in the call wins", async () => {
    const holder = spawn(process.execPath, ["-e", "setInterval(() => {}, 1 << 30)"], { stdio: "ignore" });
    clients.push(holder);
    const { result } = await callFromClient(viaSh(), {
      name: "orchard_add",
      arguments: { branch: "feat/b", owner: "agent-1", pid: holder.pid, repo: s.primary },
    });
    expect(result.ok).toBe(true);
    expect(s.orchard(["status", result.path]).json.worktree.lock.owner).toMatchObject({ pid: holder.pid });
  });

  it("orchard_heartbeat without pid attaches the client to a lease that named no process", async () => {
    const added = s.orchard(["add", "feat/c", "--owner", "agent-1"]);
    expect(added.code, added.stderr).toBe(0);
    expect(s.orchard(["status", added.json.path]).json.worktree.lock.owner.pid ?? null).toBeNull();
    const { pid, result } = await callFromClient(viaSh(), {
      name: "orchard_heartbeat",
      arguments: { target: added.json.path, owner: "agent-1", repo: s.primary },
    });
    expect(result.ok).toBe(true);
    expect(s.orchard(["status", added.json.path]).json.worktree.lock.owner).toMatchObject({ pid });
  });
});

describe("a tool's error names its arguments", () => {
  it('orchard_add with ttl "5": exit-2-style error naming `ttl`, not `--ttl`; nothing created', async () => {
    const { result } = await callFromClient(viaSh(), { name: "orchard_add", arguments: { branch: "feat/d", ttl: "5", repo: s.primary } });
    expect(result).toMatchObject({ ok: false, error: { code: "invalid_argument" } });
    expect(result.error.message).toBe('ttl "5" needs a unit (e.g. 30m, 2h)');
    expect(s.orchard(["list"]).json.worktrees.filter((w: any) => w.managed)).toEqual([]);
  });
});
