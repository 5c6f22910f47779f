// Read-only git queries. Each returns parsed data; a query answered by an exit code declares
// which codes are answers. User-given refs and paths follow --end-of-options or --.
import { readdirSync, realpathSync } from "node:fs";
import { readPlainFile } from "./input/plain-file.js";
import { dirname, isAbsolute, join, resolve } from "node:path";
import { git } from "./run.js";
import { earlyAnswered } from "./early-answers.js";
import { GIT_DIRS_ARGS, REMOTE_CONFIG_ARGS, WORKTREE_LIST_ARGS, refsArgs, startedRepoQueries } from "./early.js";
export { ProgramBlockedError } from "./programs/attributes.js";
export { StatusUnknownError } from "./errors.js";
export { WorktreeBlockedError, type WorktreeBlock } from "./input/boundary.js";
import { worktreeBlockError } from "./input/boundary.js";
export { worktreeBlockError };
import { specialAdminFiles } from "./input/admin-pass.js";
import { listWorktreesByHand } from "./input/list-by-hand.js";
import { commonDirOf } from "./programs/policy.js";
import { isValidRefName } from "./refname.js";
import { parseWorktreeList, type WorktreeEntry } from "./parse/worktrees.js";
import { parsePeeledRefs, parseRefs, PEELED_REF_FORMAT, type RefRecord } from "./parse/refs.js";

// the history queries live in history/commits.ts; read.ts stays the one door for read-only queries
export {
  isAncestor,
  readMergeBase,
  readRevListParents,
  countRevs,
  allCommitsEquivalent,
  readMergeTree,
  readMergeTrees,
  readCommitPatchIds,
  readOctopusBase,
  readPatchId,
  readPatchIds,
  readMergedBranches,
  countNotOnRemotes,
  findFirstParentCommit,
  readSquashedLog,
  readGitVersion,
} from "./history/commits.js";
export { readCommitTrees, readTrackedState } from "./state.js";
export { readReflogOnly, parseReflogTips } from "./history/reflog.js";
export { hasTrackedChanges, readStatus, readStatuses } from "./status.js";
export { submoduleWork } from "./input/submodules.js";

export { parseGitDirs, type GitDirs } from "./parse/gitdirs.js";
import { parseGitDirs, type GitDirs } from "./parse/gitdirs.js";

export async function readGitDirs(cwd: string): Promise<GitDirs> {
  return parseGitDirs((await git(GIT_DIRS_ARGS, { cwd })).stdout);
}

export async function readWorktrees(cwd: string): Promise<WorktreeEntry[]> {
  // an admin file git would wait on: the listing comes from the admin files (SPEC v4 §4.10)
  // (an early listing git has answered already was held by no file: it needs no second pass)
  const commonDir = commonDirOf(cwd);
  if (commonDir !== null && !earlyAnswered(WORKTREE_LIST_ARGS, cwd, true) && specialAdminFiles(commonDir).length > 0)
    return listWorktreesByHand(cwd, commonDir);
  const r = await git(WORKTREE_LIST_ARGS, { cwd });
  const entries = parseWorktreeList(r.stdout);
  if (entries.every((e) => isAbsolute(e.path))) return entries;
  return absolutePaths(entries, (await readGitDirs(cwd)).commonDir, cwd);
}

/** git < 2.48 prints a relative `gitdir` record (written by git ≥ 2.48, worktree.useRelativePaths)
 * as it is: it is relative to the admin dir that holds it (SPEC §4.12). */
function absolutePaths(entries: WorktreeEntry[], commonDir: string, cwd: string): WorktreeEntry[] {
  if (entries.every((e) => isAbsolute(e.path))) return entries;
  const records = readRelativeRecords(commonDir);
  return entries.map((e) => (isAbsolute(e.path) ? e : { ...e, path: records.get(e.path) ?? resolve(cwd, e.path) }));
}

/**
 * The worktrees and the common dir (its realpath) as the command line's early queries for `path`
 * answered them (early.ts), looked at without taking them; null when none were started there or
 * git did not answer. For starting work early only: the command's own reads take the answers.
 */
export async function peekEarlyListing(path: string): Promise<{ entries: WorktreeEntry[]; commonDir: string } | null> {
  const queries = startedRepoQueries(path);
  if (!queries) return null;
  const [list, dirs] = await Promise.all([queries.list, queries.dirs]);
  if (list.exitCode !== 0 || dirs.exitCode !== 0) return null;
  const commonDir = realpathSync(parseGitDirs(dirs.stdout).commonDir);
  return { entries: absolutePaths(parseWorktreeList(list.stdout), commonDir, path), commonDir };
}

/** Relative `gitdir` records of the admin dirs, as git < 2.48 lists them (without `/.git`) → the path they name. */
function readRelativeRecords(commonDir: string): Map<string, string> {
  const map = new Map<string, string>();
  const root = join(commonDir, "worktrees");
  let ids: string[] = [];
  try {
    ids = readdirSync(root);
  } catch {
    return map; // no admin dirs: nothing to resolve against
  }
  for (const id of ids) {
    const bytes = readPlainFile(join(root, id, "gitdir"));
    if (bytes === null) continue; // an admin dir without gitdir: git lists it as prunable
    const text = bytes.toString("utf8").replace(/\r?\n$/, "");
    if (!isAbsolute(text)) map.set(text.replace(/\/\.git$/, ""), dirname(resolve(root, id, text)));
  }
  return map;
}

export async function readRefs(cwd: string, patterns: readonly string[]): Promise<RefRecord[]> {
  const r = await git(refsArgs(patterns), { cwd });
  return parseRefs(r.stdout);
}

/** Refs under `patterns` that name a commit → that commit, in one process (no upstream tracking computed). */
export async function readCommitRefs(cwd: string, patterns: readonly string[]): Promise<Map<string, string>> {
  const r = await git(["for-each-ref", "--format=%(objecttype) %(objectname) %(refname)", "--", ...patterns], { cwd });
  const refs = new Map<string, string>();
  for (const line of r.stdout.split("\n")) {
    const m = /^commit ([0-9a-f]{40}(?:[0-9a-f]{24})?) (.+)$/.exec(line);
    if (m) refs.set(m[2] as string, m[1] as string);
  }
  return refs;
}

/**
 * Refs under `patterns` → the commit each names (null: it names no commit), as `rev-parse --verify
 * <ref>^{commit}` would answer for that exact ref, and the ref a symbolic one points at: one
 * process for what would be one rev-parse per ref (a tag of a tag alone asks rev-parse).
 */
export async function readRefCommits(cwd: string, patterns: readonly string[]): Promise<Map<string, { commit: string | null; symref: string | null }>> {
  const r = await git(["for-each-ref", `--format=${PEELED_REF_FORMAT}`, "--", ...patterns], { cwd });
  const refs = new Map<string, { commit: string | null; symref: string | null }>();
  for (const { ref, commit, symref } of parsePeeledRefs(r.stdout))
    refs.set(ref, { commit: commit === undefined ? await resolveCommit(cwd, ref) : commit, symref });
  return refs;
}

export async function readConfig(cwd: string, key: string): Promise<string | null> {
  const r = await git(["config", "--get", key], { cwd, ok: [0, 1] });
  return r.exitCode === 0 ? r.stdout.replace(/\n$/, "") : null;
}

/** Every remote's config in one process: the names (in config order) and each one's url (the
 * last value, as `git config --get` answers). Remotes defined only by the legacy
 * .git/remotes and .git/branches files are not seen. */
export async function readRemoteConfig(cwd: string): Promise<{ names: string[]; urls: Map<string, string> }> {
  const r = await git(REMOTE_CONFIG_ARGS, { cwd, ok: [0, 1] });
  const names: string[] = [];
  const urls = new Map<string, string>();
  for (const item of r.stdout.split("\0")) {
    if (!item) continue;
    const nl = item.indexOf("\n");
    const key = nl < 0 ? item : item.slice(0, nl);
    const dot = key.lastIndexOf(".");
    if (dot <= "remote.".length) continue;
    const name = key.slice("remote.".length, dot);
    if (!names.includes(name)) names.push(name);
    if (key.slice(dot + 1) === "url" && nl >= 0) urls.set(name, item.slice(nl + 1));
  }
  return { names, urls };
}

/** The commit a ref names, or null when it names none. */
export async function resolveCommit(cwd: string, ref: string): Promise<string | null> {
  const r = await git(["rev-parse", "--verify", "--quiet", "--end-of-options", `${ref}^{commit}`], { cwd, ok: [0, 1] });
  return r.exitCode === 0 ? r.stdout.trim() : null;
}

export async function resolveTree(cwd: string, ref: string): Promise<string | null> {
  const r = await git(["rev-parse", "--verify", "--quiet", "--end-of-options", `${ref}^{tree}`], { cwd, ok: [0, 1] });
  return r.exitCode === 0 ? r.stdout.trim() : null;
}

/** The full ref name a user-given ref resolves to (`main` → `refs/heads/main`), or null for a plain commit. */
export async function readFullRefName(cwd: string, ref: string): Promise<string | null> {
  const r = await git(["rev-parse", "--verify", "--quiet", "--symbolic-full-name", "--end-of-options", ref], { cwd, ok: [0, 1] });
  const name = r.stdout.trim();
  return r.exitCode === 0 && name.startsWith("refs/") ? name : null;
}

export async function readSymbolicRef(cwd: string, ref: string): Promise<string | null> {
  const r = await git(["symbolic-ref", "--quiet", "--end-of-options", ref], { cwd, ok: [0, 1] });
  return r.exitCode === 0 ? r.stdout.trim() : null;
}

/** Whether `refs/heads/<branch>` is a valid branch name (the literal form, not `--branch`), by
 * git's check-ref-format rules decided in-process (refname.ts): no process. */
export async function isValidBranchName(_cwd: string, branch: string): Promise<boolean> {
  return isValidRefName(`refs/heads/${branch}`);
}

export async function readDeletedFiles(cwd: string, from: string, to: string): Promise<string[]> {
  const r = await git(["diff", "--name-only", "-z", "--diff-filter=D", "--no-renames", "--no-ext-diff", "--no-textconv", "--end-of-options", from, to], {
    cwd,
  });
  return r.stdout.split("\0").filter(Boolean);
}

/** Absolute path of a file in a checkout's git dir (`git rev-parse --git-path <name>`), e.g. its index. */
export async function readGitPath(worktree: string, name: string): Promise<string> {
  const r = await git(["rev-parse", "--path-format=absolute", "--git-path", name], { cwd: worktree });
  return r.stdout.replace(/\n$/, "");
}

/** Whether git can form a committer and an author identity here (commit-tree would fail otherwise). */
export async function hasCommitIdentity(cwd: string): Promise<boolean> {
  const committer = await git(["var", "GIT_COMMITTER_IDENT"], { cwd, ok: [0, 128] });
  const author = await git(["var", "GIT_AUTHOR_IDENT"], { cwd, ok: [0, 128] });
  return committer.exitCode === 0 && author.exitCode === 0;
}

export interface SalvageRefRecord {
  ref: string;
  commit: string;
  /** The commit message body (Orchard's JSON metadata). */
  body: string;
}

/** Every ref under `prefix` with its commit and message body. Records end in NUL+LF (bodies hold LF, never NUL). */
export async function readRefsWithBody(cwd: string, prefix: string): Promise<SalvageRefRecord[]> {
  const r = await git(["for-each-ref", "--format=%(refname)%00%(objectname)%00%(contents:body)%00", "--", prefix], { cwd });
  return r.stdout
    .split("\0\n")
    .filter((record) => record !== "")
    .map((record) => {
      const [ref = "", commit = "", body = ""] = record.split("\0");
      return { ref, commit, body };
    });
}

/**
 * Object ids of `<rev>:<path>` specs in one `cat-file --batch-check` process; null where the
 * object does not exist. Specs containing a newline cannot be asked this way and answer null.
 */
export async function readObjectIds(cwd: string, specs: readonly string[]): Promise<(string | null)[]> {
  const asked = specs.filter((s) => !s.includes("\n"));
  if (asked.length === 0) return specs.map(() => null);
  const r = await git(["cat-file", "--batch-check=%(objectname)"], { cwd, input: asked.join("\n") + "\n" });
  const answers = new Map<string, string | null>();
  r.stdout
    .split("\n")
    .slice(0, asked.length)
    .forEach((line, i) => answers.set(asked[i] as string, /^[0-9a-f]{40,64}$/.test(line) ? line : null));
  return specs.map((s) => answers.get(s) ?? null);
}

/** Untracked files (ignored ones included) matching gitignore-style patterns; never descends into nested repositories. */
export async function readUntrackedMatching(cwd: string, patterns: readonly string[]): Promise<string[]> {
  if (patterns.length === 0) return [];
  const r = await git(["ls-files", "-z", "--others", "--ignored", ...patterns.map((p) => `--exclude=${p}`)], { cwd, timeoutMs: 120_000 });
  return r.stdout.split("\0").filter(Boolean);
}

/** A config value read from one file only (e.g. the common dir's `config`), or null when unset. */
export async function readConfigInFile(cwd: string, file: string, key: string, type?: "bool" | "path"): Promise<string | null> {
  const args = ["config", "--file", file, ...(type ? [`--type=${type}`] : []), "--get", key];
  const r = await git(args, { cwd, ok: [0, 1] });
  return r.exitCode === 0 ? r.stdout.replace(/\n$/, "") : null;
}

/** A path-valued config of a checkout (`~` expanded), or null when unset. */
export async function readConfigPath(cwd: string, key: string): Promise<string | null> {
  const r = await git(["config", "--type=path", "--get", key], { cwd, ok: [0, 1] });
  return r.exitCode === 0 ? r.stdout.replace(/\n$/, "") : null;
}

/**
 * Files of a plain directory that the repository's ignore rules do not ignore, as git would add
 * them: `ls-files -o --exclude-standard` with the directory as work tree and an EMPTY index (a
 * path that does not exist), so nothing is written. A nested repository is listed as `dir/`.
 */
/** Ignored paths of a plain directory seen as a work tree of `gitDir`; an ignored directory is one entry ending in `/`. */
export async function readIgnoredEntries(gitDir: string, dir: string, emptyIndex: string): Promise<string[]> {
  const env = { GIT_DIR: gitDir, GIT_WORK_TREE: dir, GIT_INDEX_FILE: emptyIndex };
  const r = await git(["ls-files", "-z", "--others", "--ignored", "--exclude-standard", "--directory"], { cwd: dir, env, timeoutMs: 300_000 });
  return r.stdout.split("\0").filter(Boolean);
}

export async function readUnignoredFiles(gitDir: string, dir: string, emptyIndex: string): Promise<string[]> {
  const env = { GIT_DIR: gitDir, GIT_WORK_TREE: dir, GIT_INDEX_FILE: emptyIndex };
  const r = await git(["ls-files", "-z", "--others", "--exclude-standard"], { cwd: dir, env, timeoutMs: 300_000 });
  return r.stdout.split("\0").filter(Boolean);
}

/**
 * Stable patch-ids of many cumulative diffs in three processes (cat-file, diff-tree, patch-id): `diff-tree --stdin -p -M` over
 * `<from tree> <to tree>` pairs (rename detection as `git diff` does by default), each diff
 * re-labelled with its `to` commit, then one `patch-id --stable`. Map: to commit → patch-id;
 * an empty diff has none. Same result as readPatchId under git's default diff settings.
 */
export async function readTreeBlobs(cwd: string, commit: string): Promise<Map<string, string>> {
  const r = await git(["ls-tree", "-r", "-z", "--full-tree", "--end-of-options", commit], { cwd });
  const blobs = new Map<string, string>();
  for (const line of r.stdout.split("\0")) {
    const m = /^\d+ blob ([0-9a-f]+)\t(.*)$/s.exec(line);
    if (m) blobs.set(m[2] as string, m[1] as string);
  }
  return blobs;
}

/** The blob ids the files would have (`hash-object --no-filters`, nothing written). */
export async function hashFiles(cwd: string, files: readonly string[]): Promise<string[]> {
  if (files.length === 0) return [];
  const r = await git(["hash-object", "--no-filters", "--stdin-paths"], { cwd, input: files.join("\n") + "\n" });
  return r.stdout.split("\n").filter(Boolean);
}

/** Index entries whose file is missing (`deleted`) or differs (`modified`, deleted ones excluded): `ls-files -d`, `-m`. */
export async function readIndexDifferences(worktree: string): Promise<{ deleted: string[]; modified: string[] }> {
  const list = async (flag: string): Promise<string[]> =>
    (await git(["ls-files", "-z", flag], { cwd: worktree, timeoutMs: 300_000 })).stdout.split("\0").filter(Boolean);
  const deleted = await list("--deleted");
  const gone = new Set(deleted);
  return { deleted, modified: (await list("--modified")).filter((p) => !gone.has(p)) };
}
