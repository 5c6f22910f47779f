// The hardened environment of every git process (SPEC §4.1): no prompts, C locale, no optional
// locks for reads, and no inherited repository overrides that would point git somewhere else.
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
 * Repository hooks off (SPEC §4.1 v2): a hook is code nobody approved for Orchard's automatic
 * steps (`worktree add` runs post-checkout, `switch` too, `merge` pre-merge-commit…). Passed as
 * config through the environment (GIT_CONFIG_COUNT, after any the caller inherited), so no git
 * argv changes. `/dev/null` is not a directory: git finds no hook in it.
 */
export function withoutHooks(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const inherited = Number(env.GIT_CONFIG_COUNT);
  const n = Number.isInteger(inherited) && inherited > 0 ? inherited : 0;
  return { ...env, GIT_CONFIG_COUNT: String(n + 1), [`GIT_CONFIG_KEY_${n}`]: "core.hooksPath", [`GIT_CONFIG_VALUE_${n}`]: "/dev/null" };
}
