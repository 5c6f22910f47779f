// Reading a repository's program settings (policy.ts) from git: one `git config` in the primary
// for every scope, then, where there are any, the files git would read only from elsewhere — each
// worktree's config.worktree and every file an include names (an includeIf whose condition holds
// in another worktree, an onbranch: there) — read one by one, each include followed by hand. What
// any of them names counts: a setting the primary's own view misses still gets its override.
import { lstatSync, readdirSync, realpathSync } from "node:fs";
import { readPlainText } from "../input/plain-file.js";
import { dirname, isAbsolute, join, resolve } from "node:path";
import { homedir } from "node:os";
import { git } from "../run.js";
import { commonDirOf, guardFrom, PROGRAM_KEYS_REGEXP, type ConfigEntry, type ProgramGuard } from "./policy.js";
import { cachedGuard, keptGuardSignature, rememberGuard } from "../warm/guard-cache.js";
import { keepProof, keptProof } from "../warm/proof-cache.js";
import { ALL_WORKTREES, setWorktreeBlocks, type WorktreeBlock } from "../input/boundary.js";
import { readConfigFile } from "../input/programs-vet.js";
import { setWalkConfig } from "../input/walk-vet.js";
import { readPlainFile } from "../input/plain-file.js";
import { parseConfigRecords as parse } from "../parse/config.js";

const INCLUDE = /^(include\.path|includeif\..*\.path)$/;
const RELOCATION = /^core\.(worktree|bare)$/;
const BOOLEAN_TRUE = /^(true|yes|on|1)$/i;

const fileOf = (origin: string, cwd: string): string | null => (origin.startsWith("file:") ? resolve(cwd, origin.slice(5)) : null);

/** An include's path as git resolves it: `~/` from home, relative to the including file's directory. */
function includeTarget(value: string, from: string): string {
  if (value.startsWith("~/")) return join(homedir(), value.slice(2));
  return isAbsolute(value) ? value : resolve(dirname(from), value);
}

/** The files git opens while walking a worktree that the config names (walk-vet.ts): not programs, but read in the same query. */
const WALK_KEYS = /^core\.(excludesfile|attributesfile)$/;

/** The query for every scope's program settings and WALK_KEYS, run in the primary (the command line may start it early: early.ts). */
export const PROGRAM_CONFIG_ARGS = [
  "config",
  "-z",
  "--show-scope",
  "--show-origin",
  "--get-regexp",
  `${PROGRAM_KEYS_REGEXP}|^core\\.(excludesfile|attributesfile)$`,
];

/**
 * The guard of the repository whose primary (or bare repository) is `cwd` and common dir
 * `commonDir`. A long-lived process (the MCP server, a library caller) reads it once and again
 * only when a file it was read from has changed (warm/guard-cache.ts); a command line reads it each time.
 */
export async function readProgramGuard(cwd: string, commonDir: string): Promise<ProgramGuard> {
  const files = configFiles(commonDir);
  const cached = cachedGuard(cwd, commonDir, files);
  if (cached) return cached;
  // kept on disk by an earlier command (warm/proof-cache.ts), with the worktree blocks that reading found
  const key = guardKey(cwd, commonDir);
  const proved = keptProof<KeptGuard>("guard", key, files);
  // (a proof kept before the walk files were part of it is read again)
  if (proved && Array.isArray(proved.walk)) {
    setWorktreeBlocks(realOrSame(commonDir), new Map(proved.blocks));
    setWalkConfig(realOrSame(commonDir), new Map(proved.walk));
    // kept in memory as well, as a read would be: a warm process checks what it keeps against its signature (keptConfigSignature)
    rememberGuard(cwd, commonDir, proved.files, { guard: proved.guard, readAt: Date.now(), includes: false });
    return proved.guard;
  }
  const readAt = Date.now();
  const { guard, origins, includes, blocks, walk } = await readGuard(cwd, commonDir);
  rememberGuard(cwd, commonDir, [...files, ...origins], { guard, readAt, includes });
  // (an include could change what git reads without any of these files changing: never kept, as in memory)
  const all = [...new Set([...files, ...origins])];
  if (!includes) keepProof("guard", key, all, { guard, blocks: [...blocks], walk: [...walk], files: all } satisfies KeptGuard, readAt);
  return guard;
}

interface KeptGuard {
  guard: ProgramGuard;
  blocks: [string, WorktreeBlock][];
  /** The walk files (core.excludesFile, core.attributesFile) each worktree's config names (input/walk-vet.ts). */
  walk: [string, string[]][];
  /** Every file it was read from (the proof's stamps hold the same). */
  files: string[];
}

/** A guard's key: the repository, and the environment that points git at its config files. */
function guardKey(cwd: string, commonDir: string): string {
  const env = Object.keys(process.env)
    .filter((k) => /^(GIT_CONFIG|HOME$|XDG_CONFIG_HOME$)/.test(k))
    .sort()
    .map((k) => `${k}=${process.env[k]}`);
  return [cwd, commonDir, ...env].join("\0");
}

/**
 * The signature of the configuration git reads for this repository, as of now, when its guard is
 * kept (warm/guard-cache.ts) and every file it was read from is as it was; undefined otherwise (not
 * kept, or changed since: read it again). What a warm process keeps by configuration checks it.
 */
export function keptConfigSignature(cwd: string, commonDir: string): string | undefined {
  return cachedGuard(cwd, commonDir, configFiles(commonDir)) ? keptGuardSignature(cwd, commonDir) : undefined;
}

/** The repository's config includes a file git would wait on or misread: every git there would. */
export class ConfigWedgedError extends Error {
  readonly code = "config_unvetted";
  constructor(
    readonly file: string,
    why: string,
  ) {
    super(
      `the repository's config includes ${file}, which is ${why}: every git command there would wait on it or fail; remove the include or the file, then run the command again`,
    );
    this.name = "ConfigWedgedError";
  }
}

/**
 * The first file the repository's own config includes (at any depth, whatever the condition) that
 * is there but is no plain file of at most 1 MiB: git's own reading of the config would wait on a
 * FIFO there. Null when there is none (one read of the config file; no git unless it includes).
 */
async function unvettedInclude(commonDir: string): Promise<{ file: string; why: string } | null> {
  const pending = [join(commonDir, "config")];
  const seen = new Set<string>();
  while (pending.length > 0) {
    const file = pending.shift()!;
    if (seen.has(file)) continue;
    seen.add(file);
    const read = await readConfigFile(file);
    if (read.kind === "unvetted") return { file, why: read.why };
    if (read.kind === "read") for (const raw of read.entries) if (INCLUDE.test(raw.key)) pending.push(includeTarget(raw.value, file));
  }
  return null;
}

/** Throws ConfigWedgedError before the first git in `path`'s repository when its config includes a file every git there would wait on. */
export async function refuseWedgedConfig(path: string): Promise<void> {
  const commonDir = commonDirOf(path);
  const wedged = commonDir === null ? null : await unvettedInclude(commonDir);
  if (wedged) throw new ConfigWedgedError(wedged.file, wedged.why);
}

async function readGuard(
  cwd: string,
  commonDir: string,
): Promise<{ guard: ProgramGuard; origins: string[]; includes: boolean; blocks: Map<string, WorktreeBlock>; walk: Map<string, string[]> }> {
  const blocks = new Map<string, WorktreeBlock>();
  const walk = new Map<string, string[]>(); // admin dir (realpath) or "*" → the walk files its config names
  const walkFile = (key: string, value: string): void => void walk.set(key, [...(walk.get(key) ?? []), value]);
  // an include every git of the repository would wait on: fail now, naming it, instead of after each git's timeout
  const wedged = await unvettedInclude(commonDir);
  if (wedged) throw new ConfigWedgedError(wedged.file, wedged.why);
  // read without Orchard's own overrides: git shows them as the caller's (command scope), and they would mask what the repository sets
  const r = await git(PROGRAM_CONFIG_ARGS, { cwd, ok: [0, 1], policy: false });
  const entries: ConfigEntry[] = [];
  const seen = new Set<string>();
  const origins = new Set<string>();
  let includes = false;
  // each file still to read, with the worktree whose config.worktree led to it (null: the common config's)
  const pending: { file: string; admin: string | null }[] = [];
  for (const raw of parse(r.stdout, true)) {
    if (WALK_KEYS.test(raw.key)) {
      walkFile(raw.scope === "worktree" ? realOrSame(commonDir) : "*", raw.value); // the primary's config.worktree: the primary alone
      continue;
    }
    includes ||= INCLUDE.test(raw.key); // in any scope
    const repo = raw.scope === "local" || raw.scope === "worktree";
    const file = fileOf(raw.origin, cwd);
    entries.push({ scope: repo ? "repo" : "user", key: raw.key, value: raw.value, ...(file ? { file } : {}) });
    if (file) origins.add(file);
    if (repo && file) seen.add(file);
    if (repo && file && INCLUDE.test(raw.key)) pending.push({ file: includeTarget(raw.value, file), admin: null });
  }
  if (worktreeConfigOn(join(commonDir, "config"))) for (const file of worktreeConfigs(commonDir)) pending.push({ file, admin: dirname(file) }); // else git reads none of them
  // no cap of Orchard's own: every file is read once (a cycle ends there), and a file that names
  // no program, include or work tree costs no git (programs-vet.ts)
  while (pending.length > 0) {
    const { file, admin } = pending.shift()!;
    if (seen.has(file)) continue;
    seen.add(file);
    const read = await readConfigFile(file);
    if (read.kind === "absent") continue;
    const own = admin === null ? null : realOrSame(admin);
    if (own !== null) for (const value of walkValues(file)) walkFile(own, value);
    if (read.kind === "unvetted") {
      // one worktree's config (or what it includes): that worktree; the common config's include: all of them
      blocks.set(own ?? ALL_WORKTREES, { code: "config_unvetted", file, why: read.why });
      continue;
    }
    for (const raw of read.entries) {
      if (RELOCATION.test(raw.key)) {
        if (own !== null && !(raw.key === "core.bare" && !BOOLEAN_TRUE.test(raw.value)) && !namesOwnWorktree(raw, own))
          blocks.set(own, { code: "worktree_relocated", key: raw.key, value: raw.value, file });
        continue;
      }
      entries.push({ scope: "repo", key: raw.key, value: raw.value, file });
      if (INCLUDE.test(raw.key)) {
        includes = true;
        pending.push({ file: includeTarget(raw.value, file), admin });
      }
    }
  }
  setWorktreeBlocks(realOrSame(commonDir), blocks);
  setWalkConfig(realOrSame(commonDir), walk);
  return { guard: guardFrom(entries), origins: [...origins], includes, blocks, walk };
}

/**
 * A `core.worktree` that names the worktree's own path (Codex writes one into every worktree's
 * config.worktree): git's work tree stays where it is, so it is no relocation. Relative values are
 * git's: against the admin dir. The worktree's path is its admin dir's `gitdir` record, read plain.
 */
function namesOwnWorktree(raw: { key: string; value: string }, admin: string): boolean {
  if (raw.key !== "core.worktree" || raw.value === "") return false;
  const record = readPlainFile(join(admin, "gitdir"), 4096)?.toString("utf8").replace(/\n$/, "");
  if (!record || !record.endsWith("/.git")) return false;
  return realOrSame(resolve(admin, raw.value)) === realOrSame(resolve(admin, dirname(record)));
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
  if (!lstatSync(repoConfig, { throwIfNoEntry: false })) return false;
  const text = readPlainText(repoConfig, 1024 * 1024); // a FIFO or a device: unreadable, never waited on
  return text === null || /worktreeconfig/i.test(text);
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

function realOrSame(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return path; // gone: nothing of git's will be read through it either
  }
}

/**
 * The WALK_KEYS values a worktree's config.worktree (or a file it includes) sets, read by hand: the
 * program query reads only program keys from these files. `excludesFile = <path>` lines, quotes
 * dropped; a line of another section that matches is vetted too, which only errs on the safe side.
 */
function walkValues(file: string): string[] {
  const text = readPlainText(file, 1024 * 1024) ?? "";
  return [...text.matchAll(/^\s*(?:excludesfile|attributesfile)\s*=\s*"?(.*?)"?\s*$/gim)].map((m) => m[1] as string).filter((v) => v !== "");
}
