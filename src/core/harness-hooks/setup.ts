// `orchard codex|gemini|copilot install|uninstall` (SPEC v5 §3.15): which file each harness reads its
// hooks from, and Orchard's hooks written there or taken out (install.ts; Copilot's in copilot.ts). A project scope (Gemini CLI)
// writes into the repository's primary; Codex reads Orchard's hooks from the user's file only (it
// ignores a project's hooks file inside a worktree).
import type { Orchard } from "../orchard.js";
import { onPath, PACKAGE_NAME } from "../claude-code/index.js";
import { CODEX_HOOKS, CODEX_TRUST_NOTE, codexHooksFile } from "./codex.js";
import { GEMINI_HOOKS, geminiSettingsFile } from "./gemini.js";
import { installCopilot, uninstallCopilot } from "./copilot.js";
import type { HookSpec } from "./hooks-text.js";
import { installHookFile, uninstallHookFile, type HookFileResult } from "./install.js";
import type { HarnessHookName } from "./session.js";
import { installOpencodePlugin, uninstallOpencodePlugin, type OpencodeInstallOptions } from "./opencode.js";

export interface HarnessInstallOptions {
  scope: "user" | "project";
  /** What the hooks run orchard with, before the subcommand (claude-code's runnerCommand). */
  command: string;
  dryRun: boolean;
  repo?: string;
}

interface Target {
  file: string;
  hooks: readonly HookSpec[];
  notes: HookFileResult["notes"];
}

async function targetOf(orchard: Orchard, harness: HarnessHookName, scope: "user" | "project", repo: string | undefined): Promise<Target> {
  const primary = scope === "project" ? (await orchard.context(repo)).repo.primary : "";
  switch (harness) {
    case "codex":
      return { file: codexHooksFile(), hooks: CODEX_HOOKS, notes: [CODEX_TRUST_NOTE] };
    case "gemini":
      return { file: geminiSettingsFile(scope, primary), hooks: GEMINI_HOOKS, notes: [] };
    case "copilot":
      throw new Error("copilot installs through installCopilot"); // its settings carry more than hooks (copilot.ts)
  }
}

/** `orchard` found through PATH where this PATH has none: the hooks fail until it has (the harness goes on without Orchard). */
function pathNotes(command: string): HookFileResult["notes"] {
  if (!/^orchard( |$)/.test(command) || onPath("orchard")) return [];
  return [
    {
      code: "not_on_path",
      message: `\`orchard\` is not on this PATH: until it is, the hooks fail and the harness goes on without Orchard (npm install -g ${PACKAGE_NAME})`,
    },
  ];
}

export async function installHarnessHooks(orchard: Orchard, harness: HarnessHookName, options: HarnessInstallOptions): Promise<HookFileResult> {
  if (harness === "copilot") {
    const result = installCopilot({ home: orchard.workspace.home, command: options.command, dryRun: options.dryRun });
    return { ...result, notes: [...pathNotes(options.command), ...result.notes] };
  }
  const target = await targetOf(orchard, harness, options.scope, options.repo);
  const commands = new Map(target.hooks.map((h) => [h.event, `${options.command} ${h.args}`]));
  return installHookFile(target.file, {
    hooks: target.hooks,
    commands,
    shape: "grouped",
    command: options.command,
    dryRun: options.dryRun,
    notes: [...pathNotes(options.command), ...target.notes],
  });
}

export async function uninstallHarnessHooks(
  orchard: Orchard,
  harness: HarnessHookName,
  options: Omit<HarnessInstallOptions, "command">,
): Promise<HookFileResult> {
  if (harness === "copilot") return uninstallCopilot({ home: orchard.workspace.home, dryRun: options.dryRun });
  const target = await targetOf(orchard, harness, options.scope, options.repo);
  return uninstallHookFile(target.file, { hooks: target.hooks, shape: "grouped", dryRun: options.dryRun });
}

/** `orchard opencode install`: the plugin file (opencode.ts); the project scope writes into this repo's primary. */
export async function installOpencode(orchard: Orchard, options: Omit<OpencodeInstallOptions, "primary"> & { repo?: string }): Promise<HookFileResult> {
  const { repo, ...rest } = options;
  const primary = rest.scope === "project" ? (await orchard.context(repo)).repo.primary : "";
  return installOpencodePlugin({ ...rest, primary });
}

export async function uninstallOpencode(orchard: Orchard, options: { scope: "user" | "project"; dryRun: boolean; repo?: string }): Promise<HookFileResult> {
  const primary = options.scope === "project" ? (await orchard.context(options.repo)).repo.primary : "";
  return uninstallOpencodePlugin({ scope: options.scope, dryRun: options.dryRun, primary });
}
