// A warm MCP server walks a worktree's history again only when the walk's object ids changed
// (core/facts/graphs.ts): a status of the same head beside the same remote-tracking tips reuses the
// walk, and every fact still matches git — a new commit, a push, a commit on the default branch, a
// replace ref that shows git another graph behind the same ids. Its trace counts the walks.
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { Scenario, CLI, git } from "../helpers/scenario.js";
import { hermeticEnv } from "../helpers/env.js";
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

describe("the history walks of a warm MCP server", () => {
  it("are kept for the same ids, walked again when an id changes, and every count is git's", async () => {
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
    const walks = () => stderr.split("\n").filter((line) => line.includes('["rev-list","--parents","--stdin"]')).length;
    /** One status: the worktree's unpushed count and merge verdict, and how many walks it ran. */
    const status = async () => {
      const before = walks();
      const r = await call("orchard_status", { target: handle });
      expect(r.ok, JSON.stringify(r)).toBe(true);
      return { unpushed: r.worktree.unpushed, merged: r.worktree.merged?.how ?? null, walks: walks() - before };
    };
    /** git's own count of the worktree's commits on no remote-tracking ref and not on main. */
    const gitUnpushed = () => Number(git(path, "rev-list", "--count", "HEAD", "--not", "--remotes", "refs/heads/main"));

    const added = await call("orchard_add", { branch: "feat-walk", owner: "agent-w" });
    expect(added.ok, JSON.stringify(added)).toBe(true);
    const handle = added.handle as string;
    const path = added.path as string;

    s.commit({ in: path, file: "a.txt", content: "a\n" });
    const first = await status();
    expect(first.walks).toBeGreaterThan(0);
    expect(first.unpushed).toBe(1);
    expect(first.unpushed).toBe(gitUnpushed());
    // the same head beside the same tips: the walks are kept
    expect(await status()).toEqual({ unpushed: 1, merged: null, walks: 0 });
    expect(await status()).toEqual({ unpushed: 1, merged: null, walks: 0 });

    // a new head: walked again
    s.commit({ in: path, file: "b.txt", content: "b\n" });
    expect(await status()).toMatchObject({ unpushed: 2, walks: first.walks });
    expect(gitUnpushed()).toBe(2);

    // pushed: a new remote-tracking tip, the same head and targets: the unpushed walk alone runs again
    git(path, "push", "-q", "origin", "feat-walk");
    const pushed = await status();
    expect(first.walks).toBe(2);
    expect(pushed).toMatchObject({ unpushed: 0, walks: 1 });
    expect(gitUnpushed()).toBe(0);
    expect((await status()).walks).toBe(0);

    // merged into main by a merge commit (a new default-branch tip): both walks again, the verdict follows
    git(s.primary, "merge", "-q", "--no-ff", "-m", "merge feat-walk", "feat-walk");
    expect(await status()).toEqual({ unpushed: 0, merged: "ancestor", walks: 2 });

    // a replace ref shows git another graph behind the same ids: every status walks while it is there
    s.commit({ in: path, file: "c.txt", content: "c\n" });
    const own = git(path, "rev-parse", "HEAD");
    await status();
    expect((await status()).walks).toBe(0);
    git(s.primary, "replace", own, git(s.primary, "rev-parse", "main"));
    const replaced = await status();
    expect(replaced.walks).toBeGreaterThan(0);
    expect(replaced.unpushed).toBe(gitUnpushed());
    expect((await status()).walks).toBeGreaterThan(0);
    git(s.primary, "replace", "-d", own);
    expect((await status()).unpushed).toBe(1);
    expect(gitUnpushed()).toBe(1);
  });
});
