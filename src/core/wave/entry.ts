// One entry of a wave (SPEC §3.9 steps 1–8), run under the mutation lock with facts read at that
// moment, so a rerun after a partial run (or after a conflict was resolved by hand) finds what is
// already done and finishes the rest. Every entry is located first as git's own worktree list
// has it (its admin dir and HEAD, read in-process from the files that list reads: checkouts.ts):
// the manifest's path must be the worktree git lists for that branch (or gone, or the wave's own
// leftover); anything else blocks before a merge. Nothing that holds work is removed: a dirty or
// live worktree blocks; a removal is verified; a branch is deleted only after it is merged,
// compare-and-swap, and never while checked out.
import { existsSync, lstatSync } from "node:fs";
import { readCommitTrees, readDeletedFiles, readMergeTree, readTrackedState, StatusUnknownError, readGitDirs } from "../../git/read.js";
import { commitTree, deleteRef } from "../../git/write.js";
import { removeLinkedWorktree } from "../shared/removal/removal.js";
import { findAdminDir, readOperation } from "../shared/repo/admin.js";
import { readLiveness } from "../facts/index.js";
import { describeIgnored, readCheckoutDirty } from "../reap/index.js";
import { readProcessCwds } from "../ownership/index.js";
import { harnessHoldAt } from "../harness/index.js";
import type { Strategy } from "../shared/input/inputs.js";
import type { WaveEntry } from "./manifest.js";
import type { Ctx } from "../shared/context.js";
import { locateBranch, locateWorktree, readBranchHolders } from "../shared/repo/checkouts.js";
import { mergeMessage, type Wording } from "./messages.js";
import { incompleteRemoval, listFiles, provenDone, recordStep, removeLeftover, uniqueLeftovers } from "./leftover.js";
import { blocked, someFiles, stderrOf, type Done, type WaveOutcome } from "./outcome.js";
import { land } from "./strategy.js";
import { advanceBatch, stillListed, targetTipNow, type WaveBatch } from "./batch.js";
import { later, proveEntryMerged, proveFromBatch, SIMULATION_IDENTITY } from "./proofs.js";
export type { WaveBlock, WaveOutcome } from "./outcome.js";

/** A merged branch whose compare-and-swap delete (step 8) the batch does at its end, all in one transaction. */
export interface PendingDelete {
  entry: WaveEntry;
  tip: string;
  reason: Done;
}

export interface WaveTarget {
  /** The target checkout (realpath) and the branch it must still be on. */
  path: string;
  branch: string;
  /** Its git dir (read once per wave: a checkout's admin dir does not move). */
  gitDir: string;
}

export interface EntryOptions {
  allowDeletions: boolean;
  allowLive: boolean;
  dryRun: boolean;
  strategy: Strategy;
  /** Whose words the commits carry: git's (`orchard merge`) or GSD's (`cleanup-wave`). */
  wording: Wording;
  /**
   * --dry-run: the target as the earlier planned merges would leave it (an unreferenced commit of
   * the merge-tree result), so each entry is judged against what the real run would see.
   */
  simulated?: { tip: string | null; tree: string };
  /** Set by a batch: step 8's deletes are queued here and done at the batch's end (batch.ts). */
  deletes?: PendingDelete[];
}

/** The entry must be judged again, alone: the target moved between the batch's facts and the merge. */
export const RETRY = "retry" as const;

/**
 * The target is on a branch (with `gitDir`: still on its own branch, read by the same status) with
 * no tracked changes and no operation in progress.
 */
export async function checkTarget(target: { path: string; branch: string | null; gitDir?: string }): Promise<TargetProblem[]> {
  return (await inspectTarget(target)).problems;
}

type TargetProblem = { code: "target_detached" | "target_dirty"; detail: string };

/** checkTarget's problems, and the commit the target's HEAD is on (null: unknown). */
async function inspectTarget(target: { path: string; branch: string | null; gitDir?: string }): Promise<{ problems: TargetProblem[]; oid: string | null }> {
  const problems: TargetProblem[] = [];
  if (target.branch === null) problems.push({ code: "target_detached", detail: `${target.path} is not on a branch` });
  // a status a program the repository names would decide is unknown: not clean (SPEC v3 §4.1)
  const state = await readTrackedState(target.path).catch((error: unknown) => {
    if (error instanceof StatusUnknownError) return error;
    throw error;
  });
  if (state instanceof StatusUnknownError) return { problems: [...problems, { code: "target_dirty", detail: state.message }], oid: null };
  if (state.changed) problems.push({ code: "target_dirty", detail: `${target.path} has tracked changes` });
  else {
    const operation = readOperation(target.gitDir ?? (await readGitDirs(target.path)).gitDir);
    if (operation) problems.push({ code: "target_dirty", detail: `a ${operation} is in progress in ${target.path}` });
  }
  if (target.gitDir !== undefined && target.branch !== null && state.branch !== target.branch)
    problems.push({ code: "target_detached", detail: `${target.path} is no longer on ${target.branch}` });
  return { problems, oid: state.oid };
}

export async function processEntry(
  ctx: Ctx,
  target: WaveTarget,
  entry: WaveEntry,
  options: EntryOptions,
  batch: WaveBatch | null = null,
): Promise<WaveOutcome | typeof RETRY> {
  const cwd = ctx.repo.primary;
  const branchRef = `refs/heads/${entry.branch}`;
  const targetRef = `refs/heads/${target.branch}`;
  // the entry's worktree (its admin dir, read as git's list reads it) and both refs, at the moment of use
  // (in a batch: the branch as the batch read it — merged by that commit, deleted only while still there —
  // and the target's tip checked against the batch's, in-process)
  const [wt, refs] = await Promise.all([locateWorktree(ctx.repo, entry.worktree_path), refsAtUse(ctx, batch, targetRef, branchRef, entry.branch)]);
  const facts = batch && !batch.stale ? batch : null;
  const targetNow = options.simulated?.tip ? { commit: options.simulated.tip, tree: options.simulated.tree } : refs.get(targetRef);
  if (!targetNow) return blocked("target_detached", `${targetRef} has no commit`);
  const targetTip = targetNow.commit;
  const tip = refs.get(branchRef)?.commit ?? null;
  let leftover = false;
  if (!wt) {
    // located against git's list: the branch lives elsewhere, or the path is not a worktree of this repo
    const holder = await locateBranch(ctx.repo, branchRef, true);
    if (holder) return blocked("branch_checked_out", `git lists ${entry.branch} at ${holder}, not at ${entry.worktree_path}`);
    const st = lstatSync(entry.worktree_path, { throwIfNoEntry: false });
    if (st) {
      const incomplete = st.isDirectory() ? await incompleteRemoval(ctx, entry) : null;
      if (!incomplete) return blocked("not_a_worktree", `${entry.worktree_path} exists but git lists no worktree of ${cwd} there`);
      const outcome = await finishLeftover(ctx, entry, incomplete.tip, options.dryRun);
      if (outcome) return outcome;
      leftover = true;
    }
    // 1. already done, or the harness removed the worktree and left the branch
    if (tip === null) {
      if (leftover)
        return options.dryRun
          ? { status: "planned", reason: "already_merged", steps: ["finish_leftover"] }
          : { status: "merged_removed", reason: "already_merged" };
      if (await provenDone(ctx, entry, targetRef))
        return options.dryRun ? { status: "planned", reason: "already_done", steps: [] } : { status: "merged_removed", reason: "already_done" };
      return blocked(
        "entry_not_found",
        `git lists no worktree at ${entry.worktree_path}, ${entry.branch} does not exist, and no record shows a wave merged it`,
      );
    }
  }
  // 2. the worktree holds the manifest's branch
  if (wt && wt.branch !== branchRef) return blocked("branch_mismatch", `${wt.path} has ${wt.branch ?? `detached HEAD ${wt.head ?? ""}`} checked out`);
  // a worktree its agent harness still tracks (or may) is never removed by Orchard: the entry blocks before anything lands (SPEC v5 §1 harness)
  const held = wt ? await harnessBlock(ctx, wt.path) : null;
  if (held) return held;
  if (tip === null) return blocked("base_mismatch", `${entry.branch} has no commits`);
  // the deletion check reads two fixed commits: it runs beside the proofs, its answer used only if step 4 is reached
  const known = facts?.deletions.get(entry.branch);
  const deletions = options.allowDeletions
    ? null
    : later(
        Array.isArray(known)
          ? Promise.resolve(known)
          : tip === entry.expected_base_sha
            ? Promise.resolve([])
            : readDeletedFiles(cwd, entry.expected_base_sha, tip),
      );
  const batchProof = facts?.proofs.get(entry.branch);
  // in a batch, the target's status and the worktree's are read beside the merge preview (all reads; used in their steps' order)
  const early = batchProof && batchProof.merged === null ? startChecks(ctx, target, targetTip, wt) : null;
  const proof = batchProof
    ? await proveFromBatch(target.path, { commit: targetTip, tree: targetNow.tree }, tip, batchProof)
    : await proveEntryMerged(target.path, { commit: targetTip, tree: targetNow.tree }, tip);
  const merged = proof.merged;
  if (!wt && merged) {
    if (options.dryRun)
      return {
        status: "planned",
        reason: leftover ? "already_merged" : "already_done",
        steps: [...(leftover ? ["finish_leftover" as const] : []), "delete_branch"],
      };
    return deleteBranch(ctx, entry, tip, leftover ? "already_merged" : "already_done", options.deletes);
  }
  if (!merged) {
    // 3. forked where the orchestrator says  4. deletes nothing (unless waived)
    const base = proof.base;
    // a rebase run killed before its fast-forward left the branch on the target's tip: that is where a rerun finds it
    const rebased = options.strategy === "rebase" && base === targetTip;
    if (base !== entry.expected_base_sha && !rebased)
      return blocked("base_mismatch", `merge-base ${base ?? "(none)"} ≠ expected_base ${entry.expected_base_sha}`);
    if (deletions) {
      let deleted: string[];
      try {
        deleted = await deletions; // base is expected_base here
      } catch (error) {
        return blocked("deletion_check_failed", stderrOf(error));
      }
      if (deleted.length > 0) return blocked("branch_contains_deletions", `deletes ${someFiles(deleted)}`);
    }
  }
  // the target's status is read beside the worktree's, both right before the merge (step 6 waits for it)
  const targetProblems = merged || options.dryRun ? null : (early?.target ?? later(checkTarget(target)));
  // 5. nothing uncommitted, no unique ignored file, nobody working in the worktree (also when already merged: removal would lose it)
  if (wt && existsSync(wt.path)) {
    const admin = findAdminDir(ctx.repo.commonDir, wt.path);
    const dirty = admin ? await (early?.dirty ?? readCheckoutDirty(ctx.repo, wt.path, admin)) : "unknown";
    if (dirty === "unknown") return blocked("worktree_dirty", "the worktree's status could not be read");
    if (dirty.nested?.length) return blocked("nested_worktree", dirty.nested.join(", "));
    if (dirty.changes > 0 || dirty.operation)
      return blocked("worktree_dirty", `${dirty.changes} change${dirty.changes === 1 ? "" : "s"}${dirty.operation ? `, ${dirty.operation} in progress` : ""}`);
    if (dirty.ignored.count > 0) return blocked("ignored_files", describeIgnored(dirty.ignored));
    if (!options.allowLive) {
      const live = await liveBlock(ctx, wt.path);
      if (live) return live;
    }
  }
  // 6. merge, checked first with merge-tree so a conflict touches nothing
  let tree = "";
  if (!merged) {
    const preview = proof.preview ?? (await readMergeTree(target.path, targetTip, tip));
    if (!preview.clean) return blocked("merge_conflict", `conflicts in ${someFiles(preview.conflicts)}`, { conflicts: preview.conflicts });
    tree = preview.tree;
    if (options.simulated) {
      options.simulated.tip = await commitTree(cwd, {
        tree: preview.tree,
        parents: options.strategy === "merge" ? [targetTip, tip] : [targetTip],
        message: mergeMessage(options.wording, entry.branch, target.branch),
        env: SIMULATION_IDENTITY,
      });
      options.simulated.tree = preview.tree;
    }
  }
  if (options.dryRun)
    return {
      status: "planned",
      reason: merged ? "already_merged" : "ok",
      steps: [...(merged ? [] : ["merge" as const]), ...(wt ? ["remove" as const] : []), "delete_branch"],
    };
  let landed = tip;
  if (targetProblems) {
    const problems = await targetProblems;
    if (problems === RETRY) return RETRY; // the target moved since the batch's facts; nothing done yet: judged again, alone
    const first = problems[0];
    if (first) return blocked(first.code, problems.map((p) => p.detail).join("; "));
    const result = await land(ctx, {
      strategy: options.strategy,
      wording: options.wording,
      target,
      entry,
      targetTip,
      tip,
      base: proof.base,
      tree,
      worktree: wt?.path ?? null,
    });
    if ("outcome" in result) return result.outcome;
    landed = result.tip;
    if (facts) await advanceBatch(ctx, facts, tip);
  }
  // 7. remove the worktree (locked or not) in one step, then verify it is gone
  if (wt) {
    const outcome = await removeAndVerify(ctx, entry, wt.path, landed);
    if (outcome) return outcome;
  }
  // 8. delete the merged branch, compare-and-swap
  return deleteBranch(ctx, entry, landed, merged ? "already_merged" : "ok", options.deletes);
}

/** Both refs as readCommitTrees answers them: from the batch while the target is where the batch has it, else read now. */
async function refsAtUse(
  ctx: Ctx,
  batch: WaveBatch | null,
  targetRef: string,
  branchRef: string,
  branch: string,
): Promise<Map<string, { commit: string; tree: string } | null>> {
  if (batch && !batch.stale) {
    if ((await targetTipNow(ctx, batch)) === batch.tip) {
      const tip = batch.tips.get(branch) ?? null;
      return new Map([
        [targetRef, { commit: batch.tip, tree: batch.tree }],
        [branchRef, tip === null ? null : { commit: tip, tree: "" }],
      ]);
    }
    batch.stale = true; // moved by someone else: this entry reads for itself, the next one gets a new batch
  }
  return readCommitTrees(ctx.repo.primary, [targetRef, branchRef]);
}

/** The target's status (its HEAD still at `tip`) and the worktree's, started beside the merge preview. */
function startChecks(
  ctx: Ctx,
  target: WaveTarget,
  tip: string,
  wt: { path: string } | null,
): { target: Promise<TargetProblem[] | typeof RETRY>; dirty: ReturnType<typeof readCheckoutDirty> | null } {
  const admin = wt && existsSync(wt.path) ? findAdminDir(ctx.repo.commonDir, wt.path) : undefined;
  return {
    target: later(inspectTarget(target).then((r) => (r.problems.length === 0 && r.oid !== tip ? RETRY : r.problems))),
    dirty: wt && admin ? later(readCheckoutDirty(ctx.repo, wt.path, admin)) : null,
  };
}

/** harness_tracked or harness_unverified, with the harness's own way to drop the worktree; null when no harness keeps it. */
async function harnessBlock(ctx: Ctx, path: string): Promise<WaveOutcome | null> {
  const admin = findAdminDir(ctx.repo.commonDir, path);
  const held = admin ? await harnessHoldAt(ctx, path, admin) : null;
  if (!held) return null;
  return blocked(held.code, held.drop, { harness: { name: held.harness, session: held.session, drop: held.drop } });
}

/** A process inside the worktree, or a live lease on its managed row, blocks (unless --allow-live). */
async function liveBlock(ctx: Ctx, path: string): Promise<WaveOutcome | null> {
  const row = (await ctx.registry.worktrees.atPath(ctx.repo.identity, path)) ?? null;
  const liveness = await readLiveness({ row, lockReason: null, path, cwds: await readProcessCwds(), now: Date.now() });
  const detail = liveness.signals.map((s) => `${s.code}: ${s.detail}`).join("; ");
  if (liveness.state === "live")
    return blocked(liveness.signals.some((s) => s.code === "process_in_worktree") ? "live_process" : "live_owner", `${detail} (--allow-live waives)`);
  if (liveness.state === "unknown") return blocked("liveness_unknown", `${detail} (--allow-live waives)`);
  return null;
}

/** The wave's own leftover directory at the entry's path: delete it when nothing in it is unique; null when gone. */
async function finishLeftover(ctx: Ctx, entry: WaveEntry, tip: string | null, dryRun: boolean): Promise<WaveOutcome | null> {
  const unique = await uniqueLeftovers(ctx, entry.worktree_path, tip);
  if (unique.length > 0)
    return blocked("worktree_remove_incomplete", `files git did not remove, not in the merged commit: ${someFiles(unique)}`, { files: unique.slice(0, 100) });
  if (dryRun) return null;
  const left = removeLeftover(entry.worktree_path);
  if (left.length > 0) return blocked("worktree_remove_incomplete", `could not delete ${someFiles(left)}`, { files: left.slice(0, 100) });
  await recordStep(ctx, entry, "removed", tip);
  return null;
}

async function removeAndVerify(ctx: Ctx, entry: WaveEntry, path: string, tip: string): Promise<WaveOutcome | null> {
  let failed: unknown = null;
  const admin = findAdminDir(ctx.repo.commonDir, path);
  try {
    if (!admin) throw new Error(`git has no admin dir for ${path}`);
    await removeLinkedWorktree(ctx, { path, admin });
  } catch (error) {
    failed = error;
  }
  if (stillListed(ctx.repo.commonDir, admin, path)) return blocked("worktree_remove_failed", stderrOf(failed ?? new Error("git still lists the worktree")));
  const left = lstatSync(path, { throwIfNoEntry: false }) ? listFiles(path) : null;
  await recordStep(ctx, entry, left ? "incomplete" : "removed", tip, path);
  if (!left) return null;
  return blocked("worktree_remove_incomplete", `git dropped the worktree but files remain: ${someFiles(left)}${failed ? `\n${stderrOf(failed)}` : ""}`, {
    files: left.slice(0, 100),
  });
}

async function deleteBranch(ctx: Ctx, entry: WaveEntry, tip: string, reason: Done, deletes?: PendingDelete[]): Promise<WaveOutcome> {
  if (deletes) {
    deletes.push({ entry, tip, reason });
    return { status: "merged_removed", reason }; // the batch's end deletes it, or turns this into its warning
  }
  const ref = `refs/heads/${entry.branch}`;
  const holder = (await readBranchHolders(ctx.repo)).get(ref); // git's listing now, as the batch's deletes read it
  if (holder) return { status: "warning", reason: "branch_delete_failed", stderr: `${entry.branch} is checked out in ${holder}` };
  if (!(await deleteRef(ctx.repo.primary, ref, tip))) return { status: "warning", reason: "branch_delete_failed", stderr: `${ref} no longer points at ${tip}` };
  await recordStep(ctx, entry, "done", tip);
  return { status: "merged_removed", reason };
}
