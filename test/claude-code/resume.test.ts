// `claude --resume` keeps its isolation (issue 22 item 4), proven against the real Claude Code: a
// finished `-p --worktree` session's worktree is kept by the orphan sweep while the session's
// transcript is younger than Claude Code's cleanupPeriodDays (`session_resumable`), so a resumed
// session goes on in its worktree, never in the primary; once the transcript is older than the
// period (or with --include-resumable) the sweep reaps it as before.
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { existsSync, mkdirSync, readdirSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { Scenario } from "../helpers/scenario.js";
import { FakeMessagesApi, scripted, type Turn } from "../helpers/fake-messages-api.js";
import { orchardOnPath, startClaude, installInProject } from "../helpers/claude-code.js";

let s: Scenario;
let api: FakeMessagesApi | undefined;
let claudeHome: string;
let claudeEnv: Record<string, string>;

beforeEach(() => {
  s = Scenario.create();
  claudeHome = join(s.root, "claude-home");
  mkdirSync(claudeHome);
  // the orphan sweep of these tests runs with no guard (a real one waits 5 minutes)
  writeFileSync(join(s.primary, ".orchard.json"), JSON.stringify({ reap: { guard: "1s" } }));
  installInProject(s);
  // the orchard the tests run reads Claude Code's configuration where Claude Code keeps it
  claudeEnv = { CLAUDE_CONFIG_DIR: join(claudeHome, ".claude") };
});

afterEach(() => {
  api?.close();
  api = undefined;
  s.cleanup();
});

async function claude(args: string[], turns: Turn[] = []) {
  api = await FakeMessagesApi.start(scripted(turns));
  const run = startClaude(args, { cwd: s.primary, home: claudeHome, apiUrl: api.url, env: orchardOnPath(s.root, s.home) });
  const result = await run.done;
  api.close();
  return result;
}

const managed = () => (s.orchard(["list"], { env: claudeEnv }).json.worktrees as any[]).filter((w) => w.managed);
const sweep = (...flags: string[]) => s.orchard(["reap-orphans", "--guard", "0s", ...flags], { env: claudeEnv });

/** A finished `claude -p --worktree f1` session: its worktree and session id. */
async function finishedSession(): Promise<{ path: string; sessionId: string }> {
  const r = await claude(["--worktree", "f1", "-p", "hello"]);
  expect(r.code, r.stderr).toBe(0);
  const [w] = managed();
  expect(w.liveness.state).toBe("dead"); // Claude Code has exited: only its transcript says the session can come back
  return { path: w.path, sessionId: (w.owner as string).slice("claude-code:".length) };
}

function transcriptOf(sessionId: string): string {
  const projects = join(claudeHome, ".claude", "projects");
  const file = readdirSync(projects)
    .map((dir) => join(projects, dir, `${sessionId}.jsonl`))
    .find((f) => existsSync(f));
  if (!file) throw new Error(`no transcript of ${sessionId} under ${projects}`);
  return file;
}

describe("a finished -p --worktree session can be resumed in its worktree", () => {
  it("the sweep keeps it (session_resumable); claude --resume goes on inside it, not in the primary", async () => {
    const { path, sessionId } = await finishedSession();
    const swept = sweep();
    expect(swept.code, swept.stderr).toBe(0);
    expect(swept.json.entries).toEqual([
      expect.objectContaining({ path, status: "skipped", reason: "session_resumable", detail: expect.stringContaining(`claude --resume ${sessionId}`) }),
    ]);
    expect(existsSync(path)).toBe(true);
    // the same sweep as Claude Code's SessionStart hook runs it: a new session starts, the worktree stays
    const other = await claude(["-p", "hello"]);
    expect(other.code, other.stderr).toBe(0);
    expect(existsSync(path)).toBe(true);

    const write: Turn = { tool: "Bash", input: { command: "echo resumed > resumed.txt", description: "write a file" } };
    const resumed = await claude(["--resume", sessionId, "-p", "go on", "--allowedTools", "Bash"], [write]);
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(existsSync(join(path, "resumed.txt"))).toBe(true);
    expect(existsSync(join(s.primary, "resumed.txt"))).toBe(false);
  });

  it("a sweep from another HOME (cron, CI, sudo) gives the same verdict: where the session lives was recorded when its worktree was made", async () => {
    const { path, sessionId } = await finishedSession();
    const other = { HOME: join(s.root, "other-home") }; // no CLAUDE_CONFIG_DIR: a config dir that knows nothing of the session
    for (const env of [claudeEnv, other]) {
      const report = s.orchard(["hygiene"], { env }).json.worktrees.find((w: any) => w.path === path);
      expect(report).toMatchObject({
        disposition: "idle",
        reasons: [expect.objectContaining({ code: "session_resumable", sessionId, transcript: transcriptOf(sessionId) })],
      });
    }
    const swept = s.orchard(["reap-orphans", "--guard", "0s"], { env: other });
    expect(swept.code, swept.stderr).toBe(0);
    expect(swept.json.entries).toEqual([expect.objectContaining({ path, status: "skipped", reason: "session_resumable" })]);
    const cleaned = s.orchard(["cleanup", "run"], { env: other });
    expect(cleaned.code, cleaned.stderr).toBe(0);
    expect(existsSync(path)).toBe(true);
  });

  it("a transcript older than cleanupPeriodDays no longer keeps it: the sweep reaps it", async () => {
    const { path, sessionId } = await finishedSession();
    writeFileSync(join(claudeHome, ".claude", "settings.json"), JSON.stringify({ cleanupPeriodDays: 3 }));
    const old = new Date(Date.now() - 4 * 24 * 3600 * 1000);
    utimesSync(transcriptOf(sessionId), old, old);
    const swept = sweep();
    expect(swept.code, swept.stderr).toBe(0);
    expect(swept.json.entries).toEqual([expect.objectContaining({ path, status: "reaped" })]);
    expect(existsSync(path)).toBe(false);
  });

  it("--include-resumable reaps it at once", async () => {
    const { path } = await finishedSession();
    expect(sweep().json.entries[0].reason).toBe("session_resumable");
    const swept = sweep("--include-resumable");
    expect(swept.code, swept.stderr).toBe(0);
    expect(swept.json.entries).toEqual([expect.objectContaining({ path, status: "reaped" })]);
    expect(existsSync(path)).toBe(false);
  });

  it("cleanup keeps it too (idle, session_resumable) unless --include-resumable", async () => {
    const { path, sessionId } = await finishedSession();
    const report = s.orchard(["hygiene"], { env: claudeEnv }).json.worktrees.find((w: any) => w.path === path);
    expect(report.disposition).toBe("idle");
    expect(report.reasons).toEqual([expect.objectContaining({ code: "session_resumable", sessionId })]);
    const kept = s.orchard(["cleanup", "run"], { env: claudeEnv });
    expect(kept.code, kept.stderr).toBe(0);
    expect(existsSync(path)).toBe(true);
    const run = s.orchard(["cleanup", "run", "--include-resumable"], { env: claudeEnv });
    expect(run.code, run.stderr).toBe(0);
    expect(existsSync(path)).toBe(false);
  });
});
