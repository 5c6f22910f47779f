// What Orchard reads from Claude Code's own settings (issue 22 items 3 and 4): the `worktree` keys
// its WorktreeCreate hook honours (baseRef, symlinkDirectories, sparsePaths) and
// `cleanupPeriodDays`, how long Claude Code keeps a session's transcript (and so how long
// `claude --resume` can take it up). The files and their precedence are Claude Code's: user
// (`$CLAUDE_CONFIG_DIR` or `~/.claude`)/settings.json < project .claude/settings.json <
// .claude/settings.local.json < managed settings; a later file's key wins. Read only: never written here.
import { lstatSync, readFileSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";

export const DEFAULT_CLEANUP_PERIOD_DAYS = 30;

/** Claude Code's configuration directory: `$CLAUDE_CONFIG_DIR`, else `~/.claude`. */
export function claudeConfigDir(): string {
  return process.env.CLAUDE_CONFIG_DIR || join(homedir(), ".claude");
}

/** The managed settings file of this platform (highest precedence). */
function managedSettingsFile(): string {
  if (process.platform === "darwin") return "/Library/Application Support/ClaudeCode/managed-settings.json";
  if (process.platform === "win32") return "C:\\Program Files\\ClaudeCode\\managed-settings.json";
  return "/etc/claude-code/managed-settings.json";
}

/**
 * Claude Code's settings files for a project (null: the user's and managed ones only), lowest
 * precedence first. `configDir`: the user's Claude config dir when known otherwise than from this
 * process's environment (the one a session's recorded transcript lives in).
 */
export function claudeSettingsFiles(project: string | null, configDir: string = claudeConfigDir()): string[] {
  const own = project === null ? [] : [join(project, ".claude", "settings.json"), join(project, ".claude", "settings.local.json")];
  return [join(configDir, "settings.json"), ...own, managedSettingsFile()];
}

export interface SettingsFile {
  file: string;
  /** The parsed object; null when the file is absent. */
  value: Record<string, unknown> | null;
  /** Why it could not be read (not a regular file, over 1 MiB, not a JSON object); absent when fine. */
  problem?: string;
}

const MAX_BYTES = 1024 * 1024;

export function readSettingsFile(file: string): SettingsFile {
  const stat = lstatSync(file, { throwIfNoEntry: false });
  if (!stat) return { file, value: null };
  if (!stat.isFile()) return { file, value: null, problem: "is not a regular file" };
  if (stat.size > MAX_BYTES) return { file, value: null, problem: "is over 1 MiB" };
  try {
    const text = readFileSync(file, "utf8");
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
  const files = claudeSettingsFiles(project, configDir).map(readSettingsFile);
  // a file whose value Claude Code would not accept does not set it (the next file down does)
  const valid = (days: unknown) => (typeof days === "number" && Number.isInteger(days) && days > 0 ? days : undefined);
  const found = settingFrom(files, (v) => valid(v.cleanupPeriodDays));
  return (found?.value as number | undefined) ?? DEFAULT_CLEANUP_PERIOD_DAYS;
}
