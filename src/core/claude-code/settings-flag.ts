// Claude Code's `--settings <file|json>` flag (SPEC v4 §3.14): a settings layer above the project's
// files and below managed settings, given only on the command line of the Claude Code process that
// runs the hook (ancestry.ts finds it). Its value is inline JSON when, trimmed, it starts with `{`
// and ends with `}` (as Claude Code 2.1.x decides), else a file, relative to the directory Claude Code
// started in (the hook's `cwd`). Where the command line cannot be read, the caller is told so in a
// note: the session may then differ from native, and the person should know why.
import { isAbsolute, resolve } from "node:path";
import { readProcessArgv, readPsArgs } from "../../git/ps.js";
import type { FlagSettings } from "../shared/claude/claude-settings.js";
import type { HostIdentity } from "./ancestry.js";

export interface SettingsFlag {
  flag: FlagSettings | null;
  /** Why a `--settings` layer may be missing (unreadable command line), or null. */
  note: string | null;
}

/** The last `--settings` of an argument vector (`--settings X` or `--settings=X`, before any `--`), or null. */
export function settingsFlagOf(argv: readonly string[], cwd: string): FlagSettings | null {
  let value: string | null = null;
  for (let i = 1; i < argv.length; i++) {
    const word = argv[i] as string;
    if (word === "--") break;
    if (word.startsWith("--settings=")) value = word.slice("--settings=".length);
    else if (word === "--settings" && i + 1 < argv.length) value = argv[++i] as string;
  }
  if (value === null) return null;
  const trimmed = value.trim();
  if (trimmed.startsWith("{") && trimmed.endsWith("}")) return { kind: "inline", text: trimmed };
  return { kind: "file", path: isAbsolute(value) ? value : resolve(cwd, value) };
}

/** The `--settings` layer of the Claude Code process `host`, read from its command line. */
export async function readSettingsFlag(host: HostIdentity, cwd: string): Promise<SettingsFlag> {
  if (host.state !== "alive")
    return { flag: null, note: "the Claude Code process is not known: settings it was given with --settings (if any) are not applied" };
  const argv = readProcessArgv(host.pid);
  if (argv !== null) return { flag: settingsFlagOf(argv, cwd), note: null };
  const words = process.platform === "linux" ? null : await readPsArgs(host.pid);
  if (words !== null && !/(^|\s)--settings(\s|=|$)/.test(words)) return { flag: null, note: null };
  return { flag: null, note: `could not read the command line of Claude Code (pid ${host.pid}): settings it was given with --settings are not applied` };
}
