// Agent-tool subagents with worktree isolation, run by the real Claude Code: with Orchard's hook the
// subagent's worktree is managed and leased to Claude Code, whose `kill -9` ends the lease at once
// (SPEC §4.11); without the hook, Claude Code's own locked agent worktree is reaped by
// `reap-orphans` only when nothing would be lost, and so is the lock Claude Code leaves on a
// `claude --worktree` session's own worktree. The subagent's request is held unanswered, so the kill
// lands mid-subagent.
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { Scenario, git, waitFor } from "../helpers/scenario.js";
import { FakeMessagesApi, mentions, type Turn } from "../helpers/fake-messages-api.js";
import { orchardOnPath, startClaude, type ClaudeRun, installInProject } from "../helpers/claude-code.js";

let s: Scenario;
let api: FakeMessagesApi | undefined;
let claudeHome: string;

beforeEach(() => {
  s = Scenario.create();
  claudeHome = join(s.root, "claude-home");
  mkdirSync(claudeHome);
});

afterEach(() => {
  api?.close();
  api = undefined;
  s.cleanup();
});

const SUBAGENT: Turn = {
  tool: "Agent",
  input: {
    description: "isolated work",
    prompt: "SUBAGENT-TASK: change nothing",
    subagent_type: "general-purpose",
    isolation: "worktree",
    run_in_background: false,
  },
};

/** Starts Claude Code, whose first turn spawns an isolated subagent; resolves once the subagent is mid-request. */
async function claudeWithSubagent(): Promise<ClaudeRun> {
  api = await FakeMessagesApi.start((request, index) => (index === 0 ? SUBAGENT : mentions(request, "SUBAGENT-TASK") ? { hold: true } : { text: "done" }));
  const run = startClaude(["-p", "start an isolated subagent", "--allowedTools", "Agent"], {
    cwd: s.primary,
    home: claudeHome,
    apiUrl: api.url,
    env: orchardOnPath(s.root, s.home),
  });
  await waitFor(() => (api as FakeMessagesApi).holding > 0, "the subagent's first request");
  return run;
}

const worktrees = () => s.orchard(["list"]).json.worktrees as any[];

describe("an Agent-tool subagent through Orchard's hook", () => {
  beforeEach(() => {
    installInProject(s);
  });

  it("is managed and leased to Claude Code; after kill -9 the lease is dead and cleanup collects it", async () => {
    const run = await claudeWithSubagent();
    const [w] = worktrees().filter((x) => x.managed);
    expect(w.branch).toMatch(/^worktree-agent-a[0-9a-f]{16}$/);
    expect(w.lock.owner).toMatchObject({ kind: "orchard", pid: run.pid });
    expect(w.liveness.state).toBe("live");
    run.kill();
    await run.done;
    expect(s.orchard(["status", w.path]).json.worktree.liveness.state).toBe("dead");
    const cleaned = s.orchard(["cleanup", "run"]);
    expect(cleaned.code, cleaned.stderr).toBe(0);
    expect(cleaned.json.items).toContainEqual(expect.objectContaining({ path: w.path, action: "reap", state: "done" }));
    expect(existsSync(w.path)).toBe(false);
  });

  it("after kill -9, reap-orphans reaps the subagent's clean worktree by its dead lease", async () => {
    const run = await claudeWithSubagent();
    const [w] = worktrees().filter((x) => x.managed);
    run.kill();
    await run.done;
    s.ageLock(w.path, 3600); // past the reaper's guard for fresh locks
    const r = s.orchard(["reap-orphans"]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.json.entries).toEqual([expect.objectContaining({ path: w.path, status: "reaped" })]);
    expect(existsSync(w.path)).toBe(false);
    expect(s.orchard(["lineage", w.handle]).json.events.map((e: any) => e.kind)).toContain("reaped");
  });

  it("after kill -9, a subagent worktree holding work is kept by cleanup and reap-orphans", async () => {
    const run = await claudeWithSubagent();
    const [w] = worktrees().filter((x) => x.managed);
    writeFileSync(join(w.path, "agent-notes.txt"), "unfinished\n");
    run.kill();
    await run.done;
    s.ageLock(w.path, 3600);
    const cleaned = s.orchard(["cleanup", "run"]);
    expect(cleaned.code, cleaned.stderr).toBe(0);
    expect(cleaned.json.kept).toContainEqual(expect.objectContaining({ path: w.path, disposition: "needs_salvage" }));
    const reaped = s.orchard(["reap-orphans"]);
    expect(reaped.code, reaped.stderr).toBe(0);
    expect(reaped.json.entries).toEqual([expect.objectContaining({ path: w.path, status: "skipped" })]);
    expect(readFileSync(join(w.path, "agent-notes.txt"), "utf8")).toBe("unfinished\n");
    expect(worktrees().filter((x) => x.managed)).toEqual([expect.objectContaining({ path: w.path, handle: w.handle })]);
  });
});

describe("a subagent that returns, with Orchard's SubagentStop hook (SPEC v3 §3.14)", () => {
  beforeEach(() => {
    installInProject(s);
  });

  /** Runs Claude Code to its end: its first turn spawns an isolated subagent, whose turns are `inside`; returns the subagent's worktree as listed while it ran. */
  async function subagentThatReturns(inside: Turn[]): Promise<any> {
    let step = 0;
    let during: any;
    api = await FakeMessagesApi.start((request, index) => {
      if (index === 0) return SUBAGENT;
      if (!mentions(request, "SUBAGENT-TASK")) return { text: "done" };
      during ??= worktrees().find((x) => x.managed);
      return step < inside.length ? (inside[step++] as Turn) : { text: "done" };
    });
    const run = startClaude(["-p", "start an isolated subagent", "--allowedTools", "Agent", "Bash"], {
      cwd: s.primary,
      home: claudeHome,
      apiUrl: api.url,
      env: orchardOnPath(s.root, s.home),
    });
    const done = await run.done;
    expect(done.code, done.stderr).toBe(0);
    expect(during?.branch).toMatch(/^worktree-agent-a[0-9a-f]{16}$/);
    return during;
  }

  it("a clean subagent worktree is released and removed when the subagent returns, as Claude Code does natively", async () => {
    const w = await subagentThatReturns([]);
    expect(existsSync(w.path)).toBe(false);
    expect(worktrees()).toEqual([]);
    expect(s.orchard(["lineage", w.handle]).json.events.map((e: any) => e.kind)).toEqual(expect.arrayContaining(["created", "released", "removed"]));
  });

  it("a subagent worktree holding work is released and kept with its work, nothing lost", async () => {
    const during = await subagentThatReturns([{ tool: "Bash", input: { command: "echo unfinished > agent-notes.txt", description: "write notes" } }]);
    const [w] = worktrees().filter((x) => x.managed);
    expect(w).toMatchObject({ handle: during.handle, lifecycle: "terminal" });
    expect(readFileSync(join(w.path, "agent-notes.txt"), "utf8")).toBe("unfinished\n");
    expect(s.orchard(["lineage", w.handle]).json.events.map((e: any) => e.kind)).toEqual(expect.arrayContaining(["created", "released"]));
  });
});

describe("Claude Code's own agent worktree (no Orchard hook)", () => {
  it("carries Claude Code's real lock; after kill -9 reap-orphans reaps it when merged and clean", async () => {
    const run = await claudeWithSubagent();
    const [w] = worktrees().filter((x) => !x.managed);
    expect(w.path).toContain(join(s.primary, ".claude", "worktrees", "agent-a"));
    expect(w.lock.reason).toMatch(new RegExp(`^claude agent agent-a[0-9a-f]{16} \\(pid ${run.pid} start \\d+\\)$`));
    run.kill();
    await run.done;
    s.ageLock(w.path, 3600); // the crash was an hour ago: past the reaper's guard for fresh locks
    const r = s.orchard(["reap-orphans"]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.json.entries).toEqual([expect.objectContaining({ path: w.path, status: "reaped" })]);
    expect(existsSync(w.path)).toBe(false);
  });

  it("a `claude --worktree` session's own lock stays after the session; reap-orphans reaps it when merged and clean", async () => {
    api = await FakeMessagesApi.start(() => ({ text: "done" }));
    const run = startClaude(["--worktree", "f1", "-p", "hello"], { cwd: s.primary, home: claudeHome, apiUrl: api.url });
    const done = await run.done;
    expect(done.code, done.stderr).toBe(0);
    const [w] = worktrees();
    expect(w).toMatchObject({ path: join(s.primary, ".claude", "worktrees", "f1"), branch: "worktree-f1", managed: false });
    // Claude Code locks its --worktree sessions too, and leaves the lock when a -p session ends
    expect(w.lock.reason).toMatch(new RegExp(`^claude session f1 \\(pid ${run.pid} start \\d+\\)$`));
    expect(w.lock.owner).toMatchObject({ kind: "claude-code", pid: run.pid });
    expect(w.liveness.state).toBe("dead");
    s.ageLock(w.path, 3600);
    const r = s.orchard(["reap-orphans"]);
    expect(r.json.entries).toEqual([expect.objectContaining({ path: w.path, status: "reaped" })]);
    expect(existsSync(w.path)).toBe(false);
  });

  it("keeps it when it holds work, and --salvage keeps the work in a salvage ref", async () => {
    const run = await claudeWithSubagent();
    const [w] = worktrees().filter((x) => !x.managed);
    writeFileSync(join(w.path, "agent-notes.txt"), "unfinished\n");
    run.kill();
    await run.done;
    s.ageLock(w.path, 3600);
    const kept = s.orchard(["reap-orphans"]);
    expect(kept.json.entries).toEqual([expect.objectContaining({ path: w.path, status: "skipped" })]);
    expect(existsSync(join(w.path, "agent-notes.txt"))).toBe(true);
    const salvaged = s.orchard(["reap-orphans", "--salvage"]);
    const [entry] = salvaged.json.entries;
    expect(entry).toMatchObject({ path: w.path, status: "reaped" });
    expect(git(s.primary, "show", `${entry.salvageRef as string}:agent-notes.txt`)).toBe("unfinished");
  });
});
