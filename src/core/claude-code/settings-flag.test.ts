// Every settings layer Claude Code reads (SPEC v4 §3.14): the `--settings` flag (file or inline JSON,
// as Claude Code tells them apart) and managed settings with managed-settings.d in file-name order.
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { chmodSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { settingsFlagOf } from "./settings-flag.js";
import { readClaudeWorktreeSettings } from "./worktree-settings.js";

describe("settingsFlagOf", () => {
  it("takes the last --settings before --, inline JSON when it is braced, else a file against the start directory", () => {
    expect(settingsFlagOf(["claude", "-p", "x"], "/p")).toBeNull();
    expect(settingsFlagOf(["claude", "--settings", "a.json"], "/p")).toEqual({ kind: "file", path: "/p/a.json" });
    expect(settingsFlagOf(["claude", "--settings=/abs/b.json"], "/p")).toEqual({ kind: "file", path: "/abs/b.json" });
    expect(settingsFlagOf(["claude", "--settings", "a.json", "--settings", ' {"x":1} '], "/p")).toEqual({ kind: "inline", text: '{"x":1}' });
    expect(settingsFlagOf(["claude", "--", "--settings", "a.json"], "/p")).toBeNull();
  });
});

describe("the layers", () => {
  let root: string;
  let managed: string;
  const saved = { ...process.env };
  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), "orchard-layers-"));
    managed = join(root, "managed");
    mkdirSync(join(managed, "managed-settings.d"), { recursive: true });
    mkdirSync(join(root, "project", ".claude"), { recursive: true });
    process.env.ORCHARD_TEST_CLAUDE_MANAGED_DIR = managed;
    process.env.CLAUDE_CONFIG_DIR = join(root, "user");
  });
  afterEach(() => {
    process.env = { ...saved };
    chmodSync(join(managed, "managed-settings.d"), 0o755);
    rmSync(root, { recursive: true, force: true });
  });
  const write = (file: string, value: unknown) => writeFileSync(file, JSON.stringify(value));

  it("project < --settings < managed-settings.json < managed-settings.d (sorted, .json only, no dot-files, links followed)", () => {
    const project = join(root, "project");
    write(join(project, ".claude", "settings.json"), { worktree: { baseRef: "head", symlinkDirectories: ["a"], sparsePaths: ["s"] } });
    const flag = { kind: "inline", text: '{"worktree":{"symlinkDirectories":["b"]}}' } as const;
    expect(readClaudeWorktreeSettings(project, flag)).toEqual({ baseRef: "head", symlinkDirectories: ["b"], sparsePaths: ["s"] });
    write(join(managed, "managed-settings.json"), { worktree: { baseRef: "fresh", symlinkDirectories: ["c"] } });
    write(join(managed, "managed-settings.d", "20-late.json"), { worktree: { symlinkDirectories: ["e"] } });
    write(join(managed, "managed-settings.d", "10-early.json"), { worktree: { symlinkDirectories: ["d"], sparsePaths: ["t"] } });
    write(join(managed, "managed-settings.d", ".hidden.json"), { worktree: { sparsePaths: ["hidden"] } });
    write(join(managed, "managed-settings.d", "99-notes.txt"), { worktree: { sparsePaths: ["txt"] } });
    write(join(root, "linked.json"), { worktree: { sparsePaths: ["linked"] } });
    symlinkSync(join(root, "linked.json"), join(managed, "managed-settings.d", "30-linked.json"));
    expect(readClaudeWorktreeSettings(project, flag)).toEqual({ baseRef: "fresh", symlinkDirectories: ["e"], sparsePaths: ["linked"] });
  });

  it("a layer that cannot be read is named, never silently left out", () => {
    expect(() => readClaudeWorktreeSettings(null, { kind: "inline", text: "{nope}" })).toThrow("--settings (inline JSON) is not valid JSON");
    expect(() => readClaudeWorktreeSettings(null, { kind: "file", path: join(root, "missing.json") })).not.toThrow(); // absent: Claude Code itself refuses to start
    if (process.getuid?.() !== 0) {
      chmodSync(join(managed, "managed-settings.d"), 0o000);
      expect(() => readClaudeWorktreeSettings(null)).toThrow(/managed-settings\.d could not be listed \(EACCES\)/);
    }
  });
});
