// `orchard gemini install|uninstall|session-start|session-end` (SPEC v5 §3.15) driven as Gemini CLI
// drives them (Claude Code's hook shape in settings.json, its JSON on stdin), against the disk shape
// `gemini --worktree <name>` leaves: `<repo>/.gemini/worktrees/<name>` on branch `worktree-<name>`.
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, realpathSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { CLI, Scenario } from "../helpers/scenario.js";
import { hermeticEnv } from "../helpers/env.js";

let s: Scenario;
beforeEach(() => {
  s = Scenario.create();
});
afterEach(() => s.cleanup());

function hook(command: "session-start" | "session-end", payload: unknown) {
  const r = spawnSync(process.execPath, [CLI, "--home", s.home, "--json", "gemini", command], {
    cwd: s.primary,
    env: hermeticEnv(),
    input: JSON.stringify(payload),
    encoding: "utf8",
  });
  return { code: r.status, stderr: r.stderr, json: r.stdout ? JSON.parse(r.stdout) : null };
}

const payload = (event: "SessionStart" | "SessionEnd", sessionId: string, cwd: string) => ({
  session_id: sessionId,
  transcript_path: "/x.json",
  cwd,
  hook_event_name: event,
  timestamp: "2026-01-01T00:00:00Z",
  ...(event === "SessionStart" ? { source: "startup" } : { reason: "exit" }),
});

describe("gemini install|uninstall", () => {
  it("--project merges the hooks into .gemini/settings.json, once, keeping its style; uninstall gives it back byte for byte", () => {
    const file = join(s.primary, ".gemini", "settings.json");
    mkdirSync(join(s.primary, ".gemini"));
    const text = `${JSON.stringify({ experimental: { worktrees: true }, hooks: { BeforeTool: [{ matcher: "write_file", hooks: [{ type: "command", command: "check" }] }] } }, null, 2)}\n`;
    writeFileSync(file, text);
    const r = s.orchard(["gemini", "install", "--project"], { noHome: true });
    expect(r.code, r.stderr).toBe(0);
    expect(r.json).toMatchObject({ action: "installed", file, command: "orchard" });
    const installed = JSON.parse(readFileSync(file, "utf8"));
    expect(installed.hooks.SessionStart).toEqual([{ hooks: [{ type: "command", command: "orchard gemini session-start" }] }]);
    expect(installed.hooks.SessionEnd).toEqual([{ hooks: [{ type: "command", command: "orchard gemini session-end" }] }]);
    expect(installed.experimental).toEqual({ worktrees: true });
    expect(s.orchard(["gemini", "install", "--project"], { noHome: true }).json.action).toBe("unchanged");
    expect(s.orchard(["gemini", "uninstall", "--project"]).json.action).toBe("uninstalled");
    expect(readFileSync(file, "utf8")).toBe(text);
  });

  it("--user writes ~/.gemini/settings.json; uninstall removes the file it made", () => {
    const home = join(s.root, "user-home");
    const env = { HOME: home };
    expect(s.orchard(["gemini", "install", "--command", "orchard"], { env }).code).toBe(0);
    expect(existsSync(join(home, ".gemini", "settings.json"))).toBe(true);
    expect(s.orchard(["gemini", "uninstall"], { env }).json.action).toBe("uninstalled");
    expect(existsSync(join(home, ".gemini"))).toBe(false); // the directory install made for it too
  });
});

describe("gemini session-start and session-end", () => {
  it("adopts a `gemini --worktree` worktree in place for the session, leased to the hook's caller; releases it at the end, kept", () => {
    const path = s.worktree("worktree-feat", { path: join(s.primary, ".gemini", "worktrees", "feat") });
    const started = hook("session-start", payload("SessionStart", "g-1", path));
    expect(started.code, started.stderr).toBe(0);
    expect(started.json.session).toMatchObject({ action: "adopted", harness: "gemini", owner: "gemini:g-1", path });
    expect(s.orchard(["status", path]).json.worktree).toMatchObject({
      managed: true,
      branch: "worktree-feat",
      owner: "gemini:g-1",
      lock: { locked: true, owner: { kind: "orchard", pid: process.pid } },
    });
    const ended = hook("session-end", payload("SessionEnd", "g-1", path));
    expect(ended.json.session).toMatchObject({ action: "released" });
    expect(existsSync(path)).toBe(true);
    expect(s.orchard(["status", path]).json.worktree).toMatchObject({ lifecycle: "terminal", lock: { locked: false } });
  });

  it("a worktree held for another live session is never taken, nor released by another session's end", () => {
    const path = s.worktree("worktree-feat", { path: join(s.primary, ".gemini", "worktrees", "feat") });
    expect(hook("session-start", payload("SessionStart", "g-1", path)).json.session.action).toBe("adopted");
    const other = hook("session-start", payload("SessionStart", "g-2", path));
    expect(other.code, other.stderr).toBe(0);
    expect(other.json.session).toMatchObject({ ok: false, action: "refused" });
    expect(other.json.session.reasons.map((r: { code: string }) => r.code)).toEqual(["live_owner"]);
    expect(hook("session-end", payload("SessionEnd", "g-2", path)).json.session.action).toBe("not_held");
    expect(s.orchard(["status", path]).json.worktree).toMatchObject({ lifecycle: "active", owner: "gemini:g-1" });
  });

  it("a worktree Gemini CLI did not make is not adopted", () => {
    const path = s.worktree("worktree-feat");
    const r = hook("session-start", payload("SessionStart", "g-1", path));
    expect(r.json.session.action).toBe("not_tracked");
    expect(s.orchard(["status", realpathSync(path)]).json.worktree.managed).toBe(false);
  });
});
