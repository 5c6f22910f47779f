// The hardened environment of every git process (SPEC §4.1): no prompts, C locale, no optional
// locks for reads, and no inherited repository overrides that would point git somewhere else.
import { CONFIG_READ_CALL, policyEnv, policyForCall } from "./programs/policy.js";
const STRIPPED = ["GIT_DIR", "GIT_WORK_TREE", "GIT_INDEX_FILE", "GIT_COMMON_DIR", "GIT_OBJECT_DIRECTORY", "GIT_PREFIX"];

export function hardenedEnv(options: { read: boolean; extra?: Record<string, string> }): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env };
  for (const key of STRIPPED) delete env[key];
  env.GIT_TERMINAL_PROMPT = "0";
  env.GCM_INTERACTIVE = "never";
  env.LC_ALL = "C";
  env.GIT_PAGER = "cat";
  env.GIT_EDITOR = "true";
  if (options.read) env.GIT_OPTIONAL_LOCKS = "0";
  else delete env.GIT_OPTIONAL_LOCKS;
  return { ...env, ...options.extra };
}

/**
 * Replace objects and grafts off in every git call (SPEC v5 §4): a `refs/replace/` ref or an
 * `info/grafts` line an agent writes would give main's tip another parent and make an unmerged
 * branch "merged". A graft file that cannot exist (ENOTDIR: git neither reads nor warns) stands
 * in for `<common dir>/info/grafts`; `core.useReplaceRefs=false` (programs/policy.ts, EVERY_CALL)
 * beats a repository's `true`, which would win over the variable.
 */
const PROOF_ENV = { GIT_NO_REPLACE_OBJECTS: "1", GIT_GRAFT_FILE: "/dev/null/no-grafts" } as const;

/**
 * The environment of a git call in `cwd`: the hardened env, repository hooks off (SPEC §4.1 v2: a
 * hook is code nobody approved for Orchard's automatic steps; `/dev/null` is no directory, so git
 * finds no hook in it), unless the repository is trusted every other program its config names off
 * (programs/policy.ts), and, trusted or not, git read as it is (SPEC v5 §4): no fsmonitor, no
 * untracked cache, no auto-gc or maintenance, no replace objects, no grafts (EVERY_CALL, PROOF_ENV).
 * Config is passed through the environment (GIT_CONFIG_COUNT, after any the caller inherited), so
 * no git argv changes. Every call gets it, not only the reads that feed a destructive verdict: one
 * rule, and no call that could be missed.
 */
export function gitEnv(cwd: string, options: { read: boolean; extra?: Record<string, string>; policy?: false }): NodeJS.ProcessEnv {
  const env = { ...hardenedEnv(options), ...PROOF_ENV };
  // `policy: false`: no program guard — for reading the configuration itself, whose answer must not hold Orchard's own overrides
  if (options.policy === false) return policyEnv(env, { trusted: true, key: "trusted" }, CONFIG_READ_CALL);
  return policyEnv(env, policyForCall(cwd, options.extra?.GIT_DIR));
}
