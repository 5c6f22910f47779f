// Resumability as the WorktreeCreate hook recorded it (SPEC v4 §3.14, issue 40 items 1 and 2),
// driven as Claude Code drives the hook — JSON on stdin, the real CLI, under a host process that
// then dies (the real binary: test/claude-code/). The verdict is read from the transcript path
// recorded at create time, so a sweep from another HOME (cron, CI, sudo) gives the interactive
// one's answer; a subagent's worktree is never resumable; the work a resumable worktree holds is
// shown beside `session_resumable`.
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { spawn } from "node:child_process";
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { CLI, Scenario, waitFor } from "../helpers/scenario.js";
import { hermeticEnv } from "../helpers/env.js";

let s: Scenario;
let hosts: { kill: () => void }[] = [];
beforeEach(() => {
  s = Scenario.create();
});
afterEach(() => {
  for (const h of hosts) h.kill();
  hosts = [];
  s.cleanup();
});

/** Claude Code's HOME: its config dir, where the session's transcript is. */
const claudeHome = () => join(s.root, "claude-home");
/** Another HOME, with a Claude config dir of its own that knows nothing of the session (cron, CI, sudo). */
const otherHome = () => join(s.root, "other-home");

function transcriptPath(sessionId: string): string {
  return join(claudeHome(), ".claude", "projects", s.primary.replace(/[^a-zA-Z0-9]/g, "-"), `${sessionId}.jsonl`);
}

/**
 * The create hook run under a host process (CLAUDE_PID names it, as Claude Code does), which stays
 * until killed: the worktree's path, and the kill that ends the "session".
 */
async function created(name: string, sessionId = "s-1"): Promise<{ path: string; kill: () => void }> {
  const transcript = transcriptPath(sessionId);
  mkdirSync(join(transcript, ".."), { recursive: true });
  writeFileSync(transcript, `{"type":"user"}\n`);
  const payload = join(s.root, `payload-${name}.json`);
  const input = { session_id: sessionId, transcript_path: transcript, cwd: s.primary, hook_event_name: "WorktreeCreate", name };
  writeFileSync(payload, JSON.stringify(input));
  const script = `CLAUDE_PID=$$ "${process.execPath}" "${CLI}" --home "${s.home}" claude-code worktree-create < "${payload}"; exec sleep 600`;
  const host = spawn("sh", ["-c", script], { cwd: s.primary, env: hermeticEnv({ HOME: claudeHome() }), stdio: ["ignore", "pipe", "pipe"] });
  let out = "";
  let err = "";
  host.stdout.on("data", (d: Buffer) => (out += d.toString()));
  host.stderr.on("data", (d: Buffer) => (err += d.toString()));
  const kill = () => host.kill("SIGKILL");
  hosts.push({ kill });
  await waitFor(() => out.endsWith("\n") || err !== "", "the hook's answer");
  expect(err).toBe("");
  return { path: out.trim(), kill };
}

async function ended(name: string, sessionId?: string): Promise<string> {
  const { path, kill } = await created(name, sessionId);
  kill();
  await waitFor(() => s.orchard(["status", path]).json.worktree.liveness.state === "dead", "the host to die");
  s.ageLock(path, 3600);
  return path;
}

/** hygiene and reap-orphans --dry-run as seen with `home` as HOME (and no CLAUDE_CONFIG_DIR). */
function seenFrom(home: string, path: string): { disposition: string; reasons: string[]; reap: string } {
  const env = { HOME: home };
  const hygiene = s.orchard(["hygiene"], { env }).json.worktrees.find((w: any) => w.path === path);
  const reap = s.orchard(["reap-orphans", "--dry-run"], { env }).json.entries.find((e: any) => e.path === path);
  return { disposition: hygiene.disposition, reasons: hygiene.reasons.map((r: any) => r.code), reap: `${reap.status} ${reap.reason}` };
}

describe("a session's own worktree, recorded at create time", () => {
  it("is session_resumable from Claude's HOME and from any other HOME alike", async () => {
    mkdirSync(join(otherHome(), ".claude", "projects"), { recursive: true });
    const path = await ended("f1");
    const interactive = seenFrom(claudeHome(), path);
    expect(interactive).toEqual({ disposition: "idle", reasons: ["session_resumable"], reap: "skipped session_resumable" });
    expect(seenFrom(otherHome(), path)).toEqual(interactive);
    const reason = s.orchard(["hygiene"], { env: { HOME: otherHome() } }).json.worktrees.find((w: any) => w.path === path).reasons[0];
    expect(reason).toMatchObject({ code: "session_resumable", sessionId: "s-1", transcript: transcriptPath("s-1") });
    // the sweep itself, from the other HOME: it keeps the worktree
    const swept = s.orchard(["reap-orphans"], { env: { HOME: otherHome() } });
    expect(swept.json.entries).toEqual([expect.objectContaining({ path, status: "skipped", reason: "session_resumable" })]);
  });

  it("its work shows beside session_resumable: dirty, and commits not preserved", async () => {
    const path = await ended("f1");
    writeFileSync(join(path, "notes.txt"), "half done\n");
    s.commit({ in: path, file: "feature.txt" });
    for (const home of [claudeHome(), otherHome()])
      expect(seenFrom(home, path)).toEqual({
        disposition: "idle",
        reasons: ["session_resumable", "dirty", "work_not_preserved"],
        reap: "skipped session_resumable",
      });
  });

  it("once the recorded transcript is gone, no HOME reads it as resumable", async () => {
    const path = await ended("f1");
    // the caller's own config dir has a transcript of that id: not where the session lives
    const decoy = join(otherHome(), ".claude", "projects", "-elsewhere", "s-1.jsonl");
    mkdirSync(join(decoy, ".."), { recursive: true });
    writeFileSync(decoy, "{}\n");
    rmSync(transcriptPath("s-1"));
    for (const home of [claudeHome(), otherHome()])
      expect(seenFrom(home, path)).toMatchObject({ disposition: "reapable", reap: "planned pid_dead_and_merged" });
  });
});

describe("a subagent's worktree (worktree-agent-*)", () => {
  it("is never session_resumable: clean, it is reaped; its parent's transcript does not keep it", async () => {
    const path = await ended("agent-a0123456789abcdef");
    for (const home of [claudeHome(), otherHome()])
      expect(seenFrom(home, path)).toMatchObject({ disposition: "reapable", reap: "planned pid_dead_and_merged" });
  });
});
