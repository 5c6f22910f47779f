// Where each harness keeps its worktrees, from the environment (HOME, CODEX_HOME, XDG_DATA_HOME,
// XDG_CONFIG_HOME, TMPDIR): read once per call, so a test sets them like a user does.
import { realpathSync } from "node:fs";
import { homedir, tmpdir } from "node:os";
import { join, resolve } from "node:path";
import type { HarnessRoots } from "./types.js";

/** A root as git would print a worktree under it: its real path when it exists (a symlinked HOME or TMPDIR). */
function real(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return path; // not there (yet): as given
  }
}

export function harnessRoots(env: NodeJS.ProcessEnv = process.env, orchard: string | null = null): HarnessRoots {
  const home = real(resolve(env.HOME || homedir()));
  const data = env.XDG_DATA_HOME ? real(resolve(env.XDG_DATA_HOME)) : join(home, ".local", "share");
  const config = env.XDG_CONFIG_HOME ? real(resolve(env.XDG_CONFIG_HOME)) : join(home, ".config");
  const codexHome = env.CODEX_HOME ? real(resolve(env.CODEX_HOME)) : join(home, ".codex");
  const tmp = real(resolve(env.TMPDIR || tmpdir()));
  return {
    home,
    orchard: orchard === null ? null : real(resolve(orchard)),
    codex: real(join(codexHome, "worktrees")),
    opencode: join(data, "opencode", "worktree"),
    cursor: join(home, ".cursor", "worktrees"),
    vibeKanban: [...new Set(["/var/tmp/vibe-kanban/worktrees", join(tmp, "vibe-kanban", "worktrees")])],
    conductor: join(home, "conductor", "workspaces"),
    sculptor: join(home, ".sculptor", "workspaces"),
    uzi: join(data, "uzi"),
    crystal: join(home, ".crystal"),
    ccmanagerConfig: join(config, "ccmanager", "config.json"),
  };
}

/** The path's segments below `root` (none when it is not strictly inside). */
export function below(path: string, root: string): string[] {
  const prefix = root.endsWith("/") ? root : `${root}/`;
  return path.startsWith(prefix)
    ? path
        .slice(prefix.length)
        .split("/")
        .filter((s) => s !== "")
    : [];
}
