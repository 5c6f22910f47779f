// `orchard copilot install|uninstall|session-start|session-end` (SPEC v5 §3.15) against the shapes
// Copilot CLI 1.0.102 reads and leaves: `$COPILOT_HOME/settings.json` (`worktreePathTemplate`, hooks
// keyed by PascalCase event with `{type: "command", bash}` entries, which get Claude Code's snake_case
// input), and worktrees at `<repo>.worktrees/<branchSlug>` or under the template.
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { CLI, Scenario } from "../helpers/scenario.js";
import { hermeticEnv } from "../helpers/env.js";

let s: Scenario;
let copilotHome: string;
beforeEach(() => {
  s = Scenario.create();
  copilotHome = join(s.root, "copilot-home");
});
afterEach(() => s.cleanup());

const file = () => join(copilotHome, "settings.json");
const orchard = (args: string[]) => s.orchard(args, { env: { COPILOT_HOME: copilotHome } });

function hook(command: "session-start" | "session-end", sessionId: string, cwd: string) {
  const event = command === "session-start" ? "SessionStart" : "SessionEnd";
  const input = {
    session_id: sessionId,
    cwd,
    hook_event_name: event,
    timestamp: "2026-01-01T00:00:00.000Z",
    ...(event === "SessionStart" ? { source: "new" } : { reason: "user_exit" }),
  };
  const r = spawnSync(process.execPath, [CLI, "--home", s.home, "--json", "copilot", command], {
    cwd: s.primary,
    env: hermeticEnv(),
    input: JSON.stringify(input),
    encoding: "utf8",
  });
  return { code: r.status, stderr: r.stderr, json: r.stdout ? JSON.parse(r.stdout) : null };
}

describe("copilot install|uninstall", () => {
  it("sets worktreePathTemplate under Orchard's home and adds the session hooks, once; uninstall removes the file it made", () => {
    const r = orchard(["copilot", "install", "--command", "orchard"]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.json).toMatchObject({ action: "installed", file: file() });
    expect(JSON.parse(readFileSync(file(), "utf8"))).toEqual({
      worktreePathTemplate: join(s.home, "copilot", "{repo}", "{branchSlug}"),
      hooks: {
        SessionStart: [{ type: "command", bash: "orchard copilot session-start" }],
        SessionEnd: [{ type: "command", bash: "orchard copilot session-end" }],
      },
    });
    expect(orchard(["copilot", "install", "--command", "orchard"]).json.action).toBe("unchanged");
    expect(orchard(["copilot", "uninstall"]).json.action).toBe("uninstalled");
    expect(existsSync(file())).toBe(false);
  });

  it("a user's settings come back byte for byte; a template the user set is kept, and said", () => {
    mkdirSync(copilotHome);
    const text = `${JSON.stringify({ model: "x", hooks: { sessionStart: [{ type: "command", bash: "./mine.sh" }] } }, null, 2)}\n`;
    writeFileSync(file(), text);
    expect(orchard(["copilot", "install", "--command", "orchard"]).code).toBe(0);
    expect(orchard(["copilot", "uninstall"]).json.action).toBe("uninstalled");
    expect(readFileSync(file(), "utf8")).toBe(text);
    const own = `${JSON.stringify({ worktreePathTemplate: "~/src/wt/{repo}/{branch}" }, null, 2)}\n`;
    writeFileSync(file(), own);
    const r = orchard(["copilot", "install", "--command", "orchard"]);
    expect(r.json.notes.map((n: { code: string }) => n.code).filter((c: string) => c !== "not_on_path")).toEqual(["template_kept"]);
    expect(JSON.parse(readFileSync(file(), "utf8")).worktreePathTemplate).toBe("~/src/wt/{repo}/{branch}");
    expect(orchard(["copilot", "uninstall"]).code).toBe(0);
    expect(readFileSync(file(), "utf8")).toBe(own);
  });
});

describe("copilot session-start and session-end", () => {
  it("adopts Copilot's worktree (under the template, or <repo>.worktrees/) for the session; releases it at the end, kept", () => {
    for (const [branch, path] of [
      ["feat-a", join(s.home, "copilot", "app", "feat-a")],
      ["feat/b", join(`${s.primary}.worktrees`, "feat-b")],
    ] as const) {
      const wt = s.worktree(branch, { path });
      const started = hook("session-start", `c-${branch}`, wt);
      expect(started.code, started.stderr).toBe(0);
      expect(started.json.session).toMatchObject({ action: "adopted", harness: "copilot", owner: `copilot:c-${branch}`, path: wt });
      expect(s.orchard(["status", wt]).json.worktree).toMatchObject({ managed: true, owner: `copilot:c-${branch}`, lock: { owner: { pid: process.pid } } });
      expect(hook("session-end", `c-${branch}`, wt).json.session.action).toBe("released");
      expect(existsSync(wt)).toBe(true);
    }
    const elsewhere = s.worktree("feat-c");
    expect(hook("session-start", "c-x", elsewhere).json.session.action).toBe("not_tracked");
  });
});
