// Git commands that change a repository. Callers hold the per-repo mutation lock and re-check
// their preconditions first; these functions only run the command.
import { git } from "./run.js";

const WRITE = { read: false } as const;

export async function addWorktree(options: {
  cwd: string;
  path: string;
  lockReason: string;
  /** Create this branch at `start`; else check out the existing branch `start`. */
  newBranch?: string;
  start: string;
  /** Extra config for this one call (and the checkout git runs inside it). */
  config?: Record<string, string>;
}): Promise<void> {
  const args = ["worktree", "add", "--lock", "--reason", options.lockReason];
  // --no-track: never write upstream config (a config.lock race, and not ours to decide)
  if (options.newBranch !== undefined) args.push("--no-track", "-b", options.newBranch);
  args.push("--end-of-options", options.path, options.start);
  await git(args, { cwd: options.cwd, ...WRITE, env: configEnv({ ...options.config }), timeoutMs: 300_000 });
}

/* The checkout runs with the repository's own settings: a `checkout.workers` the user set applies,
 * and Orchard sets none. Parallel checkout (`-c checkout.workers=2`, 2,000 files, 2 cores) took
 * 0.85–0.89× of the default's wall time on one machine and 1.6× (2.5× the CPU) on another whose two
 * cores share one physical core (bench/RESULTS.md): no setting wins everywhere, and git's default
 * is never slower than `git worktree add` itself. */

/** Config entries through GIT_CONFIG_COUNT (after any the caller's environment already has), so
 * the argv stays git's plain command. */
function configEnv(entries: Record<string, string>): Record<string, string> {
  const env: Record<string, string> = {};
  let index = Number(process.env.GIT_CONFIG_COUNT ?? 0) || 0;
  for (const [key, value] of Object.entries(entries)) {
    env[`GIT_CONFIG_KEY_${index}`] = key;
    env[`GIT_CONFIG_VALUE_${index}`] = value;
    index++;
  }
  if (Object.keys(entries).length > 0) env.GIT_CONFIG_COUNT = String(index);
  return env;
}

/** `remove --force --force`: removes a locked worktree in one step (no unlock-then-fail window). */
export async function removeWorktree(cwd: string, path: string): Promise<void> {
  await git(["worktree", "remove", "--force", "--force", "--end-of-options", path], { cwd, ...WRITE, timeoutMs: 300_000 });
}

/** `update-index -q --refresh`: stat data of clean entries brought up to date (content untouched); false when git could not (a held index.lock). */
export async function refreshIndex(worktree: string): Promise<boolean> {
  const r = await git(["update-index", "-q", "--refresh"], { cwd: worktree, ...WRITE, ok: [0, 1, 128], timeoutMs: 120_000 });
  return r.exitCode !== 128;
}

export async function lockWorktree(cwd: string, path: string, reason: string): Promise<void> {
  await git(["worktree", "lock", "--reason", reason, "--end-of-options", path], { cwd, ...WRITE });
}

export async function unlockWorktree(cwd: string, path: string): Promise<void> {
  await git(["worktree", "unlock", "--end-of-options", path], { cwd, ...WRITE });
}

export async function moveWorktree(cwd: string, from: string, to: string): Promise<void> {
  await git(["worktree", "move", "--force", "--force", "--end-of-options", from, to], { cwd, ...WRITE });
}

/** Compare-and-swap delete: succeeds only while the ref still points at `expected`. */
export async function deleteRef(cwd: string, ref: string, expected: string): Promise<boolean> {
  const r = await git(["update-ref", "-d", "--end-of-options", ref, expected], { cwd, ...WRITE, ok: [0, 1, 128] });
  return r.exitCode === 0;
}

export async function updateRef(cwd: string, ref: string, value: string, expected?: string): Promise<void> {
  const args = ["update-ref", "--end-of-options", ref, value];
  if (expected !== undefined) args.push(expected);
  await git(args, { cwd, ...WRITE });
}

/** Creates `branch` at `start` only if it does not exist yet (the zero oid as the expected value). */
export async function createBranch(cwd: string, branch: string, start: string): Promise<void> {
  await updateRef(cwd, `refs/heads/${branch}`, start, "0".repeat(start.length));
}

export async function switchBranch(worktree: string, branch: string, start: string): Promise<void> {
  await git(["switch", "--no-guess", "--discard-changes", "-C", branch, "--end-of-options", start], { cwd: worktree, ...WRITE });
}

export async function cleanWorktree(worktree: string, keep: readonly string[]): Promise<void> {
  const args = ["clean", "-ffdx", "--quiet"];
  for (const pattern of keep) args.push("-e", pattern);
  await git(args, { cwd: worktree, ...WRITE, timeoutMs: 300_000 });
}

export async function setWorktreeConfig(worktree: string, key: string, value: string): Promise<void> {
  await git(["config", "--worktree", "--end-of-options", key, value], { cwd: worktree, ...WRITE });
}

/** Stages ignored files by name (`add -f`), the paths on stdin as literal pathspecs. */
async function addIgnored(cwd: string, env: Record<string, string>, paths: readonly string[]): Promise<void> {
  await git(["add", "-f", "--pathspec-from-file=-", "--pathspec-file-nul"], {
    cwd,
    ...WRITE,
    env: { ...env, GIT_LITERAL_PATHSPECS: "1" },
    input: paths.map((p) => `${p}\0`).join(""),
    timeoutMs: 300_000,
  });
}

/**
 * The tree of a checkout's full state (tracked + untracked, plus the ignored files named in
 * `ignored`), staged into `indexFile` — a temporary index the caller seeded — so the checkout's
 * own index is untouched. Ignored paths go through stdin as literal pathspecs.
 */
export async function writeTreeThroughIndex(worktree: string, indexFile: string, ignored: readonly string[] = []): Promise<string> {
  const env = { GIT_INDEX_FILE: indexFile };
  await git(["add", "-A"], { cwd: worktree, ...WRITE, env, timeoutMs: 300_000 });
  if (ignored.length > 0) await addIgnored(worktree, env, ignored);
  const r = await git(["write-tree"], { cwd: worktree, ...WRITE, env });
  return r.stdout.trim();
}

/** A commit object for `tree` (no ref moves); never signed (no agent or pinentry is asked) unless `asConfigured`. */
export async function commitTree(
  cwd: string,
  options: { tree: string; parents: readonly string[]; message: string; env?: Record<string, string>; asConfigured?: boolean },
): Promise<string> {
  // asConfigured: signed as the repository's commit.gpgSign says (as `git merge` would sign it; off unless trusted, programs/policy.ts)
  const args = ["commit-tree", ...(options.asConfigured ? [] : ["--no-gpg-sign"]), "-F", "-"];
  for (const parent of options.parents) args.push("-p", parent);
  args.push("--end-of-options", options.tree);
  const r = await git(args, { cwd, ...WRITE, input: options.message, ...(options.env ? { env: options.env } : {}) });
  return r.stdout.trim();
}

/** Creates `ref` at `value` only if it does not exist; false when it already exists. */
export async function createRef(cwd: string, ref: string, value: string): Promise<boolean> {
  const r = await git(["update-ref", "--end-of-options", ref, value, "0".repeat(value.length)], { cwd, ...WRITE, ok: [0, 1, 128] });
  return r.exitCode === 0;
}

/** Sets (or with `null` unsets) a key in one config file, e.g. the common dir's `config`. */
export async function setConfigInFile(cwd: string, file: string, key: string, value: string | null): Promise<void> {
  if (value === null) await git(["config", "--file", file, "--unset-all", key], { cwd, ...WRITE, ok: [0, 5] });
  else await git(["config", "--file", file, key, value], { cwd, ...WRITE });
}

/** `switch` to an existing branch as it is. */
export async function switchToBranch(worktree: string, branch: string): Promise<void> {
  await git(["switch", "--no-guess", "--end-of-options", branch], { cwd: worktree, ...WRITE });
}

/** Makes a checkout's files equal `treeish` (`read-tree --reset -u`), then resets its index to HEAD: the difference shows as uncommitted changes. */
export async function checkoutTreeAsChanges(worktree: string, treeish: string, staged: () => void = () => undefined): Promise<void> {
  await git(["read-tree", "--reset", "-u", "--end-of-options", treeish], { cwd: worktree, ...WRITE, timeoutMs: 300_000 });
  staged();
  await unstageAll(worktree);
}

/** `git reset -q --mixed`: the index back to HEAD, the files untouched. */
export async function unstageAll(worktree: string): Promise<void> {
  await git(["reset", "-q", "--mixed"], { cwd: worktree, ...WRITE, timeoutMs: 300_000 });
}

/** The tree the checkout's own index holds (`git write-tree`; writes tree objects only). */
export async function readIndexTree(worktree: string): Promise<string> {
  const r = await git(["write-tree"], { cwd: worktree, ...WRITE });
  return r.stdout.trim();
}

/** `git merge --abort`; false when there was no merge to abort. */
export async function abortMerge(worktree: string): Promise<boolean> {
  const r = await git(["merge", "--abort"], { cwd: worktree, ...WRITE, ok: [0, 128] });
  return r.exitCode === 0;
}

/**
 * The tree of a plain directory (a husk under the managed root): `add -A` of `dir` as work tree
 * of `gitDir` into a temporary index, then `write-tree`. Only the temporary index and new objects
 * are written; the directory and the repository's own index are untouched.
 */
export async function writeTreeOfDirectory(gitDir: string, dir: string, indexFile: string, ignored: readonly string[] = []): Promise<string> {
  const env = { GIT_DIR: gitDir, GIT_WORK_TREE: dir, GIT_INDEX_FILE: indexFile };
  await git(["add", "-A"], { cwd: dir, ...WRITE, env, timeoutMs: 300_000 });
  if (ignored.length > 0) await addIgnored(dir, env, ignored);
  const r = await git(["write-tree"], { cwd: dir, ...WRITE, env });
  return r.stdout.trim();
}

/** `switch --detach` to a commit (puts a worktree back on a detached HEAD). */
export async function switchDetached(worktree: string, commit: string): Promise<void> {
  await git(["switch", "--no-guess", "--detach", "--end-of-options", commit], { cwd: worktree, ...WRITE });
}

/** The index from HEAD's tree (`read-tree HEAD`, no file touched), its stat data refreshed from the files. */
export async function writeIndexFromHead(worktree: string): Promise<void> {
  await git(["read-tree", "HEAD"], { cwd: worktree, ...WRITE, timeoutMs: 300_000 });
  await git(["update-index", "-q", "--refresh"], { cwd: worktree, ...WRITE, timeoutMs: 300_000 });
}

/** Writes `paths` from the index (`checkout-index -f`), into the worktree or under `prefix` (a directory ending in `/`). */
export async function checkoutIndexPaths(worktree: string, paths: readonly string[], prefix?: string): Promise<void> {
  if (paths.length === 0) return;
  const args = ["checkout-index", "-f", "-z", "--stdin", ...(prefix !== undefined ? [`--prefix=${prefix}`] : [])];
  await git(args, { cwd: worktree, ...WRITE, input: paths.map((p) => `${p}\0`).join(""), timeoutMs: 300_000 });
}

/**
 * Sparse checkout in cone mode of exactly these directories (`bootstrap.sparse`, Claude Code's
 * `worktree.sparsePaths`), in this worktree only: git keeps the patterns in the worktree's admin
 * dir (and turns on extensions.worktreeConfig itself). The paths go on stdin, never as arguments.
 */
export async function setSparseCone(worktree: string, paths: readonly string[]): Promise<void> {
  await git(["sparse-checkout", "set", "--cone", "--stdin"], { cwd: worktree, ...WRITE, input: paths.map((p) => `${p}\n`).join(""), timeoutMs: 300_000 });
}

/** The whole tree checked out again (a worktree recycled for a configuration without sparse paths). */
export async function disableSparse(worktree: string): Promise<void> {
  await git(["sparse-checkout", "disable"], { cwd: worktree, ...WRITE, timeoutMs: 300_000 });
}

/** The checked-out branch moved forward to `commit` (a descendant of it), working tree and index with it; anything else fails. */
export async function fastForward(worktree: string, commit: string): Promise<void> {
  await git(["merge", "--ff-only", "--no-edit", "--end-of-options", commit], { cwd: worktree, ...WRITE, timeoutMs: 300_000 });
}

/** The checked-out branch's commits since `upstream` replayed onto `onto`; false (and the rebase aborted) when a commit conflicts. */
export async function rebaseOnto(worktree: string, onto: string, upstream: string): Promise<boolean> {
  const r = await git(["rebase", "--no-autostash", "--onto", onto, "--end-of-options", upstream], { cwd: worktree, ...WRITE, ok: [0, 1], timeoutMs: 300_000 });
  if (r.exitCode === 0) return true;
  await git(["rebase", "--abort"], { cwd: worktree, ...WRITE });
  return false;
}
