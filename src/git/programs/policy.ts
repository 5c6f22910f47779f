// Programs named by git configuration (SPEC v3 §4.1): the one list of every setting that makes git
// run a program, and what Orchard's git calls pass instead when the repository is not trusted.
// System and global config (and the caller's own GIT_CONFIG_* / -c) are the user's and stay in
// force; a repository's config, a worktree's config.worktree and everything they include do not
// name programs for Orchard. The overrides travel as GIT_CONFIG_COUNT entries (after the caller's
// own), which beat every config file; a key the repository set is given its system/global value
// back, or a neutral one. Filters, merge drivers and credential helpers are named by the
// repository, so their names are read from its config files first (programs/read.ts).
import { lstatSync, realpathSync } from "node:fs";
import { readPlainFile } from "../input/plain-file.js";
import { dirname, isAbsolute, join, resolve } from "node:path";

/** One setting that names or turns on a program. `neutral`: the value that runs nothing git would not run by default. */
export interface ProgramSetting {
  /** Lowercase key; `*` stands for a driver's name (a subsection). */
  key: string;
  /** What an untrusted repository gets: the system/global value, else `neutral`; `argv` = Orchard's calls never reach it (see `why`). */
  handling: "override" | "argv";
  neutral: string;
  why: string;
}

/** Every setting, in one place. The table in docs/ARCHITECTURE.md ("Programs named by configuration") follows it. */
export const PROGRAM_SETTINGS: readonly ProgramSetting[] = [
  {
    key: "core.fsmonitor",
    handling: "override",
    neutral: "false",
    why: "a hook path runs on every status, update-index, checkout (and since v5 every call has it off, trusted or not: EVERY_CALL)",
  },
  { key: "core.sshcommand", handling: "override", neutral: "ssh", why: "run for ssh transport" },
  { key: "core.askpass", handling: "override", neutral: "", why: "run to ask for a password" },
  { key: "core.alternaterefscommand", handling: "override", neutral: "", why: "run for alternates' refs" },
  { key: "commit.gpgsign", handling: "override", neutral: "false", why: "signs with gpg.program (the wave's merge commit)" },
  { key: "tag.gpgsign", handling: "override", neutral: "false", why: "signs tags with gpg.program" },
  { key: "log.showsignature", handling: "override", neutral: "false", why: "verifies with gpg.program in log" },
  { key: "merge.verifysignatures", handling: "override", neutral: "false", why: "verifies with gpg.program in merge" },
  { key: "gpg.format", handling: "override", neutral: "openpgp", why: "picks which gpg.*.program runs" },
  { key: "gpg.program", handling: "override", neutral: "gpg", why: "the signing program" },
  { key: "gpg.openpgp.program", handling: "override", neutral: "gpg", why: "the signing program" },
  { key: "gpg.x509.program", handling: "override", neutral: "gpgsm", why: "the signing program" },
  { key: "gpg.ssh.program", handling: "override", neutral: "ssh-keygen", why: "the signing program" },
  { key: "gpg.ssh.defaultkeycommand", handling: "override", neutral: "", why: "run to find a signing key" },
  { key: "filter.*.clean", handling: "override", neutral: "", why: "run on status, update-index, add (a path whose attributes name it: status unknown)" },
  { key: "filter.*.smudge", handling: "override", neutral: "", why: "run on checkout (add, recycle, salvage restore, merge)" },
  { key: "filter.*.process", handling: "override", neutral: "", why: "a long-running clean/smudge" },
  { key: "filter.*.required", handling: "override", neutral: "false", why: "a required filter that may not run would fail every status" },
  { key: "merge.*.driver", handling: "override", neutral: "false", why: "run by merge and merge-tree; `false` makes that path a conflict" },
  { key: "credential.helper", handling: "override", neutral: "", why: "an empty value empties the list; the system/global helpers are added back" },
  { key: "diff.external", handling: "argv", neutral: "", why: "every diff Orchard runs is plumbing or carries --no-ext-diff" },
  { key: "diff.*.command", handling: "argv", neutral: "", why: "every diff Orchard runs is plumbing or carries --no-ext-diff" },
  { key: "diff.*.textconv", handling: "argv", neutral: "", why: "every diff Orchard runs is plumbing or carries --no-textconv" },
  { key: "core.hookspath", handling: "override", neutral: "/dev/null", why: "hooks: off in every call, trusted or not (EVERY_CALL)" },
];

/** The keys `git config --get-regexp` is asked for: every program setting, plus includes (followed by hand) and the keys that move a work tree (boundary.ts). */
export const PROGRAM_KEYS_REGEXP =
  "^(core\\.(fsmonitor|sshcommand|askpass|alternaterefscommand)|(commit|tag)\\.gpgsign|log\\.showsignature|merge\\.verifysignatures|gpg\\..*|" +
  "filter\\..*\\.(clean|smudge|process|required)|merge\\..*\\.driver|credential\\..*helper|include\\.path|includeif\\..*\\.path|core\\.(worktree|bare))$";

export interface ConfigEntry {
  /** system, global, command (the caller's own), or repo (local, worktree, or a file they include). */
  scope: "user" | "repo";
  key: string;
  value: string;
  /** The file it was read from, where known. */
  file?: string;
}

/** What an untrusted repository's git calls get: config entries that win over its files. */
export interface ProgramGuard {
  trusted: false;
  entries: readonly (readonly [string, string])[];
  /** Filter drivers that only the repository defines: a path whose attributes name one cannot be read faithfully. */
  blockedFilters: readonly string[];
  /** Identifies the guard's content (early work done under another guard is not reused). */
  key: string;
  /** What it was made from: every setting git showed, the user's and the repository's (guardTrusting). */
  sources: readonly ConfigEntry[];
}

export type ProgramPolicy = ProgramGuard | { trusted: true; key: "trusted" };

const FIXED = PROGRAM_SETTINGS.filter((s) => !s.key.includes("*") && s.key !== "credential.helper" && s.key !== "core.hookspath" && s.handling === "override");
const DRIVER = /^(filter|merge)\.(.+)\.(clean|smudge|process|required|driver)$/;
const BOOLEAN_TRUE = /^(true|yes|on|1)$/i;

const lastUserValue = (entries: readonly ConfigEntry[], key: string): string | undefined => entries.findLast((e) => e.scope === "user" && e.key === key)?.value;

/**
 * The guard of an untrusted repository from every program setting git sees in it (`repo` scope:
 * its config files, `user`: system, global and the caller's own). Fixed keys are overridden
 * whether or not the repository sets them (a setting written after this read is still beaten).
 */
export function guardFrom(entries: readonly ConfigEntry[]): ProgramGuard {
  const out: [string, string][] = [];
  for (const setting of FIXED) {
    const user = lastUserValue(entries, setting.key);
    const repo = entries.findLast((e) => e.scope === "repo" && e.key === setting.key)?.value;
    // core.fsmonitor=true is git's own daemon, not a program the repository names
    if (setting.key === "core.fsmonitor" && user === undefined && repo !== undefined && BOOLEAN_TRUE.test(repo)) out.push([setting.key, repo]);
    else out.push([setting.key, user ?? setting.neutral]);
  }
  const drivers = new Map<string, { kind: string; name: string }>();
  for (const e of entries) {
    const m = e.scope === "repo" ? DRIVER.exec(e.key) : null;
    if (m && (m[1] === "filter") !== (m[3] === "driver")) drivers.set(`${m[1]}.${m[2]}`, { kind: m[1]!, name: m[2]! });
  }
  const blockedFilters: string[] = [];
  for (const [prefix, { kind, name }] of drivers) {
    const subkeys = kind === "filter" ? ["clean", "smudge", "process", "required"] : ["driver"];
    const neutral = (sub: string): string => PROGRAM_SETTINGS.find((s) => s.key === `${kind}.*.${sub}`)!.neutral;
    for (const sub of subkeys) out.push([`${prefix}.${sub}`, lastUserValue(entries, `${prefix}.${sub}`) ?? neutral(sub)]);
    const userProgram = ["clean", "smudge", "process"].some((sub) => lastUserValue(entries, `${prefix}.${sub}`) !== undefined);
    if (kind === "filter" && !userProgram) blockedFilters.push(name);
  }
  if (entries.some((e) => e.scope === "repo" && /^credential\..*helper$/.test(e.key))) {
    out.push(["credential.helper", ""]);
    for (const e of entries) if (e.scope === "user" && /^credential\..*helper$/.test(e.key)) out.push([e.key, e.value]);
  }
  return { trusted: false, entries: out, blockedFilters: blockedFilters.sort(), key: JSON.stringify(out), sources: entries };
}

const NOT_PROGRAMS = /^(include\.path|includeif\..*\.path|core\.(worktree|bare))$/;

/** The program settings the repository's own files name (what trust may cover: those of the common config). */
export function repoProgramSettings(guard: ProgramGuard): ConfigEntry[] {
  return guard.sources.filter((e) => e.scope === "repo" && !NOT_PROGRAMS.test(e.key));
}

/**
 * The guard with the settings the owner trusted (`trusted`: each one's key and value, as `orchard
 * trust` saw them in the common config) left in force: they run as the user's own would. Every
 * other setting, from any source, stays off (SPEC v4 §4.1: trust covers what runs).
 */
export function guardTrusting(guard: ProgramGuard, trusted: (entry: ConfigEntry) => boolean): ProgramGuard {
  return guardFrom(guard.sources.map((e) => (e.scope === "repo" && !NOT_PROGRAMS.test(e.key) && trusted(e) ? { ...e, scope: "user" as const } : e)));
}

/** Before a repository's guard is known (and for a directory in no known repository): every fixed key neutral. */
export const STATIC_GUARD: ProgramGuard = guardFrom([]);

/** The policy of each repository this process resolved, by its common dir (realpath). */
const policies = new Map<string, ProgramPolicy>();

/** Records the policy of the repository whose common dir (realpath) is `commonDir`: the git calls made in it from now on follow it. */
export function setProgramPolicy(commonDir: string, policy: ProgramPolicy): void {
  policies.set(commonDir, policy);
}

export function programPolicyOf(commonDir: string): ProgramPolicy | undefined {
  return policies.get(commonDir);
}

/**
 * The policy of a git call in `cwd` (with the caller's GIT_DIR, if any): its repository's, found
 * as git finds it (the `.git` directory or file up from `cwd`, then `commondir`). In a directory of
 * no repository this process has a policy for, the static guard and every untrusted repository's
 * driver overrides together (more programs off, never fewer).
 */
export function policyForCall(cwd: string, gitDir?: string): ProgramPolicy {
  const commonDir = gitDir !== undefined ? commonDirOfGitDir(resolve(cwd, gitDir)) : commonDirOf(cwd);
  const known = commonDir !== null ? policies.get(commonDir) : undefined;
  if (known) return known;
  if (policies.size === 0) return STATIC_GUARD;
  const entries = new Map<string, string>(STATIC_GUARD.entries);
  for (const p of policies.values()) if (!p.trusted) for (const [k, v] of p.entries) if (!entries.has(k) || DRIVER.test(k)) entries.set(k, v);
  const all = [...entries];
  return {
    trusted: false,
    entries: all,
    blockedFilters: [...new Set([...policies.values()].flatMap((p) => (p.trusted ? [] : p.blockedFilters)))],
    key: JSON.stringify(all),
    sources: [],
  };
}

/**
 * What every git call of Orchard's gets, trusted or not, after the policy's entries (the last
 * value wins). SPEC v5 §4: a proof reads git as it is, not as an agent set it up. Hooks off (v2);
 * no fsmonitor and no untracked cache, so a status answers from the disk, never from a program or
 * a cache an agent can rewrite (a lying hook made a dirty worktree reapable); no automatic gc or
 * maintenance, so an object Orchard's messages say can be brought back is not pruned by the
 * repository's `gc.auto=1, gc.pruneExpire=now` behind a merge; no replace refs (a repository's
 * `core.useReplaceRefs=true` beats GIT_NO_REPLACE_OBJECTS, which env.ts also sets, with grafts off).
 */
export const EVERY_CALL: readonly (readonly [string, string])[] = [
  ["core.hooksPath", "/dev/null"],
  ["core.fsmonitor", "false"],
  ["core.untrackedCache", "false"],
  ["gc.auto", "0"],
  ["maintenance.auto", "false"],
  ["core.useReplaceRefs", "false"],
];

/** For the one query that reads the program settings themselves: EVERY_CALL without the key that query asks for (git would show it as the caller's). */
export const CONFIG_READ_CALL = EVERY_CALL.filter(([key]) => key !== "core.fsmonitor");

/** The env entries (GIT_CONFIG_COUNT…) that put `policy` in force, after any the caller inherited, then `always` (EVERY_CALL). */
export function policyEnv(env: NodeJS.ProcessEnv, policy: ProgramPolicy, always: readonly (readonly [string, string])[] = EVERY_CALL): NodeJS.ProcessEnv {
  const entries: (readonly [string, string])[] = [...(policy.trusted ? [] : policy.entries), ...always];
  const inherited = Number(env.GIT_CONFIG_COUNT);
  const n = Number.isInteger(inherited) && inherited > 0 ? inherited : 0;
  const out: NodeJS.ProcessEnv = { ...env, GIT_CONFIG_COUNT: String(n + entries.length) };
  entries.forEach(([key, value], i) => {
    out[`GIT_CONFIG_KEY_${n + i}`] = key;
    out[`GIT_CONFIG_VALUE_${n + i}`] = value;
  });
  return out;
}

const discovered = new Map<string, string>();

/** The common dir (realpath) of the repository git would find from `cwd`; null when none is found. Cached per directory. */
export function commonDirOf(cwd: string): string | null {
  const hit = discovered.get(cwd);
  if (hit !== undefined) return hit;
  let dir: string;
  try {
    dir = realpathSync(cwd);
  } catch {
    return null; // no such directory: git would not run there either
  }
  for (;;) {
    const found = gitDirIn(dir);
    if (found !== null) {
      const common = commonDirOfGitDir(found);
      if (common !== null) discovered.set(cwd, common);
      return common;
    }
    if (dirname(dir) === dir) return null;
    dir = dirname(dir);
  }
}

/** `dir/.git` (a directory, or a file naming one), or `dir` itself when it is a git dir (bare, or inside one). */
function gitDirIn(dir: string): string | null {
  const dotGit = join(dir, ".git");
  const st = lstatSync(dotGit, { throwIfNoEntry: false });
  if (st?.isDirectory()) return dotGit;
  if (st?.isFile()) {
    const m = /^gitdir: (.+?)\r?\n?$/s.exec(readText(dotGit) ?? "");
    return m ? resolve(dir, m[1]!.replace(/\r$/, "")) : null;
  }
  const head = lstatSync(join(dir, "HEAD"), { throwIfNoEntry: false });
  const objects = lstatSync(join(dir, "objects"), { throwIfNoEntry: false });
  return head?.isFile() && objects?.isDirectory() ? dir : null;
}

function commonDirOfGitDir(gitDir: string): string | null {
  const text = readText(join(gitDir, "commondir"));
  const common = text === null ? gitDir : resolve(gitDir, text.replace(/\r?\n$/, ""));
  try {
    return realpathSync(isAbsolute(common) ? common : resolve(common));
  } catch {
    return null;
  }
}

/** A small plain file's text; null when absent, unreadable or anything else (a FIFO there never hangs the call). */
function readText(path: string): string | null {
  return readPlainFile(path)?.toString("utf8") ?? null;
}
