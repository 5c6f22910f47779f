import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { claudeProjectSlug, claudeSessionOf, readResumable, readSessionRecord, writeSessionRecord } from "./resumable.js";
import { readCleanupPeriodDays } from "./claude-settings.js";

const DAY = 24 * 3600 * 1000;
let root: string;
let saved: string | undefined;

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), "orchard-resumable-"));
  saved = process.env.CLAUDE_CONFIG_DIR;
  process.env.CLAUDE_CONFIG_DIR = join(root, "config");
  mkdirSync(join(root, "primary"));
});
afterEach(() => {
  if (saved === undefined) delete process.env.CLAUDE_CONFIG_DIR;
  else process.env.CLAUDE_CONFIG_DIR = saved;
  rmSync(root, { recursive: true, force: true });
});

/** A transcript written `ageDays` ago under `<config>/projects/<slug>/`. */
function transcript(sessionId: string, ageDays: number, slug = claudeProjectSlug(join(root, "primary"))): string {
  const dir = join(root, "config", "projects", slug);
  mkdirSync(dir, { recursive: true });
  const file = join(dir, `${sessionId}.jsonl`);
  writeFileSync(file, "{}\n");
  const when = new Date(Date.now() - ageDays * DAY);
  utimesSync(file, when, when);
  return file;
}

const at = (now = Date.now(), more: { branch?: string; admin?: string } = {}) => ({
  primary: join(root, "primary"),
  worktree: join(root, "wt"),
  branch: more.branch ?? "worktree-f1",
  admin: more.admin ?? null,
  now,
});

describe("Claude Code's project slug and session owner", () => {
  it("replaces every non-alphanumeric character with `-`; reads only `claude-code:<id>` owners", () => {
    expect(claudeProjectSlug("/home/me/my_app.v2")).toBe("-home-me-my-app-v2");
    expect(claudeSessionOf("claude-code:0b3c-9a")).toBe("0b3c-9a");
    expect(claudeSessionOf("claude-code:../x")).toBeNull();
    expect(claudeSessionOf("agent-1")).toBeNull();
    expect(claudeSessionOf(null)).toBeNull();
  });
});

describe("a resumable session", () => {
  it("is one whose transcript is younger than cleanupPeriodDays (default 30)", () => {
    const file = transcript("s-1", 29);
    expect(readResumable("claude-code:s-1", at())).toMatchObject({ sessionId: "s-1", transcript: file, periodDays: 30 });
    transcript("s-2", 31);
    expect(readResumable("claude-code:s-2", at())).toBeNull();
    expect(readResumable("claude-code:s-3", at())).toBeNull(); // no transcript: nothing to resume
    expect(readResumable("someone", at())).toBeNull();
  });

  it("follows cleanupPeriodDays from the user's settings, and the project's over them", () => {
    transcript("s-1", 5);
    mkdirSync(join(root, "config"), { recursive: true });
    writeFileSync(join(root, "config", "settings.json"), JSON.stringify({ cleanupPeriodDays: 3 }));
    expect(readCleanupPeriodDays(join(root, "primary"))).toBe(3);
    expect(readResumable("claude-code:s-1", at())).toBeNull();
    mkdirSync(join(root, "primary", ".claude"));
    writeFileSync(join(root, "primary", ".claude", "settings.json"), JSON.stringify({ cleanupPeriodDays: 10 }));
    expect(readResumable("claude-code:s-1", at())).toMatchObject({ periodDays: 10 });
    // a value Claude Code would not accept counts as unset
    writeFileSync(join(root, "primary", ".claude", "settings.json"), JSON.stringify({ cleanupPeriodDays: 0 }));
    expect(readCleanupPeriodDays(join(root, "primary"))).toBe(3);
  });

  it("finds a transcript under any project directory (a long path's slug carries a hash)", () => {
    transcript("s-1", 1, "-some-other-slug-abc123");
    expect(readResumable("claude-code:s-1", at())).toMatchObject({ sessionId: "s-1" });
  });
});

describe("a session's own worktree only (issue 40 item 1)", () => {
  it("a subagent's worktree (worktree-agent-*) is never resumable, however young the parent's transcript", () => {
    transcript("s-1", 1);
    expect(readResumable("claude-code:s-1", at(Date.now(), { branch: "worktree-agent-a0123456789abcdef" }))).toBeNull();
    expect(readResumable("claude-code:s-1", at(Date.now(), { branch: "worktree-f1" }))).toMatchObject({ sessionId: "s-1" });
  });
});

describe("the transcript path recorded at create time (issue 40 item 2)", () => {
  /** A session of another Claude config dir (another HOME's), recorded in an admin dir. */
  function recorded(sessionId: string, ageDays: number): { admin: string; file: string } {
    const dir = join(root, "other-home", ".claude", "projects", claudeProjectSlug(join(root, "primary")));
    mkdirSync(dir, { recursive: true });
    const file = join(dir, `${sessionId}.jsonl`);
    writeFileSync(file, "{}\n");
    const when = new Date(Date.now() - ageDays * DAY);
    utimesSync(file, when, when);
    const admin = join(root, "admin");
    mkdirSync(admin, { recursive: true });
    writeSessionRecord(admin, { sessionId, transcriptPath: file });
    return { admin, file };
  }

  it("decides whatever the caller's config dir: the record's, with that dir's cleanupPeriodDays", () => {
    const { admin, file } = recorded("s-1", 5);
    // the caller's own config dir has no transcript at all
    expect(readResumable("claude-code:s-1", at())).toBeNull();
    expect(readResumable("claude-code:s-1", at(Date.now(), { admin }))).toMatchObject({ transcript: file, periodDays: 30 });
    // the caller's settings do not count; the recorded config dir's do
    mkdirSync(join(root, "config"), { recursive: true });
    writeFileSync(join(root, "config", "settings.json"), JSON.stringify({ cleanupPeriodDays: 3 }));
    expect(readResumable("claude-code:s-1", at(Date.now(), { admin }))).toMatchObject({ periodDays: 30 });
    writeFileSync(join(root, "other-home", ".claude", "settings.json"), JSON.stringify({ cleanupPeriodDays: 4 }));
    expect(readResumable("claude-code:s-1", at(Date.now(), { admin }))).toBeNull();
  });

  it("a record of another session, or one not shaped as Claude Code's transcript path, is no record", () => {
    const { admin } = recorded("s-1", 1);
    expect(readSessionRecord(admin, "s-2")).toBeNull();
    expect(readSessionRecord(admin, "s-1")).toMatchObject({ sessionId: "s-1" });
    writeSessionRecord(admin, { sessionId: "s-1", transcriptPath: "/etc/passwd" });
    expect(readSessionRecord(admin, "s-1")).toBeNull();
    writeSessionRecord(admin, { sessionId: "s-1", transcriptPath: "relative/projects/x/s-1.jsonl" });
    expect(readSessionRecord(admin, "s-1")).toBeNull();
    writeFileSync(join(admin, "claude-session.json"), "not json");
    expect(readSessionRecord(admin, "s-1")).toBeNull();
  });
});
