// The answer of `rev-parse --git-common-dir --git-dir --is-bare-repository` (read.ts, read-sync.ts).
export interface GitDirs {
  commonDir: string;
  gitDir: string;
  bare: boolean;
}

/**
 * `rev-parse --git-common-dir --git-dir --is-bare-repository` (early.ts GIT_DIRS_ARGS). rev-parse
 * has no NUL-terminated form, and a path may hold a newline (SPEC §4.2): the git dir is the common
 * dir itself or an admin dir `<common>/worktrees/<id>` (an id has no newline: git sanitises it), so
 * exactly one of the newlines between the two paths splits them that way.
 */
export function parseGitDirs(stdout: string): GitDirs {
  const text = stdout.replace(/\n$/, "");
  const last = text.lastIndexOf("\n");
  const dirs = text.slice(0, last);
  const bare = text.slice(last + 1) === "true";
  for (let nl = dirs.indexOf("\n"); nl >= 0; nl = dirs.indexOf("\n", nl + 1)) {
    const commonDir = dirs.slice(0, nl);
    const gitDir = dirs.slice(nl + 1);
    if (gitDir === commonDir || (gitDir.startsWith(`${commonDir}/worktrees/`) && !gitDir.slice(commonDir.length).includes("\n")))
      return { commonDir, gitDir, bare };
  }
  const nl = dirs.indexOf("\n"); // neither form (a git dir elsewhere): the first newline, as before
  return { commonDir: dirs.slice(0, nl), gitDir: dirs.slice(nl + 1), bare };
}
