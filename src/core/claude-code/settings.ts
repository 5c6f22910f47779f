// Claude Code's settings JSON with Orchard's hooks merged in (SPEC §3.14 install), pure: the hooks
// WorktreeCreate and WorktreeRemove (Orchard as the worktree backend), a SessionStart
// `reap-orphans` sweep and SubagentStop (a subagent's worktree released and removed when clean). Idempotent: Orchard's own entries are recognised by their command and
// replaced in place; every other key and hook is kept as it was. Another tool's WorktreeCreate
// hook is a conflict (Claude Code takes one path; two backends cannot both create the worktree).
import { usageError } from "../shared/errors.js";

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
export type Settings = { [key: string]: Json };

interface HookCommand {
  type: "command";
  command: string;
  timeout?: number;
}

/** The hook events Orchard installs, with the subcommand each runs. */
export const ORCHARD_HOOKS = [
  { event: "WorktreeCreate", args: "claude-code worktree-create", matcher: null },
  { event: "WorktreeRemove", args: "claude-code worktree-remove", matcher: null },
  { event: "SessionStart", args: "reap-orphans --json", matcher: "startup" },
  { event: "SubagentStop", args: "claude-code subagent-stop", matcher: null },
] as const;

const isObject = (v: Json | undefined): v is { [key: string]: Json } => typeof v === "object" && v !== null && !Array.isArray(v);

function commandsOf(group: Json): string[] {
  if (!isObject(group) || !Array.isArray(group.hooks)) return [];
  return group.hooks.flatMap((h) => (isObject(h) && typeof h.command === "string" ? [h.command] : []));
}

/** Orchard's own hook: its command runs the subcommand (with or without options after it). */
function isOrchards(command: string, args: string): boolean {
  return command.includes(` ${args}`);
}

/** `settings` with Orchard's hooks (run through `base`, e.g. `orchard --home /x`) merged in. */
export function mergeOrchardHooks(settings: Settings, base: string, options: { policy?: string | undefined } = {}): Settings {
  const hooks: { [event: string]: Json } = isObject(settings.hooks) ? { ...settings.hooks } : {};
  if (settings.hooks !== undefined && !isObject(settings.hooks)) throw usageError("invalid_argument", `the settings' "hooks" is not an object`);
  for (const hook of ORCHARD_HOOKS) {
    const args = hook.event === "WorktreeCreate" && options.policy ? `${hook.args} --policy ${options.policy}` : hook.args;
    const existing = hooks[hook.event] ?? [];
    if (!Array.isArray(existing)) throw usageError("invalid_argument", `the settings' hooks.${hook.event} is not a list`);
    const others = existing.filter((group) => !commandsOf(group).some((c) => isOrchards(c, hook.args)));
    if (hook.event === "WorktreeCreate" && others.some((group) => commandsOf(group).length > 0))
      throw usageError("hook_conflict", `another WorktreeCreate hook is installed (${others.flatMap(commandsOf).join(", ")}); remove it first`);
    const command: HookCommand = { type: "command", command: `${base} ${args}` };
    const entry: { [key: string]: Json } = hook.matcher ? { matcher: hook.matcher, hooks: [{ ...command }] } : { hooks: [{ ...command }] };
    hooks[hook.event] = [...others, entry];
  }
  return { ...settings, hooks };
}

/** A line diff of two JSON texts (`-`/`+` lines, unchanged lines with two spaces). */
export function lineDiff(before: string, after: string): string {
  const a = before === "" ? [] : before.split("\n");
  const b = after.split("\n");
  const lcs: number[][] = Array.from({ length: a.length + 1 }, () => new Array<number>(b.length + 1).fill(0));
  for (let i = a.length - 1; i >= 0; i--)
    for (let j = b.length - 1; j >= 0; j--) lcs[i]![j] = a[i] === b[j] ? lcs[i + 1]![j + 1]! + 1 : Math.max(lcs[i + 1]![j]!, lcs[i]![j + 1]!);
  const out: string[] = [];
  let [i, j] = [0, 0];
  while (i < a.length || j < b.length) {
    if (i < a.length && j < b.length && a[i] === b[j]) (out.push(`  ${a[i++]}`), j++);
    else if (j < b.length && (i >= a.length || lcs[i]![j + 1]! >= lcs[i + 1]![j]!)) out.push(`+ ${b[j++]}`);
    else out.push(`- ${a[i++]}`);
  }
  return out.join("\n");
}
