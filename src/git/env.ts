// The hardened environment of every git process (SPEC §4.1): no prompts, C locale, no optional
// locks for reads, and no inherited repository overrides that would point git somewhere else.
import { policyEnv, policyForCall } from "./programs/policy.js";
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
 * The environment of a git call in `cwd`: the hardened env, repository hooks off (SPEC §4.1 v2: a
 * hook is code nobody approved for Orchard's automatic steps; `/dev/null` is no directory, so git
 * finds no hook in it), and, unless the repository is trusted, every other program its config
 * names off (programs/policy.ts). Passed as config through the environment (GIT_CONFIG_COUNT, after any
 * the caller inherited), so no git argv changes.
 */
export function gitEnv(cwd: string, options: { read: boolean; extra?: Record<string, string>; policy?: false }): NodeJS.ProcessEnv {
  // `policy: false`: hooks off only — for reading the configuration itself, whose answer must not hold Orchard's own overrides
  return policyEnv(hardenedEnv(options), options.policy === false ? { trusted: true, key: "trusted" } : policyForCall(cwd, options.extra?.GIT_DIR));
}
