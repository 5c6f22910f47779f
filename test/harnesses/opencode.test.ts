// Orchard's OpenCode plugin (SPEC v5 §3.15) under the real OpenCode 1.18.33 server, offline: with
// the plugin installed in the project, OpenCode's "worktree" workspaces are made by `orchard add`,
// leased to the server process, and removed by `orchard remove` — which keeps a worktree with work
// in it (OpenCode forgets the workspace; hygiene still shows the worktree).
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { Scenario, git } from "../helpers/scenario.js";
import { orchardOnPath } from "../helpers/claude-code.js";
import { startOpencodeServer, type OpencodeServer } from "../helpers/opencode.js";

let s: Scenario;
let server: OpencodeServer | undefined;

beforeEach(() => {
  s = Scenario.create();
});

afterEach(async () => {
  await server?.stop();
  server = undefined;
  s.cleanup();
});

async function api(path: string, init: { method?: string; body?: unknown } = {}): Promise<any> {
  const url = `${server?.url}${path}${path.includes("?") ? "&" : "?"}directory=${encodeURIComponent(s.primary)}`;
  const response = await fetch(url, {
    method: init.method ?? "GET",
    ...(init.body === undefined ? {} : { body: JSON.stringify(init.body), headers: { "content-type": "application/json" } }),
  });
  const text = await response.text();
  expect(response.ok, text).toBe(true);
  return JSON.parse(text);
}

describe("opencode serve with Orchard's plugin", () => {
  it("makes each worktree workspace with orchard add, leased to the server; removal keeps work", async () => {
    // the project's plugin, committed as a team would; orchard found through PATH, the workspace through ORCHARD_HOME
    const install = s.orchard(["opencode", "install", "--project"], { noHome: true });
    expect(install.code, install.stderr).toBe(0);
    git(s.primary, "add", "-A");
    git(s.primary, "commit", "-q", "-m", "orchard as opencode's worktree adapter");
    const home = join(s.root, "user-home");
    mkdirSync(home);
    server = await startOpencodeServer({ cwd: s.primary, home, env: orchardOnPath(s.root, s.home) });

    expect(await api("/experimental/workspace/adapter")).toContainEqual(expect.objectContaining({ type: "worktree", name: "Worktree (Orchard)" }));
    const made = await api("/experimental/workspace", { method: "POST", body: { type: "worktree" } });
    expect(made.directory.startsWith(join(s.home, "worktrees", "app@opencode-"))).toBe(true);
    const status = s.orchard(["status", made.directory]).json.worktree;
    expect(status).toMatchObject({ managed: true, branch: made.branch, owner: `opencode:${made.id}`, lifecycle: "active" });
    expect(status.lock.owner.pid).toBe(server.pid);

    // work in it: OpenCode's removal goes through orchard remove, which keeps it
    writeFileSync(join(made.directory, "notes.txt"), "unsaved\n");
    await api(`/experimental/workspace/${made.id}`, { method: "DELETE" });
    expect(existsSync(join(made.directory, "notes.txt"))).toBe(true);
    expect(server.logs()).toMatch(/orchard: kept .*dirty/);
    expect((await api("/experimental/workspace")).map((w: { id: string }) => w.id)).not.toContain(made.id);
    expect(s.orchard(["status", made.directory]).json.worktree).toMatchObject({ managed: true, lifecycle: "terminal" });

    // a clean one goes
    const clean = await api("/experimental/workspace", { method: "POST", body: { type: "worktree" } });
    await api(`/experimental/workspace/${clean.id}`, { method: "DELETE" });
    expect(existsSync(clean.directory)).toBe(false);
  });
});
