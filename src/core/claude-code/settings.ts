// Orchard's hooks in Claude Code's settings JSON (SPEC §3.14 install/uninstall), pure: the hooks
// WorktreeCreate and WorktreeRemove (Orchard as the worktree backend), a SessionStart sweep that
// tells the model what Orchard did (`claude-code session-start`; an older install's `reap-orphans
// --json` is recognised as Orchard's too) and SubagentStop (a subagent's worktree released and removed when clean).
// Both directions edit the text in place (json-text.ts): Orchard's own hook entries are recognised
// by the subcommand their command runs; an install replaces such a command in place or appends one
// entry per event, an uninstall removes exactly those entries (and a list or `hooks` object its
// removal left empty). Every other byte of the file stays as it was. Another tool's WorktreeCreate
// hook is a conflict (Claude Code takes one path; two backends cannot both create the worktree).
import { usageError } from "../shared/errors.js";
import { POLICIES } from "../shared/request.js";
import { shellQuote } from "../shared/shell-quote.js";
import { throughScript } from "./fallback.js";
import { addMember, appendItem, detectStyle, parseJsonTree, removeEmptiedEvent, removeItem, replaceValue, type JsonNode } from "./json-text.js";

/** The hook events Orchard installs, with the subcommand each runs. */
export const ORCHARD_HOOKS = [
  { event: "WorktreeCreate", args: "claude-code worktree-create", matcher: null },
  { event: "WorktreeRemove", args: "claude-code worktree-remove", matcher: null },
  { event: "SessionStart", args: "claude-code session-start", matcher: "startup" },
  { event: "SubagentStop", args: "claude-code subagent-stop", matcher: null },
] as const;

type Hook = (typeof ORCHARD_HOOKS)[number];

/** What an older install's hook ran, still recognised as Orchard's: replaced in place by install, removed by uninstall. */
const EARLIER_ARGS: Partial<Record<Hook["event"], readonly string[]>> = { SessionStart: ["reap-orphans --json"] };

/**
 * Whether `command` is Orchard's hook for `hook`'s event, as written now or by an older install: that
 * one exactly as it wrote it (at the end, or before the native fallback), so a user's own
 * `reap-orphans --json --repo …` (docs/recipes.md) stays the user's.
 */
function isOurs(command: string, hook: Hook): boolean {
  const earlier = EARLIER_ARGS[hook.event] ?? [];
  return isOrchards(command, hook.args) || earlier.some((args) => command.endsWith(` ${args}`) || command.includes(` ${args} || { `));
}
type ObjectNode = Extract<JsonNode, { kind: "object" }>;
type ArrayNode = Extract<JsonNode, { kind: "array" }>;

/**
 * The command each event's hook runs: `base` (how to run orchard) and the subcommand, every value
 * shell-quoted; with `script` (a shell word naming the hook script), run through it: Claude Code's native
 * behaviour where PATH has no orchard (fallback.ts).
 */
export function hookCommands(base: string, options: { policy?: string | undefined; script?: string | undefined } = {}): Map<Hook["event"], string> {
  if (options.policy !== undefined && !(POLICIES as readonly string[]).includes(options.policy))
    throw usageError("invalid_argument", `--policy must be one of ${POLICIES.join(", ")}, got ${JSON.stringify(options.policy)}`);
  return new Map(
    ORCHARD_HOOKS.map((hook) => {
      const policy = hook.event === "WorktreeCreate" && options.policy ? ` --policy ${shellQuote(options.policy)}` : "";
      const command = `${base} ${hook.args}${policy}`;
      return [hook.event, options.script === undefined ? command : throughScript(options.script, command)];
    }),
  );
}

/** Orchard's own hook: its command runs the subcommand (with or without options after it). */
export function isOrchards(command: string, args: string): boolean {
  const at = command.indexOf(` ${args}`);
  const after = command[at + args.length + 1];
  return at >= 0 && (after === undefined || after === " ");
}

const member = (node: ObjectNode, key: string) => node.members.find((m) => m.key === key);

function objectAt(node: JsonNode | undefined, what: string): ObjectNode | undefined {
  if (node === undefined) return undefined;
  if (node.kind !== "object") throw usageError("invalid_config", `the settings' ${what} is not an object`);
  return node;
}

function listAt(node: JsonNode | undefined, what: string): ArrayNode | undefined {
  if (node === undefined) return undefined;
  if (node.kind !== "array") throw usageError("invalid_config", `the settings' ${what} is not a list`);
  return node;
}

interface Found {
  group: number;
  hook: number;
  command: JsonNode;
}

/** Every hook command of an event's list: [group index, hook index, command node, text]. */
function commandsOf(list: ArrayNode): (Found & { text: string })[] {
  return list.items.flatMap((group, g) => {
    const hooks = group.kind === "object" ? member(group, "hooks")?.value : undefined;
    if (hooks?.kind !== "array") return [];
    return hooks.items.flatMap((hook, h) => {
      const command = hook.kind === "object" ? member(hook, "command")?.value : undefined;
      return command?.kind === "scalar" && typeof command.value === "string" ? [{ group: g, hook: h, command, text: command.value }] : [];
    });
  });
}

function entryFor(hook: Hook, command: string): { [key: string]: unknown } {
  const hooks = [{ type: "command", command }];
  return hook.matcher ? { matcher: hook.matcher, hooks } : { hooks };
}

/** One event's edit, or null when the text already says it: each edit is applied to a freshly parsed text. */
function installStep(text: string, hook: Hook, command: string): string | null {
  const root = objectAt(parseJsonTree(text), "top level") as ObjectNode;
  const style = detectStyle(text, root);
  const hooks = objectAt(member(root, "hooks")?.value, `"hooks"`);
  const entry = entryFor(hook, command) as never;
  if (!hooks) return addMember(text, root, "hooks", { [hook.event]: [entry] }, style, 0);
  const list = listAt(member(hooks, hook.event)?.value, `hooks.${hook.event}`);
  if (!list) return addMember(text, hooks, hook.event, [entry], style, 1);
  const all = commandsOf(list);
  const ours = all.filter((c) => isOurs(c.text, hook));
  if (hook.event === "WorktreeCreate") {
    const others = all.filter((c) => !isOurs(c.text, hook)).map((c) => c.text);
    if (others.length > 0) throw usageError("hook_conflict", `another WorktreeCreate hook is installed (${others.join(", ")}); remove it first`);
  }
  const [first, ...duplicates] = ours;
  const duplicate = duplicates.at(-1);
  if (duplicate) return removeOne(text, list, duplicate);
  if (!first) return appendItem(text, list, entry, style, 2);
  return first.text === command ? null : replaceValue(text, first.command, command, style, 0);
}

/** Removes one Orchard hook: its group too when the hook was all the group held. */
function removeOne(text: string, list: ArrayNode, found: Found): string {
  const group = list.items[found.group] as ObjectNode;
  const hooks = member(group, "hooks")?.value as ArrayNode;
  return hooks.items.length === 1 ? removeItem(text, list, found.group) : removeItem(text, hooks, found.hook);
}

/** The settings text with Orchard's hooks (one command per event, see hookCommands) installed. */
export function installIntoText(text: string, commands: Map<Hook["event"], string>): string {
  let current = text.trim() === "" ? "{\n}\n" : text; // a new file: JSON.stringify(x, null, 2)'s style
  for (const hook of ORCHARD_HOOKS) {
    for (let step = installStep(current, hook, commands.get(hook.event) as string); step !== null;) {
      current = step;
      step = installStep(current, hook, commands.get(hook.event) as string);
    }
  }
  return current;
}

/**
 * The settings text without Orchard's hooks. An event list that Orchard's removal left empty goes,
 * and `hooks` when that left it empty; an empty list the user wrote stays.
 */
export function uninstallFromText(text: string): string {
  if (text.trim() === "") return text;
  const emptied = new Set<string>();
  let current = text;
  for (;;) {
    const root = objectAt(parseJsonTree(current), "top level") as ObjectNode;
    const hooksAt = root.members.findIndex((m) => m.key === "hooks");
    const hooks = objectAt(root.members[hooksAt]?.value, `"hooks"`);
    if (!hooks) return current;
    const step = uninstallStep(current, hooks, emptied) ?? removeEmptiedEvent(current, root, hooksAt, emptied);
    if (step === null) return current;
    current = step;
  }
}

/** Removes the last Orchard hook of the first event that has one (noting the event), or null. */
function uninstallStep(text: string, hooks: ObjectNode, emptied: Set<string>): string | null {
  for (const { key, value } of hooks.members) {
    const hook = ORCHARD_HOOKS.find((h) => h.event === key);
    if (!hook || value.kind !== "array") continue;
    const last = commandsOf(value)
      .filter((c) => isOurs(c.text, hook))
      .at(-1);
    if (!last) continue;
    emptied.add(key);
    return removeOne(text, value, last);
  }
  return null;
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
