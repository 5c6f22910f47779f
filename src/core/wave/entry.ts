// One entry of a wave (SPEC §3.9 steps 1–8), run under the mutation lock with facts read at that
// moment, so a rerun after a partial run (or after a conflict was resolved by hand) finds what is
// already done and finishes the rest. Nothing that holds work is removed: a dirty worktree
// blocks; a branch is deleted only after it is merged, compare-and-swap, and never while checked out.
import { existsSync } from "node:fs";
import {
  readMergeBase,
  readDeletedFiles,
  readMergeTree,
  readWorktrees,
  resolveCommit,
  hasTrackedChanges,
  readGitDirs,
  readSymbolicRef,
} from "../../git/read.js";
import { abortMerge, deleteRef, mergeNoFf, removeWorktree } from "../../git/write.js";
import { GitError } from "../../git/errors.js";
import { readAdminDirs, readOperation } from "../shared/admin.js";
import { proveMerged } from "../facts/index.js";
import { readCheckoutDirty } from "../reap/index.js";
import type { WaveEntry } from "./manifest.js";
import type { Ctx } from "../shared/context.js";
import { realOrAbsolute } from "../shared/paths.js";
import { retireRow } from "../shared/rows.js";

export type WaveBlock =
  | "branch_mismatch"
  | "base_mismatch"
  | "branch_contains_deletions"
  | "deletion_check_failed"
  | "worktree_dirty"
  | "merge_conflict"
  | "merge_failed"
  | "worktree_remove_failed"
  | "target_detached"
  | "target_dirty";

export type WaveOutcome =
  | { status: "merged_removed"; reason: "ok" | "already_merged" | "already_done" }
  | { status: "warning"; reason: "branch_delete_failed"; stderr: string }
  | { status: "blocked"; reason: WaveBlock; stderr?: string };

export interface WaveTarget {
  /** The target checkout (realpath) and the branch it must still be on. */
  path: string;
  branch: string;
}

const blocked = (reason: WaveBlock, stderr?: string): WaveOutcome => ({ status: "blocked", reason, ...(stderr ? { stderr } : {}) });

function stderrOf(error: unknown): string {
  if (error instanceof GitError) return (error.result.stderr || error.result.stdout).trim() || error.message;
  return error instanceof Error ? error.message : String(error);
}

/** The target is still on its branch with no tracked changes and no operation in progress. */
export async function checkTarget(target: { path: string; branch: string | null }): Promise<{ code: "target_detached" | "target_dirty"; detail: string }[]> {
  const problems: { code: "target_detached" | "target_dirty"; detail: string }[] = [];
  if (target.branch === null) problems.push({ code: "target_detached", detail: `${target.path} is not on a branch` });
  if (await hasTrackedChanges(target.path)) problems.push({ code: "target_dirty", detail: `${target.path} has tracked changes` });
  else {
    const operation = readOperation((await readGitDirs(target.path)).gitDir);
    if (operation) problems.push({ code: "target_dirty", detail: `a ${operation} is in progress in ${target.path}` });
  }
  return problems;
}

export async function processEntry(ctx: Ctx, target: WaveTarget, entry: WaveEntry, options: { allowDeletions: boolean }): Promise<WaveOutcome> {
  const cwd = ctx.repo.primary;
  const branchRef = `refs/heads/${entry.branch}`;
  const wt = (await readWorktrees(cwd)).slice(1).find((e) => e.path === entry.worktree_path || realOrAbsolute(e.path) === entry.worktree_path) ?? null;
  const targetRef = `refs/heads/${target.branch}`;
  const targetTip = await resolveCommit(cwd, targetRef);
  if (targetTip === null) return blocked("target_detached", `${targetRef} has no commit`);
  const tip = await resolveCommit(cwd, branchRef);
  // 1. already done, or the harness removed the worktree and left the branch
  if (!wt && tip === null) return { status: "merged_removed", reason: "already_done" };
  // 2. the worktree holds the manifest's branch
  if (wt && wt.branch !== branchRef) return blocked("branch_mismatch", `${wt.path} has ${wt.branch ?? `detached HEAD ${wt.head ?? ""}`} checked out`);
  if (tip === null) return blocked("base_mismatch", `${entry.branch} has no commits`);
  const merged = (await proveMerged(cwd, tip, [{ ref: targetRef, oid: targetTip }])).how !== null;
  if (!wt && merged) return deleteBranch(ctx, entry.branch, tip, "already_done");
  if (!merged) {
    // 3. forked where the orchestrator says  4. deletes nothing (unless waived)
    const base = await readMergeBase(cwd, targetTip, tip);
    if (base !== entry.expected_base_sha) return blocked("base_mismatch", `merge-base ${base ?? "(none)"} ≠ expected_base ${entry.expected_base_sha}`);
    if (!options.allowDeletions) {
      let deleted: string[];
      try {
        deleted = await readDeletedFiles(cwd, base, tip);
      } catch (error) {
        return blocked("deletion_check_failed", stderrOf(error));
      }
      if (deleted.length > 0)
        return blocked(
          "branch_contains_deletions",
          `deletes ${deleted.slice(0, 20).join(", ")}${deleted.length > 20 ? ` and ${deleted.length - 20} more` : ""}`,
        );
    }
  }
  // 5. nothing uncommitted in the worktree (also when already merged: removal would lose it)
  if (wt && existsSync(wt.path)) {
    const admin = readAdminDirs(ctx.repo.commonDir).get(wt.path);
    const dirty = admin ? await readCheckoutDirty(wt.path, admin) : "unknown";
    if (dirty === "unknown") return blocked("worktree_dirty", "the worktree's status could not be read");
    if (dirty.changes > 0 || dirty.operation)
      return blocked("worktree_dirty", `${dirty.changes} change(s)${dirty.operation ? `, ${dirty.operation} in progress` : ""}`);
  }
  // 6. merge, checked first with merge-tree so a conflict touches nothing
  if (!merged) {
    const outcome = await merge(target, entry, targetTip, tip);
    if (outcome) return outcome;
  }
  // 7. remove the worktree (locked or not) in one step
  if (wt) {
    try {
      await removeWorktree(cwd, wt.path);
    } catch (error) {
      return blocked("worktree_remove_failed", stderrOf(error));
    }
    ctx.registry.write(() => retireRow(ctx, wt.path, { by: "cleanup-wave", agentId: entry.agent_id }));
  }
  // 8. delete the merged branch, compare-and-swap
  return deleteBranch(ctx, entry.branch, tip, merged ? "already_merged" : "ok");
}

async function merge(target: WaveTarget, entry: WaveEntry, targetTip: string, tip: string): Promise<WaveOutcome | null> {
  const problems = await checkTarget(target);
  if ((await readSymbolicRef(target.path, "HEAD")) !== `refs/heads/${target.branch}`)
    problems.push({ code: "target_detached", detail: `${target.path} is no longer on ${target.branch}` });
  const first = problems[0];
  if (first) return blocked(first.code, problems.map((p) => p.detail).join("; "));
  const preview = await readMergeTree(target.path, targetTip, tip);
  if (!preview.clean) return blocked("merge_conflict", preview.conflicts.trim());
  try {
    await mergeNoFf(target.path, `refs/heads/${entry.branch}`, `chore: merge executor worktree (${entry.branch})`);
    return null;
  } catch (error) {
    const stderr = stderrOf(error);
    const aborted = await abortMerge(target.path).catch((e: unknown) => `merge --abort failed too: ${stderrOf(e)}`);
    return blocked("merge_failed", typeof aborted === "string" ? `${stderr}\n${aborted}` : stderr);
  }
}

async function deleteBranch(ctx: Ctx, branch: string, tip: string, reason: "ok" | "already_merged" | "already_done"): Promise<WaveOutcome> {
  const ref = `refs/heads/${branch}`;
  const holder = (await readWorktrees(ctx.repo.primary)).find((e) => e.branch === ref);
  if (holder) return { status: "warning", reason: "branch_delete_failed", stderr: `${branch} is checked out in ${holder.path}` };
  if (!(await deleteRef(ctx.repo.primary, ref, tip))) return { status: "warning", reason: "branch_delete_failed", stderr: `${ref} no longer points at ${tip}` };
  return { status: "merged_removed", reason };
}
