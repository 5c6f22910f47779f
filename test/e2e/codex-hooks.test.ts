// `orchard codex install|uninstall|session-start|session-end` (SPEC v5 §3.15) driven as Codex drives
// them — its JSON on stdin, the real CLI — against the exact disk shape Codex 0.171.0 leaves
// (`$CODEX_HOME/worktrees/<4 hex>/<repo>`, detached, `codex-thread.json` and a `config.worktree`
// naming its own path in the admin dir). test/harnesses/ runs the hooks under the real Codex.
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { CLI, Scenario } from "../helpers/scenario.js";
import { hermeticEnv } from "../helpers/env.js";
import { orchardOnPath } from "../helpers/claude-code.js";
import { codexWorktree as codexWorktreeIn } from "../helpers/codex.js";

let s: Scenario;
let codexHome: string;
beforeEach(() => {
  s = Scenario.create();
  codexHome = join(s.root, "codex-home");
});
afterEach(() => s.cleanup());

/** A worktree as `codex exec --worktree` leaves it for thread `thread`. */
const codexWorktree = (thread: string, id = "a1b2"): string => codexWorktreeIn(s, codexHome, thread, id);

function hook(command: "session-start" | "session-end", payload: unknown, options: { cwd?: string; json?: boolean } = {}) {
  const input = typeof payload === "string" ? payload : JSON.stringify(payload);
  const r = spawnSync(process.execPath, [CLI, "--home", s.home, ...(options.json ? ["--json"] : []), "codex", command], {
    cwd: options.cwd ?? s.primary,
    env: hermeticEnv({ CODEX_HOME: codexHome }),
    input,
    encoding: "utf8",
  });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr, json: options.json && r.stdout ? JSON.parse(r.stdout) : null };
}

const start = (sessionId: string, cwd: string, source = "startup") =>
  hook("session-start", { session_id: sessionId, transcript_path: null, cwd, hook_event_name: "SessionStart", model: "gpt-test", source }, { json: true });
const end = (sessionId: string, cwd: string) =>
  hook("session-end", { session_id: sessionId, cwd, hook_event_name: "SessionEnd", reason: "other" }, { json: true });

describe("codex install|uninstall", () => {
  const file = () => join(codexHome, "hooks.json");
  const install = (...args: string[]) => s.orchard(["codex", "install", "--command", "orchard", ...args], { env: { CODEX_HOME: codexHome } });

  it("writes $CODEX_HOME/hooks.json with SessionStart and SessionEnd, once; says Codex must trust them", () => {
    const r = install();
    expect(r.code, r.stderr).toBe(0);
    expect(r.json).toMatchObject({ action: "installed", file: file(), command: "orchard" });
    expect(r.json.notes.map((n: { code: string }) => n.code).filter((c: string) => c !== "not_on_path")).toEqual(["harness_trust"]);
    const text = readFileSync(file(), "utf8");
    expect(JSON.parse(text)).toEqual({
      hooks: {
        SessionStart: [{ hooks: [{ type: "command", command: "orchard codex session-start" }] }],
        SessionEnd: [{ hooks: [{ type: "command", command: "orchard codex session-end" }] }],
      },
    });
    expect(install().json.action).toBe("unchanged");
    expect(readFileSync(file(), "utf8")).toBe(text);
    // a new command replaces Orchard's in place
    expect(install("--dry-run").json.action).toBe("unchanged");
    const moved = s.orchard(["codex", "install", "--command", "/opt/orchard"], { env: { CODEX_HOME: codexHome } });
    expect(moved.json.action).toBe("installed");
    expect(JSON.parse(readFileSync(file(), "utf8")).hooks.SessionStart).toEqual([
      { hooks: [{ type: "command", command: "/opt/orchard codex session-start" }] },
    ]);
  });

  it("uninstall removes a file install made, and gives a user's file back byte for byte (their hooks stay)", () => {
    expect(install().code).toBe(0);
    const removed = s.orchard(["codex", "uninstall"], { env: { CODEX_HOME: codexHome } });
    expect(removed.code, removed.stderr).toBe(0);
    expect(removed.json.action).toBe("uninstalled");
    expect(existsSync(file())).toBe(false);
    mkdirSync(codexHome);
    for (const text of [
      JSON.stringify({ hooks: { SessionStart: [{ matcher: "startup", hooks: [{ type: "command", command: "my-notes" }] }] } }),
      `${JSON.stringify({ hooks: { Stop: [{ hooks: [{ type: "command", command: "say done", timeout: 5 }] }] } }, null, 4)}\n`,
    ]) {
      writeFileSync(file(), text);
      expect(install().code).toBe(0);
      expect(readFileSync(file(), "utf8")).not.toBe(text);
      expect(s.orchard(["codex", "uninstall"], { env: { CODEX_HOME: codexHome } }).json.action).toBe("uninstalled");
      expect(readFileSync(file(), "utf8")).toBe(text);
      expect(s.orchard(["codex", "uninstall"], { env: { CODEX_HOME: codexHome } }).json.action).toBe("not_installed");
    }
  });

  it("says when `orchard` is not on PATH (the hooks would fail), and not when it is", () => {
    const codes = (env: Record<string, string>) =>
      s
        .orchard(["codex", "install", "--via", "bin", "--dry-run"], { noHome: true, env: { CODEX_HOME: codexHome, ...env } })
        .json.notes.map((n: { code: string }) => n.code);
    expect(codes({ PATH: "/usr/bin:/bin" })).toEqual(["not_on_path", "harness_trust"]);
    expect(codes(orchardOnPath(s.root, s.home))).toEqual(["harness_trust"]);
  });

  it("a hooks.json that is not JSON is exit 2 and stays as it was", () => {
    mkdirSync(codexHome, { recursive: true });
    writeFileSync(file(), "{ nope");
    expect(install().code).toBe(2);
    expect(readFileSync(file(), "utf8")).toBe("{ nope");
  });
});

describe("codex session-start and session-end", () => {
  it("adopts the thread's own worktree in place: owner codex:<session>, leased to the hook's caller, locked; released at the end and kept", () => {
    const path = codexWorktree("thread-1");
    const r = start("thread-1", path);
    expect(r.code, r.stderr).toBe(0);
    expect(r.json.session).toMatchObject({ ok: true, action: "adopted", harness: "codex", owner: "codex:thread-1", path });
    expect(r.json.sweep.ok).toBe(true);
    const status = s.orchard(["status", path]).json.worktree;
    expect(status).toMatchObject({ managed: true, branch: null, owner: "codex:thread-1", lifecycle: "active" });
    // leased to the process that ran the hook (Codex), past launchers, in Orchard's lock line
    expect(status.lock).toMatchObject({ locked: true, owner: { kind: "orchard", pid: process.pid } });
    expect(status.liveness.signals.map((x: { code: string }) => x.code)).toContain("pid_alive");
    const ended = end("thread-1", path);
    expect(ended.code, ended.stderr).toBe(0);
    expect(ended.json.session).toMatchObject({ action: "released", owner: "codex:thread-1" });
    expect(existsSync(path)).toBe(true);
    const after = s.orchard(["status", path]).json.worktree;
    expect(after).toMatchObject({ managed: true, lifecycle: "terminal", owner: null });
    expect(after.lock.locked).toBe(false);
    // a resumed session takes its worktree back
    const resumed = start("thread-1", path, "resume");
    expect(resumed.json.session).toMatchObject({ action: "adopted" });
    expect(s.orchard(["status", path]).json.worktree).toMatchObject({ lifecycle: "active", owner: "codex:thread-1" });
    expect(start("thread-1", path, "resume").json.session.action).toBe("renewed");
  });

  it("another session, the primary, a worktree without codex-thread.json: nothing adopted; session-end releases nothing", () => {
    const path = codexWorktree("thread-1");
    const plain = s.worktree("feat-x");
    for (const [session, cwd] of [
      ["thread-2", path],
      ["thread-1", s.primary],
      ["thread-1", plain],
    ] as const) {
      const r = start(session, cwd);
      expect(r.code, r.stderr).toBe(0);
      expect(r.json.session.action).toBe("not_tracked");
    }
    expect(s.orchard(["list"]).json.worktrees.filter((w: { managed: boolean }) => w.managed)).toEqual([]);
    expect(start("thread-1", path).json.session.action).toBe("adopted");
    expect(end("thread-2", path).json.session.action).toBe("not_tracked");
    expect(s.orchard(["status", path]).json.worktree).toMatchObject({ lifecycle: "active", owner: "codex:thread-1" });
  });

  it("the hook's own output is Codex's hook JSON or nothing; outside a repository it says nothing and exits 0", () => {
    const path = codexWorktree("thread-1");
    const quiet = hook("session-start", { session_id: "thread-1", cwd: path, hook_event_name: "SessionStart", source: "startup" });
    expect(quiet.code, quiet.stderr).toBe(0);
    expect(quiet.stdout).toBe("");
    const outside = realpathSync(mkdtempSync(join(tmpdir(), "orchard-no-repo-")));
    for (const command of ["session-start", "session-end"] as const) {
      const r = hook(
        command,
        { session_id: "t", cwd: outside, hook_event_name: command === "session-start" ? "SessionStart" : "SessionEnd" },
        { cwd: outside },
      );
      expect([r.code, r.stdout, r.stderr]).toEqual([0, "", ""]);
    }
  });

  it("bad input is exit 2 and changes nothing", () => {
    const path = codexWorktree("thread-1");
    for (const input of [
      "not json",
      "[]",
      JSON.stringify({ session_id: "thread-1", cwd: "relative" }),
      JSON.stringify({ session_id: "thread-1", cwd: path, hook_event_name: "Stop" }),
    ]) {
      const r = hook("session-start", input);
      expect(r.code).toBe(2);
      expect(r.stderr).toMatch(/^orchard: /);
    }
    expect(s.orchard(["list"]).json.worktrees.filter((w: { managed: boolean }) => w.managed)).toEqual([]);
  });
});
