// The synchronous twin of read.ts's two repository queries, for a caller that cannot wait on a
// promise: GSD's synchronous read-only functions (src/gsd/fast.ts) answer on their caller's thread,
// as GSD's own module does, without starting Orchard's worker. Each git call gets what run.ts gives
// every call (the hardened env and program guard of env.ts, the pinned argv, no listing while an
// admin file git would wait on is there) and a timeout. Only the plain case is answered here: a repository
// whose config includes another file, whose admin files are not all plain, or whose listing holds
// a relative path answers null, and the caller asks the worker (read.ts's full readers, which vet
// each include and list such a repository from its admin files).
import { spawnSync } from "node:child_process";
import { isAbsolute, join } from "node:path";
import { decodeGitBytes } from "./bytes.js";
import { gitEnv } from "./env.js";
import { GitError } from "./errors.js";
import { adminPass } from "./input/admin-pass.js";
import { pinnedArgv } from "./input/pin.js";
import { readPlainFile } from "./input/plain-file.js";
import { parseGitDirs, type GitDirs } from "./parse/gitdirs.js";
import { parseWorktreeList, type WorktreeEntry } from "./parse/worktrees.js";
import { commonDirOf } from "./programs/policy.js";
import { msNow, type ProcessResult } from "./result.js";

/** early.ts's GIT_DIRS_ARGS and WORKTREE_LIST_ARGS (that module starts run.ts's processes; this one must not load it). */
const GIT_DIRS_ARGS = ["rev-parse", "--path-format=absolute", "--git-common-dir", "--git-dir", "--is-bare-repository"];
const WORKTREE_LIST_ARGS = ["worktree", "list", "--porcelain", "-z"];
const TIMEOUT_MS = 60_000;

/** git, waited for. No refuseWedged here: its scan is kept for a synchronous run, and this caller's run may span many calls; readWorktreesSync vets the admin files itself before it lists. */
function gitSync(args: readonly string[], cwd: string): ProcessResult {
  const started = msNow(); // not performance.now(): it would load perf_hooks into GSD's caller on its first call
  const r = spawnSync("git", pinnedArgv(args, cwd), {
    cwd,
    env: gitEnv(cwd, { read: true }),
    timeout: TIMEOUT_MS,
    killSignal: "SIGKILL",
    maxBuffer: 256 * 1024 * 1024,
    stdio: ["ignore", "pipe", "pipe"],
    windowsHide: true,
  });
  const timedOut = (r.error as NodeJS.ErrnoException | undefined)?.code === "ETIMEDOUT";
  const result: ProcessResult = {
    args: [...args],
    cwd,
    exitCode: r.status,
    signal: r.signal,
    stdout: r.stdout ? decodeGitBytes(r.stdout) : "",
    stderr: r.stderr ? decodeGitBytes(r.stderr) : "",
    durationMs: Math.round(msNow() - started),
    timedOut,
  };
  if (r.error || r.status !== 0) throw new GitError(result);
  return result;
}

/** The common dir of `cwd`'s repository when it is the plain case this module answers, else null. */
function plainRepository(cwd: string): string | null {
  const commonDir = commonDirOf(cwd);
  if (commonDir === null) return null; // git may still find one (GIT_DIR, a bare dir): the full reader decides
  const config = readPlainFile(join(commonDir, "config"))?.toString("utf8");
  if (config === undefined || /^\s*\[\s*include/im.test(config)) return null; // an include: read.ts vets it first
  return commonDir;
}

/** `rev-parse` of `cwd`'s git dirs, or null (not the plain case, or git did not answer: ask read.ts). */
export function readGitDirsSync(cwd: string): GitDirs | null {
  if (plainRepository(cwd) === null) return null;
  try {
    return parseGitDirs(gitSync(GIT_DIRS_ARGS, cwd).stdout);
  } catch {
    return null;
  }
}

/** git's listing of `cwd`'s repository (the main worktree first), or null (not the plain case, or git did not answer: ask read.ts). */
export function readWorktreesSync(cwd: string): WorktreeEntry[] | null {
  const commonDir = plainRepository(cwd);
  if (commonDir === null || adminPass(commonDir).special.length > 0) return null; // git would wait on one: read.ts lists by hand
  try {
    const entries = parseWorktreeList(gitSync(WORKTREE_LIST_ARGS, cwd).stdout);
    return entries.every((e) => isAbsolute(e.path)) ? entries : null;
  } catch {
    return null;
  }
}
