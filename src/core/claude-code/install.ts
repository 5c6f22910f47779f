// `orchard claude-code install [--user|--project] [--dry-run]`: merge Orchard's hooks into Claude
// Code's settings (user: ~/.claude/settings.json; project: <primary>/.claude/settings.json, which
// is the one Claude Code re-reads from inside the new worktree, so it must be committed). The file
// is replaced atomically through a temp file created O_EXCL|O_NOFOLLOW; a settings file that is not
// a regular JSON object is an error naming it, and nothing is written.
import { closeSync, constants, existsSync, lstatSync, mkdirSync, openSync, readFileSync, renameSync, rmSync, writeSync } from "node:fs";
import { homedir } from "node:os";
import { dirname, join } from "node:path";
import { usageError } from "../shared/errors.js";
import { lineDiff, mergeOrchardHooks, type Settings } from "./settings.js";

export interface InstallOptions {
  scope: "user" | "project";
  /** The primary of the repo (project scope). */
  primary: string;
  /** How the hooks run orchard, e.g. `orchard` or `'/usr/bin/node' '/x/dist/bin/orchard.js' --home '/h'`. */
  command: string;
  policy?: string | undefined;
  dryRun: boolean;
}

export interface InstallResult {
  ok: true;
  action: "installed" | "unchanged" | "planned";
  file: string;
  diff: string;
  settings: Settings;
}

const MAX_BYTES = 1024 * 1024;

export function settingsFile(scope: InstallOptions["scope"], primary: string): string {
  return scope === "user" ? join(process.env.CLAUDE_CONFIG_DIR || join(homedir(), ".claude"), "settings.json") : join(primary, ".claude", "settings.json");
}

function readSettings(file: string): { text: string; settings: Settings } {
  if (!existsSync(file)) return { text: "", settings: {} };
  const stat = lstatSync(file);
  if (!stat.isFile()) throw usageError("invalid_config", `${file} is not a regular file`);
  if (stat.size > MAX_BYTES) throw usageError("invalid_config", `${file} is over 1 MiB`);
  const text = readFileSync(file, "utf8");
  let value: unknown;
  try {
    value = text.trim() === "" ? {} : JSON.parse(text);
  } catch {
    throw usageError("invalid_config", `${file} is not valid JSON; fix it first (nothing was written)`);
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) throw usageError("invalid_config", `${file} is not a JSON object`);
  return { text, settings: value as Settings };
}

function writeAtomically(file: string, text: string): void {
  mkdirSync(dirname(file), { recursive: true });
  const temp = `${file}.orchard-tmp`;
  rmSync(temp, { force: true }); // a temp left by a crash: ours to replace (rm never follows a symlink)
  const fd = openSync(temp, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW, 0o644);
  try {
    writeSync(fd, text);
  } finally {
    closeSync(fd);
  }
  renameSync(temp, file);
}

export function installHooks(options: InstallOptions): InstallResult {
  const file = settingsFile(options.scope, options.primary);
  const before = readSettings(file);
  const settings = mergeOrchardHooks(before.settings, options.command, { policy: options.policy });
  const after = `${JSON.stringify(settings, null, 2)}\n`;
  const unchanged = before.text.trim() !== "" && JSON.stringify(before.settings) === JSON.stringify(settings);
  const diff = unchanged ? "" : lineDiff(before.text.replace(/\n$/, ""), after.replace(/\n$/, ""));
  if (unchanged) return { ok: true, action: "unchanged", file, diff, settings };
  if (options.dryRun) return { ok: true, action: "planned", file, diff, settings };
  writeAtomically(file, after);
  return { ok: true, action: "installed", file, diff, settings };
}
