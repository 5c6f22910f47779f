// A warm MCP server reads a repository's program settings (SPEC v3 §4.1) again only when a file
// they come from has changed (git/guard-cache.ts). Its trace shows each read; between calls the
// test plants programs the way an agent could (the repository's config, a worktree's
// config.worktree, an edit in place that keeps the size and the modification time), and every one
// is read before the next git call: no program runs.
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { execFileSync } from "node:child_process";
import { chmodSync, existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { Scenario, CLI, git } from "../helpers/scenario.js";
import { HERMETIC_ENV, hermeticEnv } from "../helpers/env.js";
import { PROCESS_TIMEOUT_MS } from "../helpers/time.js";

const REQUEST = { timeout: PROCESS_TIMEOUT_MS };
let s: Scenario;
let client: Client | undefined;

beforeEach(() => {
  s = Scenario.create();
});
afterEach(async () => {
  await client?.close();
  client = undefined;
  s.cleanup();
});

describe("the program guard of a warm MCP server", () => {
  it("is read again whenever a file it comes from changes, and only then; no planted program runs", async () => {
    // a tracked file whose attributes name the `evil` filter, as in config-programs.test.ts
    const markers = join(s.root, "markers");
    mkdirSync(markers);
    const program = join(s.root, "program.sh");
    writeFileSync(program, `#!/bin/sh\ntouch '${markers}'/"$1"\nexec cat\n`);
    chmodSync(program, 0o755);
    writeFileSync(join(s.primary, ".gitattributes"), "*.dat filter=evil\n");
    writeFileSync(join(s.primary, "data.dat"), "data\n");
    git(s.primary, "add", "-A");
    git(s.primary, "commit", "-q", "-m", "attributes");
    git(s.primary, "push", "-q", "origin", "main");

    let stderr = "";
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [CLI, "--home", s.home, "mcp"],
      cwd: s.primary,
      env: hermeticEnv({ ORCHARD_TRACE: "1" }) as Record<string, string>,
      stderr: "pipe",
    });
    transport.stderr?.on("data", (d: Buffer) => (stderr += d.toString()));
    client = new Client({ name: "orchard-test", version: "1.0.0" });
    await client.connect(transport, REQUEST);
    const call = async (name: string, args: Record<string, unknown>) => {
      const r = await client!.callTool({ name, arguments: args }, undefined, REQUEST);
      return JSON.parse((r.content as { text: string }[])[0]!.text);
    };
    const guardReads = () => stderr.split("\n").filter((line) => line.includes('"config","-z","--show-scope"')).length;
    /** The guard reads of one status call of the worktree, which reads its status (the filter's path). */
    const readsOfOneStatus = async (): Promise<number> => {
      const before = guardReads();
      const status = await call("orchard_status", { target: handle });
      expect(status.ok, JSON.stringify(status)).toBe(true);
      return guardReads() - before;
    };
    /** Until every config file (and the worktrees' admin dirs, their config.worktree) is older than the cache's racy margin. */
    const settle = async () => {
      const admins = join(s.primary, ".git", "worktrees");
      const worktreeConfigs = readdirSync(admins)
        .map((id) => join(admins, id, "config.worktree"))
        .filter((f) => existsSync(f));
      const files = [HERMETIC_ENV.GIT_CONFIG_GLOBAL!, join(s.primary, ".git", "config"), admins, ...worktreeConfigs];
      const newest = Math.max(...files.map((f) => Math.max(statSync(f).ctimeMs, statSync(f).mtimeMs)));
      while (Date.now() < newest + 2_100) await new Promise((resolve) => setTimeout(resolve, 100));
    };

    const added = await call("orchard_add", { branch: "feat-guard", owner: "agent-g" });
    expect(added.ok, JSON.stringify(added)).toBe(true);
    const handle = added.handle as string;
    await settle();
    await readsOfOneStatus(); // read, and kept: nothing changed within the margin
    expect(await readsOfOneStatus()).toBe(0);
    expect(await readsOfOneStatus()).toBe(0);

    // the repository's config names the filter's program: read again before the status
    git(s.primary, "config", "filter.evil.clean", `${program} repo-clean`);
    expect(await readsOfOneStatus()).toBe(1);

    // a worktree's config.worktree names it while the extension is off: git reads no config.worktree,
    // so none is watched (not read again) and the program does not run when the status cleans the file
    await settle();
    await readsOfOneStatus();
    const admin = git(added.path, "rev-parse", "--absolute-git-dir");
    writeFileSync(join(admin, "config.worktree"), `[filter "evil"]\n\tclean = ${program} off-clean\n`);
    writeFileSync(join(added.path, "data.dat"), "unseen\n");
    expect(await readsOfOneStatus()).toBe(0);
    expect(readdirSync(markers)).toEqual([]);
    // the extension turned on (the repository's config changed): read again, that file now counts
    git(s.primary, "config", "extensions.worktreeConfig", "true");
    expect(await readsOfOneStatus()).toBe(1);
    // and with it on, a change of a config.worktree alone is read again
    await settle();
    expect(await readsOfOneStatus()).toBe(1); // the last change was within the margin: read, now kept
    expect(await readsOfOneStatus()).toBe(0);
    git(added.path, "config", "--worktree", "filter.evil.clean", `${program} worktree-clean`);
    expect(await readsOfOneStatus()).toBe(1);

    // an edit in place that keeps the size and puts the modification time back: its change time tells
    await settle();
    expect(await readsOfOneStatus()).toBe(1); // the last change was within the margin: read, now kept
    expect(await readsOfOneStatus()).toBe(0);
    const config = join(s.primary, ".git", "config");
    const before = statSync(config, { bigint: true });
    const text = readFileSync(config, "utf8");
    writeFileSync(config, text.replace("repo-clean", "repo-klean"));
    // the modification time put back to the nanosecond (touch does what utimes' float seconds cannot)
    const ns = before.mtimeNs % 1_000_000_000n;
    execFileSync("touch", ["-m", "-d", `@${before.mtimeNs / 1_000_000_000n}.${String(ns).padStart(9, "0")}`, config]);
    const after = statSync(config, { bigint: true });
    expect([after.size, after.ino, after.mtimeNs]).toEqual([before.size, before.ino, before.mtimeNs]);
    expect(await readsOfOneStatus()).toBe(1);

    // a new worktree (a new config.worktree path, present or not) is a change too
    await settle();
    await readsOfOneStatus();
    const other = await call("orchard_add", { branch: "feat-other", owner: "agent-h" });
    expect(other.ok, JSON.stringify(other)).toBe(true);
    expect(await readsOfOneStatus()).toBe(1);

    // and nothing the repository named ever ran
    writeFileSync(join(added.path, "data.dat"), "changed\n");
    const dirty = await call("orchard_status", { target: handle });
    expect(dirty.ok, JSON.stringify(dirty)).toBe(true);
    expect(readdirSync(markers)).toEqual([]);
  });
});
