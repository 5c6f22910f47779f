// `orchard opencode install|uninstall` and the plugin it writes (SPEC v5 §3.15). The plugin file is
// imported as OpenCode imports it and driven through the adapter API of @opencode-ai/plugin 1.18.x
// (`experimental_workspace.register("worktree", …)`: configure, create, remove, target; `event`),
// against a real repository and the real CLI: create is `orchard add` leased to the server process
// (here, this test's process), remove never deletes work, the env argument is never kept.
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { execFileSync, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, readdirSync, realpathSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { CLI, Scenario } from "../helpers/scenario.js";
import { HERMETIC_ENV } from "../helpers/env.js";

let s: Scenario;
let saved: NodeJS.ProcessEnv;
beforeEach(() => {
  s = Scenario.create();
  saved = { ...process.env };
});
afterEach(() => {
  process.env = saved;
  s.cleanup();
});

const projectFile = () => join(s.primary, ".opencode", "plugin", "orchard.js");

describe("opencode install|uninstall", () => {
  it("--project writes the plugin with a portable command, once; uninstall leaves the tree as it was", () => {
    const r = s.orchard(["opencode", "install", "--project"], { noHome: true });
    expect(r.code, r.stderr).toBe(0);
    expect(r.json).toMatchObject({ action: "installed", file: projectFile(), command: "orchard" });
    const text = readFileSync(projectFile(), "utf8");
    expect(text.split("\n")[0]).toBe("// orchard: OpenCode's worktree adapter, written by `orchard opencode install`");
    expect(text).toContain('const ORCHARD = ["orchard"];');
    expect(text).toContain('experimental_workspace.register("worktree"');
    expect(text).not.toContain(s.root);
    expect(s.orchard(["opencode", "install", "--project"], { noHome: true }).json.action).toBe("unchanged");
    expect(s.orchard(["opencode", "install", "--project", "--via", "path"], { noHome: true }).code).toBe(2); // never a path of this machine
    const removed = s.orchard(["opencode", "uninstall", "--project"]);
    expect(removed.json.action).toBe("uninstalled");
    expect(existsSync(join(s.primary, ".opencode"))).toBe(false);
    expect(s.orchard(["opencode", "uninstall", "--project"]).json.action).toBe("not_installed");
  });

  it("a plugin file of that name that is not Orchard's is a conflict (exit 2), left as it was; a user's other plugin stays", () => {
    mkdirSync(join(s.primary, ".opencode", "plugin"), { recursive: true });
    writeFileSync(projectFile(), "export default async () => ({});\n");
    const r = s.orchard(["opencode", "install", "--project"], { noHome: true });
    expect(r.code).toBe(2);
    expect(r.json.error.code).toBe("hook_conflict");
    expect(readFileSync(projectFile(), "utf8")).toBe("export default async () => ({});\n");
    expect(s.orchard(["opencode", "uninstall", "--project"]).json.action).toBe("not_installed");
    expect(readFileSync(projectFile(), "utf8")).toBe("export default async () => ({});\n");
    writeFileSync(projectFile(), "");
    writeFileSync(join(s.primary, ".opencode", "plugin", "mine.js"), "export default async () => ({});\n");
    execFileSync("rm", [projectFile()]);
    expect(s.orchard(["opencode", "install", "--project"], { noHome: true }).code).toBe(0);
    expect(s.orchard(["opencode", "uninstall", "--project"]).code).toBe(0);
    expect(readdirSync(join(s.primary, ".opencode", "plugin"))).toEqual(["mine.js"]);
  });
});

type Adapter = {
  configure(c: Info): Promise<Info>;
  create(c: Info, env: Record<string, string | undefined>): Promise<void>;
  remove(c: Info): Promise<void>;
  target(c: Info): { type: string; directory: string };
};
type Info = { id: string; type: string; name: string; branch: string | null; directory: string | null; extra: unknown; projectID: string };

/** The user-level plugin, installed for this node and script and workspace, loaded as OpenCode loads it. */
async function loadPlugin(): Promise<{ adapter: Adapter; event: (e: unknown) => Promise<void> }> {
  const config = join(s.root, "xdg-config");
  const r = s.orchard(["opencode", "install", "--user", "--via", "path"], { env: { XDG_CONFIG_HOME: config } });
  expect(r.code, r.stderr).toBe(0);
  const file = join(config, "opencode", "plugin", "orchard.js");
  expect(readFileSync(file, "utf8")).toContain(JSON.stringify([process.execPath, realpathSync(CLI), "--home", s.home]));
  // the plugin runs orchard with the server's environment: the hermetic one, here
  process.env = { ...saved, ...HERMETIC_ENV };
  for (const key of Object.keys(process.env)) if (key.startsWith("ORCHARD_") || (key.startsWith("GIT_") && !(key in HERMETIC_ENV))) delete process.env[key];
  const module = (await import(pathToFileURL(file).href)) as { default: (input: unknown) => Promise<{ event: (e: unknown) => Promise<void> }> };
  let adapter: Adapter | undefined;
  const hooks = await module.default({
    experimental_workspace: { register: (type: string, a: Adapter) => (type === "worktree" ? (adapter = a) : undefined) },
    worktree: s.primary,
    directory: s.primary,
  });
  expect(adapter).toBeDefined();
  return { adapter: adapter as Adapter, event: hooks.event };
}

const info = (id: string, name: string): Info => ({ id, type: "worktree", name, branch: null, directory: null, extra: null, projectID: "p1" });

describe("the plugin's worktree adapter", () => {
  it("create is `orchard add` leased to the server process; the env argument is never kept; remove keeps work", async () => {
    // OpenCode has opened this project (its marker holds the root commit): its own `opencode/<name>` branches are
    // harness_unverified unless Orchard made them; these are Orchard's, removable by the adapter
    writeFileSync(
      join(s.primary, ".git", "opencode"),
      execFileSync("git", ["-C", s.primary, "rev-list", "--max-parents=0", "HEAD"], { encoding: "utf8" }).trim(),
    );
    const { adapter, event } = await loadPlugin();
    const config = await adapter.configure(info("wrk_1", "feat a"));
    expect(config.branch).toBe("opencode/feat-a");
    expect(config.directory?.startsWith(join(s.home, "worktrees", "app@opencode-feat-a"))).toBe(true);
    await adapter.create(config, { OPENCODE_AUTH_CONTENT: "secret-auth-4f2a" });
    expect(adapter.target(config)).toEqual({ type: "local", directory: config.directory });
    const status = s.orchard(["status", config.directory as string]).json.worktree;
    expect(status).toMatchObject({ managed: true, branch: "opencode/feat-a", owner: "opencode:wrk_1", lifecycle: "active" });
    expect(status.harness).toEqual({ name: "opencode", session: "feat-a", tracked: false }); // Orchard's own: its lease judges it
    expect(status.lock.owner.pid).toBe(process.pid);
    const kept = spawnSync("grep", ["-rl", "secret-auth-4f2a", s.home, join(s.primary, ".git"), config.directory as string], { encoding: "utf8" });
    expect([kept.status, kept.stdout]).toEqual([1, ""]); // nowhere

    // work in it: remove refuses, the worktree stays, and says why
    writeFileSync(join(config.directory as string, "notes.txt"), "unsaved\n");
    const errors = vi.spyOn(console, "error").mockImplementation(() => undefined);
    await adapter.remove(config);
    expect(existsSync(join(config.directory as string, "notes.txt"))).toBe(true);
    expect(errors.mock.calls.flat().join("\n")).toMatch(/^orchard: kept .*: .*dirty/m);
    errors.mockRestore();

    // a clean one goes
    const clean = await adapter.configure(info("wrk_2", "feat b"));
    await adapter.create(clean, {});
    await event({ event: { type: "session.updated", properties: { info: { directory: clean.directory } } } });
    await event({ event: { type: "session.deleted", properties: { info: { directory: clean.directory } } } });
    expect(s.orchard(["status", clean.directory as string]).json.worktree).toMatchObject({ lifecycle: "terminal", owner: null });
    await adapter.remove(clean);
    expect(existsSync(clean.directory as string)).toBe(false);
    expect(execFileSync("git", ["-C", s.primary, "branch", "--list", "opencode/feat-b"], { encoding: "utf8" })).toBe("");
  });
});
