// Claude Code's `worktree` settings, honoured by Orchard's WorktreeCreate hook through Orchard's own
// configuration (issue 22 item 3). Claude Code's hook input names no base and no links: the hook
// reads every settings layer Claude Code reads (shared/claude/claude-settings.ts, same precedence:
// user, project, local, the `--settings` flag of the Claude Code process, managed settings):
// - `baseRef`: "fresh" (Claude Code's default: the remote default branch) is Orchard's default base
//   (SPEC §4.4: the newer of the local and remote default branch); "head" starts the new worktree
//   from what the session's directory has checked out (its branch, or its commit when detached).
// - `symlinkDirectories`: added to `bootstrap.link` (the bootstrap's `link` step).
// - `sparsePaths`: the sparse set (`bootstrap.sparse`: the bootstrap's `sparse` step, cone mode),
//   covered by the bootstrap fingerprint, so a worktree of another set is never reused for it.
// Anything Claude Code itself would not accept, or Orchard cannot honour, is an error naming the
// file and the key: install writes nothing (exit 2), the hook fails the session with that message —
// except a `baseRef` Claude Code does not know: Claude Code warns and does not load that file's settings
// (hooks and all), and goes on; so does Orchard (issue 49 item 14), and the session's model is told (session-start.ts).
import { usageError } from "../shared/errors.js";
import { claudeSettingsLayers, settingFrom, type FlagSettings, type SettingsFile } from "../shared/claude/claude-settings.js";
import { linkNameProblem } from "../shared/primary-link.js";
import type { LoadedConfig } from "../shared/config.js";

export const BASE_REFS = ["fresh", "head"] as const;

export interface ClaudeWorktreeSettings {
  baseRef: (typeof BASE_REFS)[number];
  symlinkDirectories: string[];
  sparsePaths: string[];
}

const isBaseRef = (value: unknown): value is ClaudeWorktreeSettings["baseRef"] => (BASE_REFS as readonly unknown[]).includes(value);

const worktreeKey = (key: string) => (v: Record<string, unknown>) => {
  const w = v.worktree;
  return typeof w === "object" && w !== null && !Array.isArray(w) ? (w as Record<string, unknown>)[key] : undefined;
};

function stringList(found: { value: unknown; file: string } | null, key: string): string[] {
  if (found === null) return [];
  if (!Array.isArray(found.value) || !found.value.every((x) => typeof x === "string"))
    throw usageError("invalid_config", `${found.file}: worktree.${key} must be a list of directory names`);
  return found.value as string[];
}

/**
 * The worktree settings Claude Code would apply to a session started in `project`; throws (invalid_config)
 * on what cannot be honoured. A `baseRef` Claude Code does not know is what Claude Code makes of it: a
 * warning (to `warn`), that file's settings set aside (the other layers apply), and the session goes on.
 */
export function readClaudeWorktreeSettings(
  project: string | null,
  flag: FlagSettings | null = null,
  warn: (message: string) => void = () => {},
): ClaudeWorktreeSettings {
  const layers: SettingsFile[] = claudeSettingsLayers(project, flag);
  for (const f of layers)
    if (f.problem) throw usageError("invalid_config", `${f.file} ${f.problem}: Orchard cannot tell which worktree settings Claude Code applies (fix the file)`);
  // Claude Code 2.1.332 sets aside a whole file whose baseRef it does not know ("These settings did not load"): so does Orchard
  const files = layers.filter((f) => {
    const value = f.value === null ? undefined : worktreeKey("baseRef")(f.value);
    if (value === undefined || isBaseRef(value)) return true;
    warn(
      `${f.file}: worktree.baseRef ${JSON.stringify(value)} is neither "fresh" nor "head": Claude Code does not load that file's settings, and Orchard applies none of its worktree settings either`,
    );
    return false;
  });
  const worktree = settingFrom(files, (v) => v.worktree);
  if (worktree && (typeof worktree.value !== "object" || worktree.value === null || Array.isArray(worktree.value)))
    throw usageError("invalid_config", `${worktree.file}: worktree must be an object`);
  const base = settingFrom(files, worktreeKey("baseRef"));
  const links = settingFrom(files, worktreeKey("symlinkDirectories"));
  const symlinkDirectories = stringList(links, "symlinkDirectories");
  for (const name of symlinkDirectories) {
    const problem = linkNameProblem(name);
    if (problem) throw usageError("invalid_config", `${links?.file}: worktree.symlinkDirectories entry ${JSON.stringify(name)} ${problem}`);
  }
  const sparse = settingFrom(files, worktreeKey("sparsePaths"));
  const sparsePaths = stringList(sparse, "sparsePaths");
  for (const path of sparsePaths) {
    const problem = linkNameProblem(path);
    if (problem) throw usageError("invalid_config", `${sparse?.file}: worktree.sparsePaths entry ${JSON.stringify(path)} ${problem}`);
  }
  return { baseRef: (base?.value as ClaudeWorktreeSettings["baseRef"] | undefined) ?? "fresh", symlinkDirectories, sparsePaths };
}

const trimmed = (names: readonly string[]) => names.map((n) => n.replace(/\/+$/, ""));

/**
 * Orchard's configuration with Claude Code's settings in it: symlinkDirectories added to
 * `bootstrap.link` (each name once); sparsePaths, when set, are the sparse set (`bootstrap.sparse`:
 * the settings Claude Code applies to this session win over the repository's file).
 */
export function withClaudeSettings(loaded: LoadedConfig, settings: ClaudeWorktreeSettings): LoadedConfig {
  if (settings.symlinkDirectories.length === 0 && settings.sparsePaths.length === 0) return loaded;
  const bootstrap = { ...(loaded.config.bootstrap ?? {}) };
  if (settings.symlinkDirectories.length > 0) bootstrap.link = [...new Set([...(bootstrap.link ?? []), ...trimmed(settings.symlinkDirectories)])];
  if (settings.sparsePaths.length > 0) bootstrap.sparse = [...new Set(trimmed(settings.sparsePaths))];
  return { ...loaded, config: { ...loaded.config, bootstrap } };
}
