// `orchard opencode install|uninstall [--project|--user]` (SPEC v5 §3.15): Orchard's plugin file
// (opencode-plugin.ts) in OpenCode's plugin directory — the project's `.opencode/plugin/orchard.js`
// (commit it) or the user's `$XDG_CONFIG_HOME/opencode/plugin/orchard.js` (default ~/.config).
// OpenCode loads it at start; its workspaces are experimental (OPENCODE_EXPERIMENTAL_WORKSPACES=true).
// Install writes the file (idempotent; a file of that name that is not Orchard's is a conflict);
// uninstall deletes exactly that file — only when it is Orchard's — and the directories install made
// for it when they are left empty.
import { existsSync, lstatSync, mkdirSync, readdirSync, readFileSync, rmdirSync, rmSync } from "node:fs";
import { homedir } from "node:os";
import { dirname, join } from "node:path";
import { usageError } from "../shared/errors.js";
import { runnerCommand, writeAtomically, PACKAGE_NAME, type HookRunner } from "../claude-code/index.js";
import { OPENCODE_PLUGIN_MARKER, opencodePluginText } from "./opencode-plugin.js";
import { diffOf, type HookFileResult } from "./install.js";

export interface OpencodeInstallOptions {
  scope: "user" | "project";
  primary: string;
  runner: HookRunner;
  home?: string | undefined;
  dryRun: boolean;
}

export function opencodePluginFile(scope: "user" | "project", primary: string, env: NodeJS.ProcessEnv = process.env): string {
  if (scope === "project") return join(primary, ".opencode", "plugin", "orchard.js");
  return join(env.XDG_CONFIG_HOME || join(homedir(), ".config"), "opencode", "plugin", "orchard.js");
}

/** How the plugin runs orchard, as an argument vector (the plugin spawns no shell but for --command). */
export function runnerArgv(options: Pick<OpencodeInstallOptions, "scope" | "runner" | "home">): string[] {
  runnerCommand(options); // a project install never names a path of this machine: refused there as for Claude Code
  const { runner, home } = options;
  const base =
    runner.via === "command"
      ? ["/bin/sh", "-c", `${runner.command} "$@"`, "orchard"]
      : runner.via === "bin"
        ? ["orchard"]
        : runner.via === "npx"
          ? ["npx", "-y", PACKAGE_NAME]
          : [runner.node, runner.script];
  return home === undefined || runner.via === "command" ? base : [...base, "--home", home];
}

function readPlugin(file: string): string | null {
  if (!existsSync(file)) return null;
  const stat = lstatSync(file);
  if (!stat.isFile() || stat.size > 1024 * 1024) throw usageError("invalid_config", `${file} is not a regular file of at most 1 MiB`);
  return readFileSync(file, "utf8");
}

const isOurs = (text: string): boolean => text.startsWith(`${OPENCODE_PLUGIN_MARKER}\n`);

export function installOpencodePlugin(options: OpencodeInstallOptions): HookFileResult {
  const file = opencodePluginFile(options.scope, options.primary);
  const argv = runnerArgv(options);
  const after = opencodePluginText(argv);
  const before = readPlugin(file);
  if (before !== null && !isOurs(before)) throw usageError("hook_conflict", `${file} is not Orchard's plugin; move it away first (nothing was written)`);
  const command = runnerCommand(options); // what it runs, as a person would type it
  const base = { ok: true as const, file, command, notes: [] };
  if (before === after) return { ...base, action: "unchanged", diff: "" };
  const diff = diffOf(before ?? "", after);
  if (options.dryRun) return { ...base, action: "planned", diff };
  mkdirSync(dirname(file), { recursive: true });
  writeAtomically(file, after);
  return { ...base, action: "installed", diff };
}

export function uninstallOpencodePlugin(options: Pick<OpencodeInstallOptions, "scope" | "primary" | "dryRun">): HookFileResult {
  const file = opencodePluginFile(options.scope, options.primary);
  const before = readPlugin(file);
  if (before === null || !isOurs(before)) return { ok: true, action: "not_installed", file, diff: "", notes: [] };
  const diff = diffOf(before, "");
  if (options.dryRun) return { ok: true, action: "planned", file, diff, notes: [] };
  rmSync(file);
  // `plugin/`, then `.opencode/` (project) — only when left empty
  for (let dir = dirname(file), depth = 0; depth < 2 && readdirSync(dir).length === 0; dir = dirname(dir), depth++) rmdirSync(dir);
  return { ok: true, action: "uninstalled", file, diff, notes: [] };
}
