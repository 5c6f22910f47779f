// Read-only git queries about history: ancestry, merge bases, merge trees and patch identity
// (the facts behind "merged" and "patch-equivalent"). User-given refs follow --end-of-options.
import { git } from "../run.js";

export async function isAncestor(cwd: string, ancestor: string, descendant: string): Promise<boolean> {
  const r = await git(["merge-base", "--is-ancestor", "--end-of-options", ancestor, descendant], { cwd, ok: [0, 1] });
  return r.exitCode === 0;
}

export async function readMergeBase(cwd: string, a: string, b: string): Promise<string | null> {
  const r = await git(["merge-base", "--end-of-options", a, b], { cwd, ok: [0, 1] });
  return r.exitCode === 0 ? r.stdout.trim() : null;
}

/** Revisions for `rev-list --stdin` (git 2.39 takes no options there, so exclusions are `^rev`). */
function stdinRevs(tips: readonly string[], excluded: readonly string[]): string {
  return [...tips, ...excluded.map((rev) => `^${rev}`)].join("\n") + "\n";
}

/** `git rev-list --parents tips --not excluded`: the commits reachable from tips only, with parents. */
export async function readRevListParents(cwd: string, tips: readonly string[], excluded: readonly string[]): Promise<Map<string, string[]>> {
  const graph = new Map<string, string[]>();
  if (tips.length === 0) return graph;
  const r = await git(["rev-list", "--parents", "--stdin"], { cwd, input: stdinRevs(tips, excluded) });
  for (const line of r.stdout.split("\n")) {
    if (!line) continue;
    const [commit, ...parents] = line.split(" ");
    graph.set(commit as string, parents);
  }
  return graph;
}

export async function countRevs(cwd: string, tip: string, excluded: readonly string[]): Promise<number> {
  const r = await git(["rev-list", "--count", "--stdin"], { cwd, input: stdinRevs([tip], excluded) });
  return Number(r.stdout.trim());
}

/**
 * `git cherry target branch`'s question with whitespace seen: true when every non-merge commit of
 * `branch` that `target` lacks has a commit with the same verbatim patch among the target's
 * non-merge commits that `branch` lacks. git's own patch-ids (cherry, `--cherry-mark`) drop all
 * whitespace, so a commit of main that only re-indents a Python program would "contain" the
 * branch's (SPEC v5 §4: such a patch-id never allows a deletion). git's cherry marks pick the
 * candidates on each side (equal without whitespace is necessary for equal with it), then
 * `patch-id --verbatim` (readCommitPatchIds) decides; a commit without a text patch is no proof.
 */
export async function allCommitsEquivalent(cwd: string, target: string, branch: string): Promise<boolean> {
  const side = async (which: "--right-only" | "--left-only"): Promise<string[]> => {
    const r = await git(["rev-list", "--cherry-mark", "--no-merges", which, "--end-of-options", `${target}...${branch}`], { cwd });
    return r.stdout.split("\n").filter(Boolean);
  };
  const mine = await side("--right-only");
  if (mine.length === 0 || mine.some((line) => !line.startsWith("="))) return false;
  const theirs = (await side("--left-only")).filter((line) => line.startsWith("=")).map((line) => line.slice(1));
  const ids = await readCommitPatchIds(cwd, [...mine.map((line) => line.slice(1)), ...theirs]);
  const found = new Set(theirs.map((c) => ids.get(c)).filter((id) => id !== null && id !== undefined));
  return mine.every((line) => found.has(ids.get(line.slice(1)) ?? ""));
}

/** `git merge-tree --write-tree`: the merged tree, or null when the merge conflicts. */
export async function readMergeTree(
  cwd: string,
  target: string,
  branch: string,
): Promise<{ tree: string; clean: true } | { clean: false; conflicts: string[] }> {
  const r = await git(["merge-tree", "--write-tree", "--name-only", "-z", "--no-messages", "--end-of-options", target, branch], { cwd, ok: [0, 1] });
  const [tree = "", ...paths] = r.stdout.split("\0");
  return r.exitCode === 0 ? { tree: tree.trim(), clean: true } : { clean: false, conflicts: [...new Set(paths.filter(Boolean))] };
}

/**
 * Many `merge-tree --write-tree` merges in one process (`--stdin`; a git without it refuses the
 * option and the caller falls back to readMergeTree). Each pair's merged tree, or null when it conflicts.
 * Throws GitError when git refuses the batch (e.g. unrelated histories: fatal for the whole run).
 */
export async function readMergeTrees(cwd: string, pairs: readonly { target: string; branch: string }[]): Promise<(string | null)[]> {
  if (pairs.length === 0) return [];
  const input = pairs.map((p) => `${p.target} ${p.branch}\n`).join("");
  const r = await git(["merge-tree", "--write-tree", "--stdin", "-z", "--name-only", "--no-messages"], { cwd, input });
  // per merge: <1 clean | 0 conflicted> NUL <tree> NUL (<conflicted path> NUL)* NUL
  const tokens = r.stdout.split("\0");
  const trees: (string | null)[] = [];
  let i = 0;
  while (trees.length < pairs.length) {
    const status = tokens[i++];
    const tree = tokens[i++] ?? "";
    if ((status !== "0" && status !== "1") || !/^[0-9a-f]{40,64}$/.test(tree))
      throw new Error(`git merge-tree --stdin: unexpected output near merge ${trees.length + 1}`);
    while (i < tokens.length && tokens[i] !== "") i++;
    i++;
    trees.push(status === "1" ? tree : null);
  }
  return trees;
}

/**
 * Stable, verbatim patch-ids of single commits (each against its first parent, as `git cherry`
 * compares them: no rename detection), in two processes. Verbatim: whitespace is part of the patch
 * (git's default strips it, and a proof that allows a deletion must see it, SPEC v5 §4). A commit
 * whose diff holds a binary file, or that has no patch-id (an empty diff, a mode change only),
 * maps to null: unknown, the caller asks allCommitsEquivalent instead. `--full-index` so that
 * binary changes could never look alike by abbreviation.
 */
export async function readCommitPatchIds(cwd: string, commits: readonly string[]): Promise<Map<string, string | null>> {
  const ids = new Map<string, string | null>(commits.map((c) => [c, null]));
  if (commits.length === 0) return ids;
  const diff = await git(["diff-tree", "--stdin", "-p", "--root", "--no-renames", "--full-index", "--no-color", "--no-ext-diff"], {
    cwd,
    input: commits.join("\n") + "\n",
    timeoutMs: 300_000,
  });
  const binary = new Set<string>();
  let current = "";
  for (const line of diff.stdout.split("\n")) {
    if (/^[0-9a-f]{40,64}$/.test(line)) current = line;
    else if (line.startsWith("Binary files ") || line.startsWith("GIT binary patch")) binary.add(current);
  }
  const relabelled = diff.stdout.replace(/^([0-9a-f]{40,64})$/gm, "commit $1");
  // `--verbatim` is the stable algorithm with whitespace kept (git 2.39 refuses it beside `--stable`);
  // a git before 2.39 refuses the option (usage, 129): every id unknown, so no patch proves anything
  const r = await git(["patch-id", "--verbatim"], { cwd, input: relabelled, timeoutMs: 300_000, ok: [0, 129] });
  if (r.exitCode === 129) return ids;
  for (const line of r.stdout.split("\n")) {
    const [patchId, commit] = line.split(" ");
    if (patchId && commit && ids.has(commit) && !binary.has(commit)) ids.set(commit, patchId);
  }
  return ids;
}

/** `merge-base --octopus`: a commit every one of `commits` descends from, or null when they share none. */
export async function readOctopusBase(cwd: string, commits: readonly string[]): Promise<string | null> {
  const r = await git(["merge-base", "--octopus", "--end-of-options", ...commits], { cwd, ok: [0, 1] });
  return r.exitCode === 0 ? (r.stdout.split("\n")[0]?.trim() ?? null) || null : null;
}

/** The stable patch-id of the cumulative diff `from..to`, or null for an empty diff. */
export async function readPatchId(cwd: string, from: string, to: string): Promise<string | null> {
  const diff = await git(["diff", "--no-color", "--no-ext-diff", "--no-textconv", "--end-of-options", from, to], { cwd });
  if (!diff.stdout) return null;
  const r = await git(["patch-id", "--stable"], { cwd, input: diff.stdout });
  return r.stdout.split(" ")[0]?.trim() || null;
}

/** Names of files deleted between two commits. */
export async function readPatchIds(cwd: string, pairs: readonly { from: string; to: string }[]): Promise<Map<string, string>> {
  const ids = new Map<string, string>();
  if (pairs.length === 0) return ids;
  const trees = await git(["cat-file", "--batch-check=%(objectname)"], {
    cwd,
    input: pairs.flatMap((p) => [`${p.from}^{tree}`, `${p.to}^{tree}`]).join("\n") + "\n",
  });
  const treeIds = trees.stdout.split("\n");
  const input = pairs.map((_, i) => `${treeIds[2 * i]} ${treeIds[2 * i + 1]}`).join("\n") + "\n";
  const diff = await git(["diff-tree", "--stdin", "-p", "-M", "--no-color", "--no-ext-diff"], { cwd, input });
  const header = /^[0-9a-f]{40,64} [0-9a-f]{40,64}$/;
  let index = -1;
  const relabelled = diff.stdout
    .split("\n")
    .map((line) => (header.test(line) ? `commit ${pairs[++index]?.to ?? ""}` : line))
    .join("\n");
  const r = await git(["patch-id", "--stable"], { cwd, input: relabelled });
  for (const line of r.stdout.split("\n")) {
    const [patchId, commit] = line.split(" ");
    if (patchId && commit) ids.set(commit, patchId);
  }
  return ids;
}

/**
 * Branches (full refs) whose tip is reachable from `target`: one for-each-ref for all, or for
 * the `refs` named only (full ref names, matched as for-each-ref matches them: the walk then
 * starts from those tips alone, not from every branch of the repository).
 */
export async function readMergedBranches(cwd: string, target: string, refs: readonly string[] = ["refs/heads/"]): Promise<Set<string>> {
  if (refs.length === 0) return new Set();
  const r = await git(["for-each-ref", "--format=%(refname)", `--merged=${target}`, "--", ...refs], { cwd });
  return new Set(r.stdout.split("\n").filter(Boolean));
}

/** Commits reachable from `tip` (a full sha, never user text) and from no remote-tracking ref. */
export async function countNotOnRemotes(cwd: string, tip: string): Promise<number> {
  if (!/^[0-9a-f]{40}(?:[0-9a-f]{24})?$/.test(tip)) throw new Error(`countNotOnRemotes needs a full sha, got ${JSON.stringify(tip)}`);
  const r = await git(["rev-list", "--count", tip, "--not", "--remotes"], { cwd });
  return Number(r.stdout.trim());
}

/** The newest commit on `ref`'s first-parent line whose message contains `text` (fixed string), or null. */
export async function findFirstParentCommit(cwd: string, ref: string, text: string): Promise<string | null> {
  const r = await git(["log", "--first-parent", "--fixed-strings", `--grep=${text}`, "--format=%H", "-n", "1", "--end-of-options", ref, "--"], { cwd });
  return r.stdout.trim() || null;
}

/** Every blob of a commit's tree: path → object id (symbolic links included, as their target text). */

/**
 * The commits `git merge --squash` lists in its message: those of `tip` not on `target`, newest
 * first, each as `git log` prints it (medium: commit, Author, Date, the message indented). No
 * signature is checked (no gpg runs), no colour, no decoration.
 */
export async function readSquashedLog(cwd: string, target: string, tip: string): Promise<string> {
  const r = await git(["log", "--no-color", "--no-decorate", "--no-show-signature", "--pretty=medium", "--end-of-options", tip, `^${target}`, "--"], { cwd });
  return r.stdout;
}

/** `git --version`'s number (`2.39.5`), or null when git does not run. */
export async function readGitVersion(cwd: string): Promise<string | null> {
  try {
    const r = await git(["--version"], { cwd });
    return /(\d+\.\d+(?:\.\d+)?)/.exec(r.stdout)?.[1] ?? null;
  } catch {
    return null; // no git on PATH, or it fails to start: doctor says so
  }
}
