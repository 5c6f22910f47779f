// A parent crash does not pin its subagents' worktrees (issue 40 item 1), proven against the real
// Claude Code: a session starts three isolated subagents in the background — A commits, B writes an
// untracked file, C does nothing — and is killed with -9 while all of them wait on the model.
// `claude --resume <parent>` would go on in the primary, never in a subagent's worktree, so none of
// them is `session_resumable`, whatever HOME the sweep runs with: C is reaped, A and B are kept
// and reported as the work they hold.
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { existsSync, mkdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { Scenario, waitFor } from "../helpers/scenario.js";
import { FakeMessagesApi, type MessagesRequest, type Turn } from "../helpers/fake-messages-api.js";
import { orchardOnPath, startClaude, installInProject } from "../helpers/claude-code.js";

let s: Scenario;
let api: FakeMessagesApi | undefined;
let claudeHome: string;

beforeEach(() => {
  s = Scenario.create();
  claudeHome = join(s.root, "claude-home");
  mkdirSync(claudeHome);
  installInProject(s);
});

afterEach(() => {
  api?.close();
  api = undefined;
  s.cleanup();
});

const agent = (marker: string): Turn => ({
  tool: "Agent",
  input: {
    description: `subagent ${marker}`,
    prompt: `${marker}: do your part`,
    subagent_type: "general-purpose",
    isolation: "worktree",
    run_in_background: true,
  },
});
const bash = (command: string): Turn => ({ tool: "Bash", input: { command, description: "work" } });

/** The text of a request's first message: a subagent's is its prompt. */
function firstMessage(request: MessagesRequest): string {
  return JSON.stringify(request.messages[0]?.content ?? "");
}

/** Each subagent's turns, then it waits on the model for ever (held); the parent starts the three, then waits too. */
const SUBAGENTS: Record<string, Turn[]> = {
  "SUBAGENT-A": [bash("echo a > a.txt && git add a.txt && git commit -q -m 'a' && echo committed")],
  "SUBAGENT-B": [bash("echo b > b-notes.txt && echo written")],
  "SUBAGENT-C": [],
};

const managed = (env: Record<string, string> = {}) => (s.orchard(["list"], { env }).json.worktrees as any[]).filter((w) => w.managed);

describe("kill -9 of a parent whose three isolated subagents worked", () => {
  it("reaps the clean one and keeps the two holding work as work, from Claude's HOME and from another", async () => {
    const steps = new Map<string, number>();
    let parent = 0;
    api = await FakeMessagesApi.start((request) => {
      const marker = Object.keys(SUBAGENTS).find((m) => firstMessage(request).includes(m));
      if (marker === undefined) return parent < 3 ? agent(["SUBAGENT-A", "SUBAGENT-B", "SUBAGENT-C"][parent++] as string) : { hold: true };
      const step = steps.get(marker) ?? 0;
      steps.set(marker, step + 1);
      return (SUBAGENTS[marker] as Turn[])[step] ?? { hold: true };
    });
    const run = startClaude(["-p", "start three isolated subagents", "--allowedTools", "Agent", "Bash"], {
      cwd: s.primary,
      home: claudeHome,
      apiUrl: api.url,
      env: orchardOnPath(s.root, s.home),
    });
    // the parent and all three subagents wait on the model, A and B after their work
    await waitFor(() => (api as FakeMessagesApi).holding >= 4, "the parent and its three subagents to wait on the model");
    const during = managed();
    expect(during).toHaveLength(3);
    const byFile = (file: string) => during.find((w) => existsSync(join(w.path, file)));
    const a = byFile("a.txt");
    const b = byFile("b-notes.txt");
    const c = during.find((w) => w !== a && w !== b);
    expect(a && b && c).toBeTruthy();
    for (const w of during) expect(w.branch).toMatch(/^worktree-agent-a[0-9a-f]{16}$/);
    run.kill();
    await run.done;
    for (const w of during) s.ageLock(w.path, 3600); // the crash was an hour ago: past the sweep's guard

    const claudeEnv = { CLAUDE_CONFIG_DIR: join(claudeHome, ".claude") }; // where the parent's transcript is
    const otherEnv = { HOME: join(s.root, "other-home") };
    for (const env of [claudeEnv, otherEnv]) {
      const report = s.orchard(["hygiene"], { env }).json.worktrees;
      const of = (w: any) => report.find((r: any) => r.path === w.path);
      expect(report.flatMap((r: any) => r.reasons.map((x: any) => x.code))).not.toContain("session_resumable");
      expect(of(a)).toMatchObject({ disposition: "needs_salvage", reasons: expect.arrayContaining([expect.objectContaining({ code: "work_not_preserved" })]) });
      expect(of(b)).toMatchObject({
        disposition: "needs_salvage",
        reasons: expect.arrayContaining([expect.objectContaining({ code: "dirty", untracked: 1 })]),
      });
      expect(of(c)).toMatchObject({ disposition: "reapable" });
      const planned = s.orchard(["reap-orphans", "--dry-run"], { env }).json.entries;
      const entry = (w: any) => planned.find((e: any) => e.path === w.path);
      expect(entry(a)).toMatchObject({ status: "skipped", reason: "branch_not_merged" });
      expect(entry(b)).toMatchObject({ status: "skipped", reason: "worktree_dirty" });
      expect(entry(c)).toMatchObject({ status: "planned", reason: "pid_dead_and_merged" });
    }

    const swept = s.orchard(["reap-orphans"], { env: otherEnv });
    expect(swept.code, swept.stderr).toBe(0);
    expect(swept.json.reaped).toBe(1);
    expect(existsSync(c.path)).toBe(false);
    expect(readFileSync(join(b.path, "b-notes.txt"), "utf8")).toBe("b\n");
    expect(s.git("log", "-1", "--format=%s", a.branch)).toBe("a");
    expect(
      managed()
        .map((w) => w.path)
        .sort(),
    ).toEqual([a.path, b.path].sort());
  });
});
