// A next step as a value: an `orchard` verb with its target and flags, or another program's
// command line (git, claude). One value, two spellings: the command a person types (the CLI's
// JSON and the library) and the tool call an MCP client makes (`orchard_cleanup_run {"salvage":true}`).
import { shellQuote } from "../shared/shell-quote.js";

export type FlagValue = string | true;

export type Step = { kind: "orchard"; verb: string; target?: string; flags?: Readonly<Record<string, FlagValue>> } | { kind: "shell"; command: string };

export type Surface = "cli" | "mcp";

export const orchard = (verb: string, target?: string | null, flags: Record<string, FlagValue | undefined | null> = {}): Step => {
  const kept = Object.fromEntries(Object.entries(flags).filter((e): e is [string, FlagValue] => e[1] !== undefined && e[1] !== null));
  return { kind: "orchard", verb, ...(target ? { target } : {}), ...(Object.keys(kept).length ? { flags: kept } : {}) };
};

export const shell = (...words: string[]): Step => ({ kind: "shell", command: words.join(" ") });

/** The argument an MCP tool names its positional target with (the library's input field). */
const TARGET_FIELD: Readonly<Record<string, string>> = {
  add: "branch",
  adopt: "path",
  "cleanup apply": "planId",
  "cleanup resume": "planId",
  "salvage restore": "ref",
};

/** Verbs an MCP client has a tool for (never `trust`: a person approves the repository's commands). */
const MCP_VERBS = new Set([
  "add",
  "release",
  "heartbeat",
  "status",
  "list",
  "recycle",
  "hygiene",
  "reap-orphans",
  "cleanup plan",
  "cleanup apply",
  "cleanup resume",
  "cleanup run",
  "cleanup-wave",
  "adopt",
  "lineage",
  "salvage list",
  "salvage restore",
  "merge",
  "remove",
  "path",
]);

const kebab = (name: string): string => name.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);
const camel = (flag: string): string => flag.replace(/-([a-z])/g, (_, c: string) => c.toUpperCase());

/** The command a person types: `orchard cleanup run --include needs_salvage --salvage`. */
export function commandOf(step: Step): string {
  if (step.kind === "shell") return step.command;
  const words = ["orchard", step.verb];
  if (step.target !== undefined) words.push(shellQuote(step.target));
  for (const [flag, value] of Object.entries(step.flags ?? {})) words.push(`--${kebab(flag)}`, ...(value === true ? [] : [shellQuote(value)]));
  return words.join(" ");
}

/** The MCP tool call of an orchard step (`orchard_reap_orphans {"salvage":true}`); a person's command otherwise. */
export function toolCallOf(step: Step): string {
  if (step.kind === "shell" || !MCP_VERBS.has(step.verb)) return commandOf(step);
  const args: Record<string, unknown> = {};
  if (step.target !== undefined) args[TARGET_FIELD[step.verb] ?? "target"] = step.target;
  for (const [flag, value] of Object.entries(step.flags ?? {})) args[camel(flag)] = value;
  return `orchard_${step.verb.replace(/[ -]/g, "_")} ${JSON.stringify(args)}`;
}

export function spell(step: Step | null, surface: Surface): string | null {
  if (step === null) return null;
  return surface === "mcp" ? toolCallOf(step) : commandOf(step);
}

const TWO_WORD_VERBS = new Set(["cleanup", "salvage", "registry", "claude-code"]);

/**
 * A command line Orchard wrote (hygiene's suggestions) as a step: `orchard <verb> [target] --flags`
 * when it is one plain orchard command, else the line as it is (a chain, quotes, another program).
 */
export function stepOf(command: string): Step {
  const words = command.split(" ");
  if (words[0] !== "orchard" || /['"\\&|;]/.test(command) || words.includes("")) return shell(command);
  let i = TWO_WORD_VERBS.has(words[1] ?? "") ? 3 : 2;
  const verb = words.slice(1, i).join(" ");
  const target = words[i] !== undefined && !words[i]?.startsWith("--") ? words[i++] : undefined;
  const flags: Record<string, FlagValue> = {};
  while (i < words.length) {
    const flag = (words[i++] as string).replace(/^--/, "");
    const value = words[i] !== undefined && !words[i]?.startsWith("--") ? (words[i++] as string) : true;
    flags[camel(flag)] = value;
  }
  return orchard(verb, target, flags);
}
