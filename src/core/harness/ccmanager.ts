// ccmanager: its worktrees go where `worktree.autoDirectoryPattern` of
// `<XDG_CONFIG_HOME or ~/.config>/ccmanager/config.json` says (default `../{branch}`, with
// `{project}` the primary's name and the branch's slashes made dashes; from its docs), when
// `worktree.autoDirectory` is on. A worktree is ccmanager's when its path is that pattern filled in
// for its branch. ccmanager keeps no record beyond git's list: tracked false.
import { basename, resolve } from "node:path";
import type { HarnessProbe, MarkerRead } from "./types.js";

/** The path ccmanager gives a branch's worktree, from its config's text; null when it places none. */
export function ccmanagerPath(configText: string, primary: string, branch: string): string | null {
  let config: unknown;
  try {
    config = JSON.parse(configText);
  } catch {
    return null;
  }
  const worktree = (config as { worktree?: { autoDirectory?: unknown; autoDirectoryPattern?: unknown } } | null)?.worktree;
  if (worktree?.autoDirectory !== true) return null;
  const pattern = typeof worktree.autoDirectoryPattern === "string" && worktree.autoDirectoryPattern !== "" ? worktree.autoDirectoryPattern : "../{branch}";
  const filled = pattern.replaceAll("{project}", basename(primary)).replace(/\{branch(?:-name)?\}/g, branch.replaceAll("/", "-"));
  return resolve(primary, filled);
}

export const ccmanager: HarnessProbe = {
  name: "ccmanager",
  match(w, roots) {
    const branch = w.branch;
    if (branch === null) return null;
    return {
      name: "ccmanager",
      session: branch,
      reads: [roots.ccmanagerConfig],
      judge([config]: readonly MarkerRead[]) {
        return config?.kind === "text" && ccmanagerPath(config.text, w.primary, branch) === w.path ? { tracked: false } : null;
      },
    };
  },
};
