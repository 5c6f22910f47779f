// What Orchard reads from Claude Code's own settings (issue 22 items 3 and 4): the `worktree` keys
// its WorktreeCreate hook honours (baseRef, symlinkDirectories, sparsePaths) and
// `cleanupPeriodDays`, how long Claude Code keeps a session's transcript (and so how long
// `claude --resume` can take it up). The layers and their precedence are Claude Code 2.1.x's: user
// (`$CLAUDE_CONFIG_DIR` or `~/.claude`)/settings.json < project .claude/settings.json <
// .claude/settings.local.json < the `--settings` flag (a file or inline JSON) < managed settings
// (managed-settings.json, then managed-settings.d/*.json in file-name order, skipping dot-files);
// a later layer's key wins. Read only: never written here.
import { lstatSync, readdirSync, statSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";
import { readPlainText } from "../files.js";

export const DEFAULT_CLEANUP_PERIOD_DAYS = 30;

/** Claude Code's configuration directory: `$CLAUDE_CONFIG_DIR`, else `~/.claude`. */
export function claudeConfigDir(): string {
  return process.env.CLAUDE_CONFIG_DIR || join(homedir(), ".claude");
}

/** The managed settings directory of this platform (highest precedence); ORCHARD_TEST_CLAUDE_MANAGED_DIR stands in for it in tests. */
function managedSettingsDir(): string {
  if (process.env.ORCHARD_TEST_CLAUDE_MANAGED_DIR) return process.env.ORCHARD_TEST_CLAUDE_MANAGED_DIR;
  if (process.platform === "darwin") return "/Library/Application Support/ClaudeCode";
  if (process.platform === "win32") return "C:\\Program Files\\ClaudeCode";
  return "/etc/claude-code";
}

/** managed-settings.json, then managed-settings.d's `*.json` (no dot-files) in file-name order, as Claude Code merges them. */
function managedSettingsFiles(): SettingsFile[] {
  const dir = managedSettingsDir();
  const dropIns = join(dir, "managed-settings.d");
  const base = readSettingsFile(join(dir, "managed-settings.json"), true);
  let names: string[];
  try {
    names = readdirSync(dropIns, { withFileTypes: true })
      .filter((e) => (e.isFile() || e.isSymbolicLink()) && e.name.endsWith(".json") && !e.name.startsWith("."))
      .map((e) => e.name)
      .sort();
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ENOENT" || code === "ENOTDIR") return [base];
    return [base, { file: dropIns, value: null, problem: `could not be listed (${code ?? "error"})` }];
  }
  return [base, ...names.map((name) => readSettingsFile(join(dropIns, name), true))];
}

/** Claude Code's `--settings` flag: a file (relative to where Claude Code started) or inline JSON. */
export type FlagSettings = { kind: "file"; path: string } | { kind: "inline"; text: string };

export const INLINE_FLAG = "--settings (inline JSON)";

function readFlagSettings(flag: FlagSettings): SettingsFile {
  if (flag.kind === "file") return readSettingsFile(flag.path);
  try {
    const value: unknown = JSON.parse(flag.text);
    if (typeof value !== "object" || value === null || Array.isArray(value)) return { file: INLINE_FLAG, value: null, problem: "is not a JSON object" };
    return { file: INLINE_FLAG, value: value as Record<string, unknown> };
  } catch {
    return { file: INLINE_FLAG, value: null, problem: "is not valid JSON" };
  }
}

/**
 * Claude Code's settings layers for a project (null: the user's and managed ones only), lowest
 * precedence first, read now; `flag` is the `--settings` of the Claude Code process, when known;
 * `configDir`: the user's Claude config dir when known otherwise than from this process's environment
 * (the one a session's recorded transcript lives in).
 */
export function claudeSettingsLayers(project: string | null, flag: FlagSettings | null = null, configDir: string = claudeConfigDir()): SettingsFile[] {
  const own = project === null ? [] : [join(project, ".claude", "settings.json"), join(project, ".claude", "settings.local.json")];
  return [
    ...[join(configDir, "settings.json"), ...own].map((f) => readSettingsFile(f)),
    ...(flag === null ? [] : [readFlagSettings(flag)]),
    ...managedSettingsFiles(),
  ];
}

export interface SettingsFile {
  file: string;
  /** The parsed object; null when the file is absent. */
  value: Record<string, unknown> | null;
  /** Why it could not be read (not a regular file, over 1 MiB, not a JSON object); absent when fine. */
  problem?: string;
}

const MAX_BYTES = 1024 * 1024;

/** One settings file; `follow`: a symbolic link is read through (managed drop-ins, which Claude Code follows). */
export function readSettingsFile(file: string, follow = false): SettingsFile {
  let stat;
  try {
    stat = (follow ? statSync : lstatSync)(file, { throwIfNoEntry: false });
  } catch (error) {
    return { file, value: null, problem: `could not be read (${(error as NodeJS.ErrnoException).code ?? "error"})` };
  }
  if (!stat) return { file, value: null };
  if (!stat.isFile()) return { file, value: null, problem: "is not a regular file" };
  if (stat.size > MAX_BYTES) return { file, value: null, problem: "is over 1 MiB" };
  const text = readPlainText(file, { max: MAX_BYTES, follow }); // swapped for a FIFO since the stat: never waited on
  if (text === null) return { file, value: null, problem: "could not be read as a regular file" };
  try {
    const value: unknown = text.trim() === "" ? {} : JSON.parse(text);
    if (typeof value !== "object" || value === null || Array.isArray(value)) return { file, value: null, problem: "is not a JSON object" };
    return { file, value: value as Record<string, unknown> };
  } catch {
    return { file, value: null, problem: "is not valid JSON" };
  }
}

/** One key as the merged settings give it (the last file that sets it wins), with the file it came from. */
export function settingFrom(files: readonly SettingsFile[], pick: (value: Record<string, unknown>) => unknown): { value: unknown; file: string } | null {
  let found: { value: unknown; file: string } | null = null;
  for (const f of files) {
    const value = f.value === null ? undefined : pick(f.value);
    if (value !== undefined) found = { value, file: f.file };
  }
  return found;
}

/**
 * Claude Code's `cleanupPeriodDays` for a project (a positive integer; default 30). An unreadable
 * file, or a value Claude Code would not accept, sets nothing.
 */
export function readCleanupPeriodDays(project: string, configDir?: string): number {
  const files = claudeSettingsLayers(project, null, configDir);
  // a file whose value Claude Code would not accept does not set it (the next file down does)
  const valid = (days: unknown) => (typeof days === "number" && Number.isInteger(days) && days > 0 ? days : undefined);
  const found = settingFrom(files, (v) => valid(v.cleanupPeriodDays));
  return (found?.value as number | undefined) ?? DEFAULT_CLEANUP_PERIOD_DAYS;
}
