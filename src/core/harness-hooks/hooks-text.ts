// Orchard's session hooks in another harness's hook file (SPEC v5 §3.15), pure: Codex's
// `$CODEX_HOME/hooks.json`, Gemini CLI's `settings.json` and Copilot CLI's hook file all hold
// `hooks: { <Event>: [ <entry>, … ] }`. Codex and Gemini write Claude Code's entry shape (a group
// `{hooks: [{type: "command", command}]}`); Copilot CLI writes the command in the entry itself
// (`{type: "command", bash}`). The text is edited in place (claude-code's json-text.ts): Orchard's
// entries are recognised by the subcommand their command runs; install replaces such a command in
// place or appends one entry per event; uninstall removes exactly those (and a list or `hooks`
// object its removal left empty). Every other byte stays as it was.
import { usageError } from "../shared/errors.js";
import {
  addMember,
  appendItem,
  detectStyle,
  isOrchards,
  parseJsonTree,
  removeEmptiedEvent,
  removeItem,
  replaceValue,
  type JsonNode,
} from "../claude-code/index.js";

/** One hook Orchard installs: the event's key and the subcommand it runs. */
export interface HookSpec {
  event: string;
  args: string;
}

/** Where an entry keeps its command: in a group's `hooks` list under `command` (Claude's shape), or in the entry under `bash` (Copilot CLI's). */
export type EntryShape = "grouped" | "flat";

type ObjectNode = Extract<JsonNode, { kind: "object" }>;
type ArrayNode = Extract<JsonNode, { kind: "array" }>;

const member = (node: ObjectNode, key: string) => node.members.find((m) => m.key === key);

function objectAt(node: JsonNode | undefined, what: string): ObjectNode | undefined {
  if (node === undefined) return undefined;
  if (node.kind !== "object") throw usageError("invalid_config", `the hook file's ${what} is not an object`);
  return node;
}

function listAt(node: JsonNode | undefined, what: string): ArrayNode | undefined {
  if (node === undefined) return undefined;
  if (node.kind !== "array") throw usageError("invalid_config", `the hook file's ${what} is not a list`);
  return node;
}

/** A command of an event's list: the entry's index, the hook's index inside a group (null: flat), the command's node and text. */
interface Found {
  entry: number;
  hook: number | null;
  command: JsonNode;
  text: string;
}

function stringAt(node: JsonNode, key: string): JsonNode | undefined {
  const value = node.kind === "object" ? member(node, key)?.value : undefined;
  return value?.kind === "scalar" && typeof value.value === "string" ? value : undefined;
}

function commandsOf(list: ArrayNode, shape: EntryShape): Found[] {
  return list.items.flatMap((entry, e): Found[] => {
    if (shape === "flat") {
      const command = stringAt(entry, "bash");
      return command ? [{ entry: e, hook: null, command, text: (command as { value: string }).value }] : [];
    }
    const hooks = entry.kind === "object" ? member(entry, "hooks")?.value : undefined;
    if (hooks?.kind !== "array") return [];
    return hooks.items.flatMap((hook, h) => {
      const command = stringAt(hook, "command");
      return command ? [{ entry: e, hook: h, command, text: (command as { value: string }).value }] : [];
    });
  });
}

function entryFor(shape: EntryShape, command: string): { [key: string]: unknown } {
  return shape === "flat" ? { type: "command", bash: command } : { hooks: [{ type: "command", command }] };
}

function removeOne(text: string, list: ArrayNode, found: Found): string {
  if (found.hook === null) return removeItem(text, list, found.entry);
  const hooks = member(list.items[found.entry] as ObjectNode, "hooks")?.value as ArrayNode;
  return hooks.items.length === 1 ? removeItem(text, list, found.entry) : removeItem(text, hooks, found.hook);
}

/** One edit towards `command` installed for `hook`, or null when the text already says it. */
function installStep(text: string, hook: HookSpec, command: string, shape: EntryShape, top: Record<string, unknown>): string | null {
  const root = objectAt(parseJsonTree(text), "top level") as ObjectNode;
  const style = detectStyle(text, root);
  const missing = Object.keys(top).find((key) => member(root, key) === undefined);
  if (missing !== undefined) return addMember(text, root, missing, top[missing] as never, style, 0);
  const hooks = objectAt(member(root, "hooks")?.value, `"hooks"`);
  const entry = entryFor(shape, command) as never;
  if (!hooks) return addMember(text, root, "hooks", { [hook.event]: [entry] }, style, 0);
  const list = listAt(member(hooks, hook.event)?.value, `hooks.${hook.event}`);
  if (!list) return addMember(text, hooks, hook.event, [entry], style, 1);
  const [first, ...duplicates] = commandsOf(list, shape).filter((c) => isOrchards(c.text, hook.args));
  const duplicate = duplicates.at(-1);
  if (duplicate) return removeOne(text, list, duplicate);
  if (!first) return appendItem(text, list, entry, style, 2);
  return first.text === command ? null : replaceValue(text, first.command, command, style, 0);
}

/** The empty file an install starts from: JSON.stringify(x, null, 2)'s style. An uninstall that leaves exactly it removes the file. */
export const NEW_FILE = "{\n}\n";

export interface InstallText {
  hooks: readonly HookSpec[];
  commands: ReadonlyMap<string, string>;
  shape: EntryShape;
  /** Top-level members a new hook file needs besides `hooks` (Copilot CLI's `version`), added only when absent. */
  top?: Record<string, unknown>;
}

/** The text with Orchard's hooks installed (one command per event). */
export function installIntoText(text: string, spec: InstallText): string {
  let current = text.trim() === "" ? NEW_FILE : text;
  for (const hook of spec.hooks) {
    const command = spec.commands.get(hook.event) as string;
    for (let step = installStep(current, hook, command, spec.shape, spec.top ?? {}); step !== null;) {
      current = step;
      step = installStep(current, hook, command, spec.shape, spec.top ?? {});
    }
  }
  return current;
}

/** The text without Orchard's hooks; an event list (and `hooks`) that Orchard's removal emptied goes too. */
export function uninstallFromText(text: string, spec: Omit<InstallText, "commands" | "top">): string {
  if (text.trim() === "") return text;
  const emptied = new Set<string>();
  let current = text;
  for (;;) {
    const root = objectAt(parseJsonTree(current), "top level") as ObjectNode;
    const hooksAt = root.members.findIndex((m) => m.key === "hooks");
    const hooks = objectAt(root.members[hooksAt]?.value, `"hooks"`);
    if (!hooks) return current;
    const step = uninstallStep(current, hooks, spec, emptied) ?? removeEmptiedEvent(current, root, hooksAt, emptied);
    if (step === null) return current;
    current = step;
  }
}

function uninstallStep(text: string, hooks: ObjectNode, spec: Omit<InstallText, "commands" | "top">, emptied: Set<string>): string | null {
  for (const { key, value } of hooks.members) {
    const hook = spec.hooks.find((h) => h.event === key);
    if (!hook || value.kind !== "array") continue;
    const last = commandsOf(value, spec.shape)
      .filter((c) => isOrchards(c.text, hook.args))
      .at(-1);
    if (!last) continue;
    emptied.add(key);
    return removeOne(text, value, last);
  }
  return null;
}
