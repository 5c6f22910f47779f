// `orchard claude-code install|uninstall [--user|--project] [--dry-run]`: Orchard's hooks in Claude
// Code's settings (user: ~/.claude/settings.json; project: <primary>/.claude/settings.json, which is
// the one Claude Code re-reads from inside the new worktree, so it must be committed). A project
// install writes a portable command — the bin name `orchard` or `npx -y orchard-worktrees` — never
// a path of this machine (SPEC v3 §3.14); a user install may pin this node and script. Both edit the
// file in place, keeping its formatting (settings.ts). The file is replaced atomically through a
// temp file created O_EXCL|O_NOFOLLOW; a settings file that is not a regular JSON object is an error
// naming it, and nothing is written.
import { closeSync, constants, existsSync, lstatSync, mkdirSync, openSync, renameSync, rmSync, statSync, writeSync } from "node:fs";
import { homedir } from "node:os";
import { delimiter, dirname, join } from "node:path";
import { usageError } from "../shared/errors.js";
import { shellQuote } from "../shared/shell-quote.js";
import { readClaudeWorktreeSettings } from "./worktree-settings.js";
import { hookCommands, installIntoText, lineDiff, uninstallFromText } from "./settings.js";
import { readPlainText } from "../shared/files.js";
import { HOOK_SCRIPT, HOOK_SCRIPT_TEXT, isOurScript } from "./fallback.js";

/**
 * How the hooks run orchard: `bin` the command `orchard` found through PATH; `npx` the published
 * package through npx (a project's devDependency, else the registry); `path` this node and script
 * (absolute: user installs only); `command` exactly the given text (the escape hatch).
 */
export type HookRunner = { via: "bin" } | { via: "npx" } | { via: "path"; node: string; script: string } | { via: "command"; command: string };

/** A note of install's own (SPEC §2 notes: code and message). */
export interface InstallNote {
  code: "not_on_path";
  message: string;
}

export const PACKAGE_NAME = "orchard-worktrees";

export interface InstallOptions {
  scope: "user" | "project";
  /** The primary of the repo (project scope). */
  primary: string;
  runner: HookRunner;
  /** A workspace to pin into the command (`--home`): a path of this machine, so user installs only. */
  home?: string | undefined;
  policy?: string | undefined;
  dryRun: boolean;
}

export interface InstallResult {
  ok: true;
  action: "installed" | "unchanged" | "planned";
  file: string;
  /** What the hooks run before their subcommand, e.g. `orchard` or `npx -y orchard-worktrees`. */
  command: string;
  diff: string;
  notes: InstallNote[];
  /** The hook script beside the settings (fallback.ts), for a `--via bin` install; null otherwise. */
  script: ScriptChange | null;
}

/** What install or uninstall did (or would do: `planned`) to the hook script. */
export interface ScriptChange {
  file: string;
  action: "written" | "unchanged" | "removed" | "kept" | "planned";
}

export interface UninstallOptions {
  scope: "user" | "project";
  primary: string;
  dryRun: boolean;
}

export interface UninstallResult {
  ok: true;
  action: "uninstalled" | "not_installed" | "planned";
  file: string;
  diff: string;
  /** The hook script install wrote: removed when byte for byte install's, kept (and said) when edited; null when there is none. */
  script: ScriptChange | null;
}

const MAX_BYTES = 1024 * 1024;

export function settingsFile(scope: InstallOptions["scope"], primary: string): string {
  return scope === "user" ? join(process.env.CLAUDE_CONFIG_DIR || join(homedir(), ".claude"), "settings.json") : join(primary, ".claude", "settings.json");
}

export function readSettingsText(file: string): string {
  if (!existsSync(file)) return "";
  const stat = lstatSync(file);
  if (!stat.isFile()) throw usageError("invalid_config", `${file} is not a regular file`);
  if (stat.size > MAX_BYTES) throw usageError("invalid_config", `${file} is over 1 MiB`);
  const text = readPlainText(file, MAX_BYTES);
  if (text === null) throw usageError("invalid_config", `${file} cannot be read as a regular file`);
  let value: unknown;
  try {
    value = text.trim() === "" ? {} : JSON.parse(text);
  } catch {
    throw usageError("invalid_config", `${file} is not valid JSON; fix it first (nothing was written)`);
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) throw usageError("invalid_config", `${file} is not a JSON object`);
  return text;
}

export function writeAtomically(file: string, text: string): void {
  mkdirSync(dirname(file), { recursive: true });
  const mode = existsSync(file) ? statSync(file).mode & 0o777 : 0o644;
  const temp = `${file}.orchard-tmp`;
  rmSync(temp, { force: true }); // a temp left by a crash: ours to replace (rm never follows a symlink)
  const fd = openSync(temp, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW, mode);
  try {
    writeSync(fd, text);
  } finally {
    closeSync(fd);
  }
  renameSync(temp, file);
}

/** The command the hooks run orchard with (before the subcommand), every value shell-quoted. */
export function runnerCommand(options: Pick<InstallOptions, "scope" | "runner" | "home">): string {
  const { runner, scope, home } = options;
  if (runner.via === "command") return runner.command;
  if (scope === "project" && runner.via === "path")
    throw usageError(
      "usage",
      "a project install never writes a path of this machine: use --via bin or --via npx (or --command to write exactly what you want)",
    );
  if (scope === "project" && home !== undefined)
    throw usageError(
      "usage",
      "a project install never writes a path of this machine, and --home is one: set ORCHARD_HOME where the harness runs, install with --user, or give --command",
    );
  const base = runner.via === "bin" ? "orchard" : runner.via === "npx" ? `npx -y ${PACKAGE_NAME}` : `${shellQuote(runner.node)} ${shellQuote(runner.script)}`;
  return home === undefined ? base : `${base} --home ${shellQuote(home)}`;
}

/** True when a program named `name` is on PATH. */
export function onPath(name: string): boolean {
  return (process.env.PATH ?? "").split(delimiter).some((dir) => dir !== "" && existsSync(join(dir, name)));
}

function runnerNotes(runner: HookRunner): InstallNote[] {
  if (runner.via === "bin" && !onPath("orchard"))
    return [
      {
        code: "not_on_path",
        message: `\`orchard\` is not on this PATH: until it is, the hooks fall back to Claude Code's own worktrees (npm install -g ${PACKAGE_NAME}); a project that has ${PACKAGE_NAME} as a devDependency can use --via npx`,
      },
    ];
  return [];
}

/** The hook script's path beside `file`, and the shell word a hook command names it with (a project's: wherever it is checked out). */
function scriptOf(scope: InstallOptions["scope"], file: string): { path: string; word: string } {
  const path = join(dirname(file), HOOK_SCRIPT);
  return { path, word: scope === "project" ? `"\${CLAUDE_PROJECT_DIR:-.}/.claude/${HOOK_SCRIPT}"` : shellQuote(path) };
}

/** The hook script's text as it is on disk, or null when there is none; a file there that is not a regular file is an error naming it. */
function readScript(path: string): string | null {
  if (!existsSync(path) && !isLink(path)) return null;
  const text = lstatSync(path).isFile() ? readPlainText(path, MAX_BYTES) : null;
  if (text === null) throw usageError("invalid_config", `${path} is not a regular file; move it away first (nothing was written)`);
  return text;
}

function isLink(path: string): boolean {
  try {
    return lstatSync(path).isSymbolicLink();
  } catch {
    return false;
  }
}

export function installHooks(options: InstallOptions): InstallResult {
  const file = settingsFile(options.scope, options.primary);
  // Claude Code's worktree settings the hooks would meet: what Orchard cannot honour is refused now (nothing written)
  readClaudeWorktreeSettings(options.scope === "project" ? options.primary : null);
  const command = runnerCommand(options);
  // `orchard` through PATH: where a machine has none (a teammate without Orchard), Claude Code's native behaviour, from the script
  const script = options.runner.via === "bin" ? scriptOf(options.scope, file) : null;
  const commands = hookCommands(command, { policy: options.policy, script: script?.word });
  const before = readSettingsText(file);
  const after = installIntoText(before, commands);
  const notes = runnerNotes(options.runner);
  const scriptBefore = script === null ? null : readScript(script.path);
  if (script !== null && scriptBefore !== null && !isOurScript(scriptBefore))
    throw usageError("hook_conflict", `${script.path} is not Orchard's hook script; move it away first (nothing was written)`);
  const writeScript = script !== null && scriptBefore !== HOOK_SCRIPT_TEXT;
  const scriptChange = (action: ScriptChange["action"]): ScriptChange | null => (script === null ? null : { file: script.path, action });
  if (after === before && !writeScript) return { ok: true, action: "unchanged", file, command, diff: "", notes, script: scriptChange("unchanged") };
  const diff = lineDiff(before.replace(/\n$/, ""), after.replace(/\n$/, ""));
  if (options.dryRun) return { ok: true, action: "planned", file, command, diff, notes, script: scriptChange(writeScript ? "planned" : "unchanged") };
  // the script first: the settings never name a script that is not there
  if (writeScript) writeAtomically(script.path, HOOK_SCRIPT_TEXT);
  if (after !== before) writeAtomically(file, after);
  return { ok: true, action: "installed", file, command, diff, notes, script: scriptChange(writeScript ? "written" : "unchanged") };
}

export function uninstallHooks(options: UninstallOptions): UninstallResult {
  const file = settingsFile(options.scope, options.primary);
  const before = readSettingsText(file);
  const after = uninstallFromText(before);
  const path = join(dirname(file), HOOK_SCRIPT);
  const text = readScript(path);
  // only the bytes install wrote go: an edited script is the user's now, kept and said
  const script: ScriptChange | null =
    text === null ? null : { file: path, action: text !== HOOK_SCRIPT_TEXT ? "kept" : options.dryRun ? "planned" : "removed" };
  if (after === before && script?.action !== "removed" && script?.action !== "planned") return { ok: true, action: "not_installed", file, diff: "", script };
  const diff = after === before ? "" : lineDiff(before.replace(/\n$/, ""), after.replace(/\n$/, ""));
  if (options.dryRun) return { ok: true, action: "planned", file, diff, script };
  if (after !== before) writeAtomically(file, after);
  if (script?.action === "removed") rmSync(path);
  return { ok: true, action: "uninstalled", file, diff, script };
}
