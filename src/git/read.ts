// Read-only git queries. Each returns parsed data; a query answered by an exit code declares
// which codes are answers. User-given refs and paths follow --end-of-options or --.
import { readdirSync, readFileSync, realpathSync } from "node:fs";
import { dirname, isAbsolute, join, resolve } from "node:path";
import { DEFAULT_GIT_TIMEOUT_MS, git, runProcess } from "./run.js";
import { GIT_DIRS_ARGS, REMOTE_CONFIG_ARGS, WORKTREE_LIST_ARGS, refsArgs, startedRepoQueries } from "./early.js";
import { statusArgs } from "./status-args.js";
import { gitEnv } from "./env.js";
import { blockedFilterError } from "./attributes.js";
export { ProgramBlockedError } from "./attributes.js";
export { StatusUnknownError } from "./errors.js";
export { WorktreeBlockedError, type WorktreeBlock } from "./boundary.js";
import { worktreeBlockError } from "./boundary.js";
export { worktreeBlockError };
import { pinArgs } from "./pin.js";
import { isValidRefName } from "./refname.js";
import { parseWorktreeList, type WorktreeEntry } from "./parse/worktrees.js";
import { parseStatusV2, type StatusSummary } from "./parse/status.js";
import { parsePeeledRefs, parseRefs, PEELED_REF_FORMAT, type RefRecord } from "./parse/refs.js";

// the history queries live in history.ts; read.ts stays the one door for read-only queries
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
} from "./history.js";
export { readCommitTrees, readTrackedState } from "./state.js";

export interface GitDirs {
  commonDir: string;
  gitDir: string;
  bare: boolean;
}

export async function readGitDirs(cwd: string): Promise<GitDirs> {
  return parseGitDirs((await git(GIT_DIRS_ARGS, { cwd })).stdout);
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

export async function readWorktrees(cwd: string): Promise<WorktreeEntry[]> {
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
    let text: string;
    try {
      text = readFileSync(join(root, id, "gitdir"), "utf8").replace(/\r?\n$/, "");
    } catch {
      continue; // an admin dir without gitdir: git lists it as prunable
    }
    if (!isAbsolute(text)) map.set(text.replace(/\/\.git$/, ""), dirname(resolve(root, id, text)));
  }
  return map;
}

/** `ignored`: also list ignored paths, an ignored directory as one entry ending in `/` (`--ignored=matching`). */
export async function readStatus(worktree: string, options: { ignored?: boolean } = {}): Promise<StatusSummary> {
  const unreadable = worktreeBlockError(worktree);
  if (unreadable) throw unreadable;
  const [r, blocked] = await Promise.all([git(statusArgs(options.ignored ?? false), { cwd: worktree }), blockedFilterError(worktree)]);
  if (blocked) throw blocked;
  return parseStatusV2(r.stdout);
}

/**
 * readStatus of many worktrees through one `sh` per slice: a big node process pays milliseconds
 * to fork each git (its page tables), a shell a fraction of one. After each worktree's output the
 * shell prints NUL, the exit code, NUL — status -z never prints an empty record, so the empty
 * record marks the end. A worktree whose git failed, a slice that failed as a whole, and any host
 * without `sh` (Windows) get readStatus of their own, so its error says what git said.
 */
export async function readStatuses(
  worktrees: readonly string[],
  options: { ignored?: boolean; slices: number; signal?: AbortSignal },
): Promise<(StatusSummary | Error)[]> {
  const out: (StatusSummary | Error | null)[] = worktrees.map(() => null);
  if (process.platform !== "win32" && worktrees.length > 1) {
    const size = Math.ceil(worktrees.length / Math.max(1, options.slices));
    // each worktree comes with its git dir: the status is pinned to it, as every git call is (pin.ts)
    const status = statusArgs(options.ignored ?? false).join(" ");
    const script = `while [ $# -gt 0 ]; do d=$1; g=$2; shift 2; if [ -n "$g" ]; then git -C "$d" "--git-dir=$g" "--work-tree=$d" ${status} 2>/dev/null; else git -C "$d" ${status} 2>/dev/null; fi; printf '\\0%s\\0' "$?"; done`;
    const slices = Array.from({ length: Math.ceil(worktrees.length / size) }, (_, k) => k * size);
    await Promise.all(
      slices.map(async (start) => {
        const slice = worktrees.slice(start, start + size);
        const pairs = slice.flatMap((d) => [d, pinArgs(d)[0]?.slice("--git-dir=".length) ?? ""]);
        const r = await runProcess("sh", ["-c", script, "sh", ...pairs], {
          cwd: "/",
          env: gitEnv(slice[0]!, { read: true }), // one repository's worktrees: one policy
          timeoutMs: DEFAULT_GIT_TIMEOUT_MS + 2_000 * slice.length,
          ...(options.signal ? { signal: options.signal } : {}),
        }).catch(() => null);
        if (!r || r.exitCode !== 0 || r.timedOut) return; // each worktree of the slice is read alone below (unless aborted)
        const tokens = r.stdout.split("\0");
        let at = 0;
        for (let k = 0; k < slice.length && at < tokens.length; k++) {
          const end = tokens.indexOf("", at);
          if (end < 0 || tokens[end + 1] !== "0") {
            at = end < 0 ? tokens.length : end + 2;
            continue; // this git failed: read alone below
          }
          try {
            out[start + k] = parseStatusV2(
              tokens
                .slice(at, end)
                .map((t) => `${t}\0`)
                .join(""),
            );
          } catch {
            // not what status prints: read alone below
          }
          at = end + 2;
        }
      }),
    );
  }
  if (options.signal?.aborted) return out.map((s) => s ?? new Error("not read: the statuses were no longer wanted")); // no one-by-one reads
  return Promise.all(
    out.map(async (s, i) => {
      const unreadable = worktreeBlockError(worktrees[i] as string);
      if (unreadable) return unreadable;
      const blocked = s ? await blockedFilterError(worktrees[i] as string) : null;
      return blocked ?? s ?? (await readStatus(worktrees[i] as string, options).catch((error: unknown) => error as Error));
    }),
  );
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

/** `git diff --quiet` on the index and worktree of a checkout: false when tracked files changed. */
export async function hasTrackedChanges(worktree: string): Promise<boolean> {
  const unreadable = worktreeBlockError(worktree);
  if (unreadable) throw unreadable;
  const [r, blocked] = await Promise.all([git(["status", "--porcelain=v2", "-z", "--untracked-files=no"], { cwd: worktree }), blockedFilterError(worktree)]);
  if (blocked) throw blocked;
  return r.stdout.length > 0;
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
