// Batched reads of a wave entry's facts (SPEC §3.9): the refs' commits and trees in one process, a
// checkout's tracked changes and its branch in one status.
import { worktreeBlockError } from "./input/boundary.js";
import { blockedFilterError } from "./programs/attributes.js";
import { git } from "./run.js";

/**
 * Exact refs → the commit and tree each names (null when the ref is absent or names no commit), as
 * `rev-parse --verify <ref>^{commit}` and `<ref>^{tree}` would answer: one for-each-ref for what would
 * be two rev-parse per ref (a ref that names a tag asks rev-parse).
 */
export async function readCommitTrees(cwd: string, refs: readonly string[]): Promise<Map<string, { commit: string; tree: string } | null>> {
  const r = await git(["for-each-ref", "--format=%(objecttype) %(objectname) %(tree) %(refname)", "--", ...refs], { cwd });
  const found = new Map<string, { type: string; commit: string; tree: string }>();
  for (const line of r.stdout.split("\n")) {
    const m = /^(\S+) ([0-9a-f]+) ([0-9a-f]*) (.+)$/.exec(line);
    if (m) found.set(m[4] as string, { type: m[1] as string, commit: m[2] as string, tree: m[3] as string });
  }
  const out = new Map<string, { commit: string; tree: string } | null>();
  for (const ref of refs) {
    const f = found.get(ref);
    if (f?.type === "commit") out.set(ref, { commit: f.commit, tree: f.tree });
    else if (!f) out.set(ref, null);
    else {
      const [commit, tree] = await Promise.all(["commit", "tree"].map((type) => peel(cwd, `${ref}^{${type}}`)));
      out.set(ref, commit && tree ? { commit, tree } : null);
    }
  }
  return out;
}

/** A checkout's tracked changes and the branch its HEAD is on (null: detached), from one `status --branch`. */
export async function readTrackedState(worktree: string): Promise<{ changed: boolean; branch: string | null; oid: string | null }> {
  const unreadable = worktreeBlockError(worktree);
  if (unreadable) throw unreadable;
  const [r, blocked] = await Promise.all([
    // --no-ahead-behind: the branch and its commit are all this asks; counting a target's commits ahead of its
    // upstream walks every one of them (a wave's target gains two per merge: 0.2 s a status at 9,000 merges)
    git(["status", "--porcelain=v2", "-z", "--branch", "--no-ahead-behind", "--untracked-files=no"], { cwd: worktree }),
    blockedFilterError(worktree),
  ]);
  if (blocked) throw blocked;
  let changed = false;
  let branch: string | null = null;
  let oid: string | null = null;
  for (const record of r.stdout.split("\0")) {
    if (record.startsWith("# branch.head ")) branch = record.slice("# branch.head ".length);
    else if (record.startsWith("# branch.oid ")) oid = record.slice("# branch.oid ".length);
    else if (record !== "" && !record.startsWith("# ")) changed = true;
  }
  // the commit HEAD is on ("(initial)" before the first commit): a caller compares it with what it proved against
  return { changed, branch: branch === "(detached)" ? null : branch, oid: oid !== null && /^[0-9a-f]{40,64}$/.test(oid) ? oid : null };
}

async function peel(cwd: string, rev: string): Promise<string | null> {
  const r = await git(["rev-parse", "--verify", "--quiet", "--end-of-options", rev], { cwd, ok: [0, 1] });
  return r.exitCode === 0 ? r.stdout.trim() : null;
}
