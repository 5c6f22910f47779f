// Reading a repository's program settings (programs.ts) from git: one `git config` in the primary
// for every scope, then, where there are any, the files git would read only from elsewhere — each
// worktree's config.worktree and every file an include names (an includeIf whose condition holds
// in another worktree, an onbranch: there) — read one by one, each include followed by hand. What
// any of them names counts: a setting the primary's own view misses still gets its override.
import { existsSync, readFileSync, readdirSync } from "node:fs";
import { dirname, isAbsolute, join, resolve } from "node:path";
import { homedir } from "node:os";
import { git } from "./run.js";
import { guardFrom, PROGRAM_KEYS_REGEXP, type ConfigEntry, type ProgramGuard } from "./programs.js";
import { cachedGuard, keptGuardSignature, rememberGuard } from "./warm/guard-cache.js";

const INCLUDE = /^(include\.path|includeif\..*\.path)$/;
/** How many extra files one repository's settings are read from, at most (an include cycle ends here too). */
const MAX_FILES = 64;

interface Raw {
  scope: string;
  origin: string;
  key: string;
  value: string;
}

/** `git config -z [--show-scope] --show-origin --get-regexp`: records `[scope\0]origin\0key\nvalue\0`. */
function parse(stdout: string, withScope: boolean): Raw[] {
  const tokens = stdout.split("\0");
  const out: Raw[] = [];
  for (let i = 0; i + (withScope ? 2 : 1) < tokens.length;) {
    const scope = withScope ? tokens[i++]! : "repo";
    const origin = tokens[i++]!;
    const record = tokens[i++]!;
    const nl = record.indexOf("\n");
    out.push({ scope, origin, key: nl < 0 ? record : record.slice(0, nl), value: nl < 0 ? "true" : record.slice(nl + 1) });
  }
  return out;
}

const fileOf = (origin: string, cwd: string): string | null => (origin.startsWith("file:") ? resolve(cwd, origin.slice(5)) : null);

/** An include's path as git resolves it: `~/` from home, relative to the including file's directory. */
function includeTarget(value: string, from: string): string {
  if (value.startsWith("~/")) return join(homedir(), value.slice(2));
  return isAbsolute(value) ? value : resolve(dirname(from), value);
}

/** The query for every scope's program settings, run in the primary (the command line may start it early: early.ts). */
export const PROGRAM_CONFIG_ARGS = ["config", "-z", "--show-scope", "--show-origin", "--get-regexp", PROGRAM_KEYS_REGEXP];

/**
 * The guard of the repository whose primary (or bare repository) is `cwd` and common dir
 * `commonDir`. A long-lived process (the MCP server, a library caller) reads it once and again
 * only when a file it was read from has changed (warm/guard-cache.ts); a command line reads it each time.
 */
export async function readProgramGuard(cwd: string, commonDir: string): Promise<ProgramGuard> {
  const files = configFiles(commonDir);
  const cached = cachedGuard(cwd, commonDir, files);
  if (cached) return cached;
  const readAt = Date.now();
  const { guard, origins, includes } = await readGuard(cwd, commonDir);
  rememberGuard(cwd, commonDir, [...files, ...origins], { guard, readAt, includes });
  return guard;
}

/**
 * The signature of the configuration git reads for this repository, as of now, when its guard is
 * kept (warm/guard-cache.ts) and every file it was read from is as it was; undefined otherwise (not
 * kept, or changed since: read it again). What a warm process keeps by configuration checks it.
 */
export function keptConfigSignature(cwd: string, commonDir: string): string | undefined {
  return cachedGuard(cwd, commonDir, configFiles(commonDir)) ? keptGuardSignature(cwd, commonDir) : undefined;
}

async function readGuard(cwd: string, commonDir: string): Promise<{ guard: ProgramGuard; origins: string[]; includes: boolean }> {
  const r = await git(PROGRAM_CONFIG_ARGS, { cwd, ok: [0, 1] });
  const entries: ConfigEntry[] = [];
  const seen = new Set<string>();
  const origins = new Set<string>();
  let includes = false;
  const pending: string[] = [];
  for (const raw of parse(r.stdout, true)) {
    includes ||= INCLUDE.test(raw.key); // in any scope
    const repo = raw.scope === "local" || raw.scope === "worktree";
    entries.push({ scope: repo ? "repo" : "user", key: raw.key, value: raw.value });
    const file = fileOf(raw.origin, cwd);
    if (file) origins.add(file);
    if (repo && file) seen.add(file);
    if (repo && file && INCLUDE.test(raw.key)) pending.push(includeTarget(raw.value, file));
  }
  if (worktreeConfigOn(join(commonDir, "config"))) pending.push(...worktreeConfigs(commonDir)); // else git reads none of them
  for (let n = 0; pending.length > 0 && n < MAX_FILES; n++) {
    const file = pending.shift()!;
    if (seen.has(file) || !existsSync(file)) continue;
    seen.add(file);
    const f = await git(["config", "-z", "--show-origin", "--file", file, "--get-regexp", PROGRAM_KEYS_REGEXP], { cwd, ok: [0, 1] });
    for (const raw of parse(f.stdout, false)) {
      entries.push({ scope: "repo", key: raw.key, value: raw.value });
      if (INCLUDE.test(raw.key)) {
        includes = true;
        pending.push(includeTarget(raw.value, file));
      }
    }
  }
  return { guard: guardFrom(entries), origins: [...origins], includes };
}

/** Every file git reads config from for this repository, present or not (warm/guard-cache.ts): the system's, the user's, the repository's and, where git reads them, every config.worktree. */
function configFiles(commonDir: string): string[] {
  const env = process.env;
  // GIT_CONFIG_NOSYSTEM is a boolean to git: "0", "false", "no", "off" or empty leave the system's file in force
  const noSystem = !["", "0", "false", "no", "off"].includes((env.GIT_CONFIG_NOSYSTEM ?? "").toLowerCase());
  const system = noSystem ? [] : [env.GIT_CONFIG_SYSTEM || "/etc/gitconfig"];
  const xdg = env.XDG_CONFIG_HOME || join(homedir(), ".config");
  const global = env.GIT_CONFIG_GLOBAL ? [env.GIT_CONFIG_GLOBAL] : [join(homedir(), ".gitconfig"), join(xdg, "git", "config")];
  const repo = join(commonDir, "config");
  return [...system, ...global, repo, ...(worktreeConfigOn(repo) ? worktreeConfigs(commonDir) : [])];
}

/**
 * Whether git may read the worktrees' config.worktree files: only with `extensions.worktreeConfig`,
 * which git takes from the repository's own config file alone (not from an include, the user's
 * files or the environment). No mention of it there (any case, any value) means every config.worktree
 * is ignored, so none is watched: one read of a small file instead of a stat per worktree. The file
 * itself is watched, so turning the extension on is a change. Unreadable: watched, as before.
 */
function worktreeConfigOn(repoConfig: string): boolean {
  try {
    return /worktreeconfig/i.test(readFileSync(repoConfig, "latin1"));
  } catch (error) {
    return (error as NodeJS.ErrnoException).code !== "ENOENT";
  }
}

/** Every config.worktree of the repository (the primary's and each linked worktree's admin dir). */
function worktreeConfigs(commonDir: string): string[] {
  const out = [join(commonDir, "config.worktree")];
  let ids: string[] = [];
  try {
    ids = readdirSync(join(commonDir, "worktrees"));
  } catch {
    return out; // no linked worktrees
  }
  for (const id of ids) out.push(join(commonDir, "worktrees", id, "config.worktree"));
  return out;
}
