// What a snapshot focused on one worktree reads: its admin dir alone, and the refs (exact add, status), instead of every branch of
// the fleet with its upstream's ahead/behind: its branch (as git lists it and as its row names it),
// its recorded base when that is a branch, every remote-tracking ref (its unpushed commits are
// counted against all of them) and the default branch's candidates (core/shared/repo/default-refs.ts).
// Each fact of that worktree reads only these refs; a base elsewhere is resolved by git as before.
import { readRefs } from "../../git/read.js";
import { findAdminDir } from "../shared/repo/admin.js";
import { SNAPSHOT_REFS } from "../../git/early.js";
import type { RefRecord } from "../../git/parse/refs.js";
import type { WorktreeRow } from "../../registry/index.js";
import { focusedPatterns, missingDefault } from "../shared/repo/default-refs.js";
import type { RepoContext } from "../shared/repo/repo.js";

/** for-each-ref patterns of a focused snapshot; null: every branch (SNAPSHOT_REFS). */
export function focusRefPatterns(repo: RepoContext, branchRefs: readonly (string | null | undefined)[], row: WorktreeRow | null): string[] | null {
  const base = row?.baseRef?.startsWith("refs/heads/") ? row.baseRef : null;
  return focusedPatterns(repo, [...branchRefs, base], "refs/remotes");
}

/** The refs under `patterns` (started early by the caller with the same patterns, when it could), plus what the default branch needs. */
export async function readFocusRefs(repo: RepoContext, patterns: string[] | null): Promise<RefRecord[]> {
  if (patterns === null) return readRefs(repo.primary, SNAPSHOT_REFS);
  const refs = await readRefs(repo.primary, patterns);
  const missing = missingDefault(
    repo,
    patterns,
    refs.find((r) => r.ref === "refs/remotes/origin/HEAD"),
  );
  if (missing === null) return refs;
  const known = new Set(refs.map((r) => r.ref));
  return [...refs, ...(await readRefs(repo.primary, missing)).filter((r) => !known.has(r.ref))];
}

/** The admin dir of the one worktree a focused snapshot is about (findAdminDir: not a scan of every one). */
export function focusAdmin(commonDir: string, path: string | null): Map<string, string> {
  const admin = path === null ? undefined : findAdminDir(commonDir, path);
  return new Map(admin === undefined || path === null ? [] : [[path, admin]]);
}
