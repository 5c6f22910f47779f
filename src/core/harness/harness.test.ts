// The shapes, table-driven (no git, no disk): which harness each worktree shape names, and what
// its marker files make of `tracked`.
import { describe, expect, it } from "vitest";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { readCodexThread, readHarness } from "./read.js";
import { harnessRoots } from "./roots.js";
import { parseCodexThread } from "./codex.js";
import { ccmanagerPath } from "./ccmanager.js";
import { sweptRootOf } from "./sweep.js";
import type { HarnessFact, MarkerRead, WorktreeShape } from "./types.js";

const roots = harnessRoots({ HOME: "/h", CODEX_HOME: "/h/.codex", XDG_DATA_HOME: "/h/.local/share", XDG_CONFIG_HOME: "/h/.config", TMPDIR: "/t" }, "/o");
const SHA = "0123456789abcdef0123456789abcdef01234567";

/** readHarness with the files given by path (absent unless named: none of these paths exists). */
function match(w: Partial<WorktreeShape> & { path: string }, files: Record<string, MarkerRead> = {}): HarnessFact | null {
  const shape: WorktreeShape = { branch: null, primary: "/src/app", commonDir: "/src/app/.git", admin: "/src/app/.git/worktrees/x", missing: false, ...w };
  return readHarness(shape, { roots, files: new Map(Object.entries(files)) });
}
const text = (t: string): MarkerRead => ({ kind: "text", text: t });
const THREAD = text(JSON.stringify({ version: 1, ownerThreadId: "t-1" }));

describe("harness shapes", () => {
  it.each([
    [
      "codex by path, marker there",
      { path: "/h/.codex/worktrees/a1b2/app" },
      { "/src/app/.git/worktrees/x/codex-thread.json": THREAD },
      { name: "codex", session: "t-1", tracked: true },
    ],
    ["codex by path, marker gone", { path: "/h/.codex/worktrees/a1b2/app" }, {}, { name: "codex", tracked: false }],
    [
      "codex by marker elsewhere",
      { path: "/w/app" },
      { "/src/app/.git/worktrees/x/codex-thread.json": THREAD },
      { name: "codex", session: "t-1", tracked: true },
    ],
    [
      "codex marker unreadable",
      { path: "/w/app" },
      { "/src/app/.git/worktrees/x/codex-thread.json": { kind: "unreadable", why: "fifo" } },
      { name: "codex", tracked: "unknown" },
    ],
    [
      "codex marker of another version",
      { path: "/w/app" },
      { "/src/app/.git/worktrees/x/codex-thread.json": text('{"version":2,"ownerThreadId":"t"}') },
      { name: "codex", tracked: "unknown" },
    ],
    [
      "opencode path + marker",
      { path: `/h/.local/share/opencode/worktree/${SHA}/fox` },
      { "/src/app/.git/opencode": text(SHA) },
      { name: "opencode", session: "fox", tracked: "unknown" },
    ],
    [
      "opencode marker of another project",
      { path: `/h/.local/share/opencode/worktree/${SHA}/fox` },
      { "/src/app/.git/opencode": text("f".repeat(40)) },
      { name: "opencode", session: "fox", tracked: false },
    ],
    ["opencode branch, no marker", { path: "/w/x", branch: "opencode/fox" }, {}, { name: "opencode", session: "fox", tracked: false }],
    ["copilot", { path: "/src/app.worktrees/fix-a" }, {}, { name: "copilot", session: "fix-a", tracked: "unknown" }],
    ["copilot under Orchard's template", { path: "/o/copilot/app/fix-a" }, {}, { name: "copilot", session: "fix-a", tracked: "unknown" }],
    ["not copilot: deeper under the template", { path: "/o/copilot/app/fix-a/b" }, {}, null],
    ["copilot, directory gone", { path: "/src/app.worktrees/fix-a", missing: true }, {}, { name: "copilot", session: "fix-a", tracked: false }],
    ["gemini", { path: "/src/app/.gemini/worktrees/n", branch: "worktree-n" }, {}, { name: "gemini", session: "n", tracked: "unknown" }],
    ["cursor", { path: "/h/.cursor/worktrees/app/id1" }, {}, { name: "cursor", session: "id1", tracked: "unknown" }],
    ["vibe-kanban by path", { path: "/var/tmp/vibe-kanban/worktrees/1a2b-fix/app" }, {}, { name: "vibe-kanban", session: "1a2b-fix", tracked: "unknown" }],
    ["vibe-kanban under TMPDIR", { path: "/t/vibe-kanban/worktrees/1a2b-fix/app" }, {}, { name: "vibe-kanban", session: "1a2b-fix", tracked: "unknown" }],
    ["conductor", { path: "/h/conductor/workspaces/app/lima" }, {}, { name: "conductor", session: "lima", tracked: "unknown" }],
    ["sculptor", { path: "/h/.sculptor/workspaces/abc/code" }, {}, { name: "sculptor", session: "abc", tracked: "unknown" }],
    ["workmux", { path: "/src/app__worktrees/f" }, {}, { name: "workmux", session: "f", tracked: false }],
    ["crystal without ~/.crystal", { path: "/src/app/worktrees/s" }, {}, null],
    ["crystal", { path: "/src/app/worktrees/s" }, { "/h/.crystal": { kind: "directory" } }, { name: "crystal", session: "s", tracked: "unknown" }],
    [
      "uzi named in state",
      { path: "/h/.local/share/uzi/worktrees/a-b" },
      { "/h/.local/share/uzi/state.json": text('{"x":{"worktree_path":"/h/.local/share/uzi/worktrees/a-b"}}') },
      { name: "uzi", session: "a-b", tracked: true },
    ],
    [
      "uzi state unreadable",
      { path: "/h/.local/share/uzi/worktrees/a-b" },
      { "/h/.local/share/uzi/state.json": { kind: "unreadable", why: "big" } },
      { name: "uzi", session: "a-b", tracked: "unknown" },
    ],
    [
      "claude-code by path",
      { path: "/src/app/.claude/worktrees/agent-1", branch: "worktree-agent-1" },
      {},
      { name: "claude-code", session: "agent-1", tracked: false },
    ],
    ["claude-code by branch", { path: "/w/y", branch: "worktree-y" }, {}, { name: "claude-code", session: "y", tracked: false }],
    ["nothing", { path: "/w/plain", branch: "feat/x" }, {}, null],
    // Orchard manages it: a bare path or branch pattern does not hold it; a marker naming a live session does
    [
      "managed, opencode branch + marker",
      { path: "/w/x", branch: "opencode/fox", managed: true },
      { "/src/app/.git/opencode": text(SHA) },
      { name: "opencode", session: "fox", tracked: false },
    ],
    ["managed, cursor path", { path: "/h/.cursor/worktrees/app/id1", managed: true }, {}, { name: "cursor", session: "id1", tracked: false }],
    ["managed, copilot template", { path: "/o/copilot/app/fix-a", managed: true }, {}, { name: "copilot", session: "fix-a", tracked: false }],
    [
      "managed, codex marker",
      { path: "/w/app", managed: true },
      { "/src/app/.git/worktrees/x/codex-thread.json": THREAD },
      { name: "codex", session: "t-1", tracked: true },
    ],
    [
      "managed, codex marker unreadable",
      { path: "/w/app", managed: true },
      { "/src/app/.git/worktrees/x/codex-thread.json": { kind: "unreadable", why: "fifo" } },
      { name: "codex", tracked: "unknown" },
    ],
    [
      "managed, uzi state names it",
      { path: "/h/.local/share/uzi/worktrees/a-b", managed: true },
      { "/h/.local/share/uzi/state.json": text('{"x":{"worktree_path":"/h/.local/share/uzi/worktrees/a-b"}}') },
      { name: "uzi", session: "a-b", tracked: true },
    ],
    [
      "managed, uzi state unreadable",
      { path: "/h/.local/share/uzi/worktrees/a-b", managed: true },
      { "/h/.local/share/uzi/state.json": { kind: "unreadable", why: "big" } },
      { name: "uzi", session: "a-b", tracked: false },
    ],
  ] as const)("%s", (_, w, files, expected) => {
    expect(match(w as Partial<WorktreeShape> & { path: string }, files as Record<string, MarkerRead>)).toEqual(expected);
  });
});

describe("codex-thread.json", () => {
  it("names a thread only at version 1 with an ownerThreadId", () => {
    expect(parseCodexThread('{"version":1,"ownerThreadId":"019a"}')).toEqual({ thread: "019a" });
    expect(parseCodexThread("{")).toEqual({ invalid: "not JSON" });
    expect(parseCodexThread('{"version":1}')).toEqual({ invalid: "no ownerThreadId" });
    expect(parseCodexThread("null")).toEqual({ invalid: "no ownerThreadId" });
  });
});

describe("readCodexThread", () => {
  it("reads the thread of a plain marker; null for none, a directory or a bad one", () => {
    const admin = mkdtempSync(join(tmpdir(), "orchard-codex-"));
    try {
      expect(readCodexThread(admin)).toBeNull();
      writeFileSync(join(admin, "codex-thread.json"), '{"version":1,"ownerThreadId":"019a"}');
      expect(readCodexThread(admin)).toBe("019a");
      writeFileSync(join(admin, "codex-thread.json"), "{");
      expect(readCodexThread(admin)).toBeNull();
    } finally {
      rmSync(admin, { recursive: true, force: true });
    }
  });
});

describe("ccmanager's pattern", () => {
  it("fills {project} and {branch} (slashes made dashes) against the primary, only with autoDirectory on", () => {
    const on = (pattern?: string) => JSON.stringify({ worktree: { autoDirectory: true, ...(pattern ? { autoDirectoryPattern: pattern } : {}) } });
    expect(ccmanagerPath(on(), "/src/app", "feat/x")).toBe("/src/feat-x");
    expect(ccmanagerPath(on("../{project}-wt/{branch}"), "/src/app", "feat/x")).toBe("/src/app-wt/feat-x");
    expect(ccmanagerPath(JSON.stringify({ worktree: { autoDirectory: false } }), "/src/app", "x")).toBeNull();
    expect(ccmanagerPath("not json", "/src/app", "x")).toBeNull();
  });
});

describe("swept roots", () => {
  it("Cursor's ~/.cursor/worktrees and what is under it", () => {
    expect(sweptRootOf("/h/.cursor/worktrees/home/worktrees", roots)).toMatchObject({ harness: "cursor", root: "/h/.cursor/worktrees" });
    expect(sweptRootOf("/h/.cursor/worktrees", roots)).toMatchObject({ harness: "cursor" });
    expect(sweptRootOf("/h/.cursor/worktrees-other/x", roots)).toBeNull();
  });
});
