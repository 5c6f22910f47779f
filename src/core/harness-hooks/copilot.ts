// Copilot CLI (SPEC v5 §3.15; 1.0.102 read). Its worktrees (`--worktree`, `/worktree`, `/new`) go to
// `<repo>.worktrees/<branchSlug>` unless the user setting `worktreePathTemplate` (`{repoPath}`,
// `{repo}`, `{branch}`, `{branchSlug}`) says otherwise. `orchard copilot install` edits the user's
// `$COPILOT_HOME/settings.json` (default ~/.copilot) in place: `worktreePathTemplate` set to
// `<Orchard's home>/copilot/{repo}/{branchSlug}` (a template the user set is kept, and said), and the
// hooks `SessionStart` → `orchard copilot session-start`, `SessionEnd` → `orchard copilot
// session-end` in Copilot's own entry shape (`{type: "command", bash}`). With PascalCase event names
// Copilot CLI writes Claude Code's snake_case input (`session_id`, `cwd`, `hook_event_name`).
// Uninstall removes exactly those (the template only when it is still Orchard's).
import { homedir } from "node:os";
import { basename, dirname, join } from "node:path";
import { parseJsonTree, readSettingsText, removeMember, writeAtomically, type JsonNode } from "../claude-code/index.js";
import { installIntoText, uninstallFromText, type HookSpec } from "./hooks-text.js";
import { diffOf, removeEmptied, type HookFileResult } from "./install.js";

export const COPILOT_HOOKS: readonly HookSpec[] = [
  { event: "SessionStart", args: "copilot session-start" },
  { event: "SessionEnd", args: "copilot session-end" },
];

const TEMPLATE_KEY = "worktreePathTemplate";

export function copilotSettingsFile(env: NodeJS.ProcessEnv = process.env): string {
  return join(env.COPILOT_HOME || join(homedir(), ".copilot"), "settings.json");
}

/** Where Copilot CLI puts its worktrees once Orchard is installed: under Orchard's home. */
export function copilotTemplate(home: string): string {
  return join(home, "copilot", "{repo}", "{branchSlug}");
}

/** A worktree Copilot CLI made: `<repo>.worktrees/<slug>`, or `<home>/copilot/<repo>/<slug>` (Orchard's template). */
export function isCopilotWorktree(path: string, home: string): boolean {
  return basename(dirname(path)).endsWith(".worktrees") || dirname(dirname(path)) === join(home, "copilot");
}

type ObjectNode = Extract<JsonNode, { kind: "object" }>;

function templateOf(text: string): { value: unknown; index: number } | null {
  if (text.trim() === "") return null;
  const root = parseJsonTree(text) as ObjectNode;
  const index = root.members.findIndex((m) => m.key === TEMPLATE_KEY);
  const node = root.members[index]?.value;
  return node === undefined ? null : { value: node.kind === "scalar" ? node.value : undefined, index };
}

export function installCopilot(options: { home: string; command: string; dryRun: boolean }): HookFileResult {
  const file = copilotSettingsFile();
  const before = readSettingsText(file);
  const template = copilotTemplate(options.home);
  const commands = new Map(COPILOT_HOOKS.map((h) => [h.event, `${options.command} ${h.args}`]));
  const after = installIntoText(before, { hooks: COPILOT_HOOKS, commands, shape: "flat", top: { [TEMPLATE_KEY]: template } });
  const set = templateOf(after)?.value;
  const notes =
    set === template
      ? []
      : [{ code: "template_kept", message: `${file} sets ${TEMPLATE_KEY} to ${JSON.stringify(set)}; Copilot's worktrees go there, outside Orchard's home` }];
  const base = { ok: true as const, file, command: options.command, notes };
  if (after === before) return { ...base, action: "unchanged", diff: "" };
  const diff = diffOf(before, after);
  if (options.dryRun) return { ...base, action: "planned", diff };
  writeAtomically(file, after);
  return { ...base, action: "installed", diff };
}

export function uninstallCopilot(options: { home: string; dryRun: boolean }): HookFileResult {
  const file = copilotSettingsFile();
  const before = readSettingsText(file);
  let after = uninstallFromText(before, { hooks: COPILOT_HOOKS, shape: "flat" });
  const template = templateOf(after);
  if (template?.value === copilotTemplate(options.home)) after = removeMember(after, parseJsonTree(after) as ObjectNode, template.index);
  if (after === before) return { ok: true, action: "not_installed", file, diff: "", notes: [] };
  const gone = after === "{}\n"; // the file install made holds nothing else
  const diff = diffOf(before, gone ? "" : after);
  if (options.dryRun) return { ok: true, action: "planned", file, diff, notes: [] };
  if (gone) removeEmptied(file);
  else writeAtomically(file, after);
  return { ok: true, action: "uninstalled", file, diff, notes: [] };
}
