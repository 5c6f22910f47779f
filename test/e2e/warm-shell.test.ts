// The shell a warm process keeps for its git batches (git/warm/batch-shell.ts): an MCP server's and a
// library caller's (`Orchard.open({ warm: true })`) answer as git does, and the shell and its
// directory go with the process that kept it: a client that hangs up, a library script that ends.
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { CLI, Scenario, git, waitFor } from "../helpers/scenario.js";
import { hermeticEnv } from "../helpers/env.js";
import { PROCESS_TIMEOUT_MS } from "../helpers/time.js";
import { procState } from "../helpers/processes.js";

let s: Scenario;
beforeEach(() => {
  s = Scenario.create();
});
afterEach(() => s.cleanup());

/** The children of `pid` whose command line is the kept shell's (`sh -s -- <dir>`): [pid, dir]. */
function keptShells(pid: number): [number, string][] {
  const shells: [number, string][] = [];
  for (const entry of readdirSync("/proc").filter((e) => /^\d+$/.test(e))) {
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
      const parent = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
      const argv = readFileSync(`/proc/${entry}/cmdline`, "utf8").split("\0");
      if (parent === pid && argv[0] === "sh" && argv[1] === "-s") shells.push([Number(entry), argv[3]!]);
    } catch {
      // gone meanwhile
    }
  }
  return shells;
}
/** Running (a zombie no parent has reaped yet is not: its git has exited). */
const running = (pid: number): boolean => ![null, "Z"].includes(procState(pid));

describe.runIf(process.platform === "linux")("the shell a warm process keeps", () => {
  it("runs an MCP server's batches, answers as git does, and ends with the server", async () => {
    const tmp = mkdtempSync(join(s.root, "tmp-"));
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [CLI, "--home", s.home, "mcp"],
      cwd: s.primary,
      env: hermeticEnv({ TMPDIR: tmp }) as Record<string, string>,
      stderr: "ignore",
    });
    const client = new Client({ name: "orchard-test", version: "1.0.0" });
    await client.connect(transport, { timeout: PROCESS_TIMEOUT_MS });
    const call = async (name: string, args: Record<string, unknown>): Promise<any> => {
      const r = await client.callTool({ name, arguments: args }, undefined, { timeout: PROCESS_TIMEOUT_MS });
      return JSON.parse((r.content as { text: string }[])[0]!.text);
    };
    const added = await call("orchard_add", { branch: "feat-kept", owner: "agent-k" });
    expect(added.ok, JSON.stringify(added)).toBe(true);
    const server = transport.pid!;
    const shells = keptShells(server);
    expect(shells).toHaveLength(1);
    const [shell, dir] = shells[0]!;
    expect(resolve(dir, "..")).toBe(tmp);
    // dirty and unpushed as git says, through the kept shell
    writeFileSync(join(added.path, "notes.txt"), "new\n");
    git(added.path, "commit", "-q", "--allow-empty", "-m", "local");
    const status = await call("orchard_status", { target: added.handle });
    expect(status.ok, JSON.stringify(status)).toBe(true);
    expect(status.worktree.dirty).toMatchObject({
      tracked: 0,
      untracked: Number(git(added.path, "ls-files", "--others", "--exclude-standard").split("\n").length),
    });
    expect(status.worktree.unpushed).toBe(Number(git(added.path, "rev-list", "--count", "HEAD", "--not", "--remotes")));
    expect(status.worktree.unpushed).toBe(1);
    expect(keptShells(server).map(([pid]) => pid)).toEqual([shell]); // the same shell, call after call
    await client.close();
    await waitFor(() => !running(shell) && !existsSync(dir), "the kept shell to end with the server and take its directory");
  });

  it("lets a library script that opened warm end by itself, and leaves nothing behind", async () => {
    const tmp = mkdtempSync(join(s.root, "tmp-"));
    const added = s.orchard(["add", "feat-lib", "--owner", "agent-l"]).json;
    const index = resolve(CLI, "../../index.js");
    const script = `
      const { readdirSync } = await import("node:fs");
      const { Orchard } = await import(${JSON.stringify(index)});
      const orchard = await Orchard.open({ repo: ${JSON.stringify(s.primary)}, home: ${JSON.stringify(s.home)}, warm: true });
      const first = await orchard.status({ target: ${JSON.stringify(added.handle)} });
      const second = await orchard.status({ target: ${JSON.stringify(added.handle)} });
      console.log(JSON.stringify({ untracked: [first.worktree.dirty.untracked, second.worktree.dirty.untracked], dirs: readdirSync(process.env.TMPDIR) }));
      await orchard.close();`; // no exit: the process must end on its own
    const r = spawnSync(process.execPath, ["--input-type=module", "-e", script], {
      cwd: s.primary,
      env: hermeticEnv({ TMPDIR: tmp }),
      encoding: "utf8",
      timeout: PROCESS_TIMEOUT_MS,
    });
    expect(r.status, r.stderr).toBe(0);
    const seen = JSON.parse(r.stdout) as { untracked: number[]; dirs: string[] };
    expect(seen.untracked).toEqual([0, 0]);
    expect(seen.dirs.filter((d) => d.startsWith("orchard-batches-"))).toHaveLength(1);
    await waitFor(() => readdirSync(tmp).every((d) => !d.startsWith("orchard-batches-")), "the kept shell's directory to go");
  });
});

describe("the refs a warm MCP server keeps (git/warm/refs-kept.ts)", () => {
  it("answers a status without for-each-ref while no ref or config changed; a push is read again, counted as git counts", async () => {
    const { tracedServer } = await import("../helpers/mcp-traced.js");
    const server = await tracedServer(s.home, s.primary);
    try {
      const added = await server.call("orchard_add", { branch: "feat-refs", owner: "agent-r" });
      expect(added.ok, JSON.stringify(added)).toBe(true);
      git(added.path, "commit", "-q", "--allow-empty", "-m", "local");
      const refsRuns = () => server.traced('"for-each-ref"');
      const unpushed = () => Number(git(added.path, "rev-list", "--count", "HEAD", "--not", "--remotes"));
      // every file of the repository older than the racy margin (the commit above is the newest change)
      const settle = async () => {
        const until = Date.now() + 2_200;
        while (Date.now() < until) await new Promise((resolve) => setTimeout(resolve, 100));
      };
      await settle();
      expect((await server.call("orchard_status", { target: added.handle })).worktree.unpushed).toBe(unpushed());
      const before = refsRuns();
      for (let i = 0; i < 3; i++) expect((await server.call("orchard_status", { target: added.handle })).worktree.unpushed).toBe(1);
      expect(refsRuns()).toBe(before); // kept: no for-each-ref
      git(added.path, "push", "-q", "-u", "origin", "feat-refs");
      expect((await server.call("orchard_status", { target: added.handle })).worktree.unpushed).toBe(unpushed());
      expect(unpushed()).toBe(0);
      expect(refsRuns()).toBe(before + 1); // the push changed the refs: asked of git again
    } finally {
      await server.client.close();
    }
  });
});
