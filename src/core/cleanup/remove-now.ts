// `orchard remove`'s one worktree, judged once and acted on at once (SPEC v5 §3: an everyday verb
// costs one worktree). The caller holds the repo's mutation lock; the facts of that one worktree
// (git's listing, its status with untracked and ignored files, its refs and history, the process
// scan, its row, its harness, its lock) are read here, under that lock, right before the action,
// and judged by cleanup's own planner (plan.ts) — the very verdict and item a stored plan would
// hold. A plain `remove` (and the delete of its merged branch) then runs from those facts: no plan
// row is stored and nothing is read a second time. Every other item (a salvage first, a husk, a
// reap, a prune) goes through a stored plan and apply's re-checks, as `cleanup run` does.
//
// A crash here leaves what the next command finishes without a plan: after the rename, the trash
// journal (removal.ts; any command drops git's entry); after that, a row whose directory and entry
// are gone, which is `missing` — a `remove` or `cleanup run` prunes it (its merged branch with it)
// and retires the row. The row is therefore retired last, after the branch delete.
import { existsSync } from "node:fs";
import { resolveCommit } from "../../git/read.js";
import { deleteRef } from "../../git/write.js";
import type { WorktreeEntry } from "../../git/parse/worktrees.js";
import { assessFleet } from "../hygiene/index.js";
import { treeDigest } from "../facts/index.js";
import { removeLinkedWorktree } from "../shared/removal/removal.js";
import { readAdminWorktreePath } from "../shared/repo/admin.js";
import { whyNotLinkedWorktree } from "../shared/repo/linked.js";
import { realOrAbsolute } from "../shared/repo/paths.js";
import { readCheckedOutBranches } from "../shared/repo/checkouts.js";
import { retireRow } from "../shared/rows.js";
import { reason, type Reason } from "../shared/reasons/reasons.js";
import { failure } from "../shared/errors.js";
import type { Ctx } from "../shared/context.js";
import { planCleanup, INCLUDABLE, type CleanupAction, type PlannedItem, type SkippedWorktree } from "./plan.js";

export interface Judged {
  /** What a plan scoped to this path would hold (never stored here). */
  items: PlannedItem[];
  skipped: SkippedWorktree[];
  /** git's whole listing, where the gather read one under the lock (none where the worktree was read on its own entry). */
  listing: WorktreeEntry[] | null;
  /** The worktree's admin dir, as the gather found it. */
  admin: string | null;
}

/** The one worktree at `path`, its facts read now (focused: nothing of another worktree), judged as cleanup would. */
export async function judgeOne(ctx: Ctx, path: string, salvage: boolean): Promise<Judged> {
  const fleet = await assessFleet([ctx], { includeResumable: true, verifyShare: false }, path);
  const members = fleet.members.filter((m) => m.view.path === path);
  for (const m of members)
    if (m.view.disposition === "husk" && m.subject.husk && !m.subject.husk.symlink) {
      try {
        m.digest = treeDigest(m.view.path); // what apply compares a husk's removal against
      } catch {
        m.digest = null; // unreadable: the planner keeps it as an unknown fact
      }
    }
  const gather = fleet.gathers[0];
  const defaultBranches = new Map(fleet.gathers.map((g) => [g.ctx.repo.identity, g.summary.defaultBranch]));
  const request = { include: [...INCLUDABLE], salvage, olderThanMs: null, now: Date.now(), defaultBranches, explicit: true };
  const { items, skipped } = planCleanup(members, request);
  return { items, skipped, listing: gather?.listing ?? null, admin: gather?.snapshot.admins.get(path) ?? null };
}

/** A plain removal of a listed worktree (and its merged branch): what removeNow does without a stored plan. */
export function actsNow(items: readonly PlannedItem[]): boolean {
  const [main, ...rest] = items;
  return main?.action === "remove" && !main.preconditions.husk && rest.every((i) => i.action === "delete_branch");
}

export interface StepOutcome {
  action: CleanupAction;
  state: "done" | "skipped";
  reasons: Reason[];
}

const changed = (field: string, planned: string | boolean | null, now: string | boolean | null): Reason =>
  reason("precondition_changed", { field, planned, now }, field);

/**
 * The branches checked out (or rebased, or bisected) in the repository's worktrees, read now, under
 * the lock, from their git dirs as git's `branch -d` finds them (checkouts.ts: each HEAD, a chain of
 * loose symbolic refs followed, and a detached HEAD's rebase or bisect): one small read a worktree,
 * where `git worktree list` was a process reading more of each (17 ms at 400 worktrees). The removed
 * worktree's own admin dir is gone by now; were it left, its HEAD keeps the branch. Null when a HEAD
 * cannot be read as git would (or the refs are in a reftable): the branch is then kept.
 */
function heldElsewhere(ctx: Ctx): Set<string> | null {
  const held = readCheckedOutBranches(ctx.repo.commonDir);
  return held === "unknown" ? null : held;
}

/** The merged branch, compare-and-swap on the head the worktree had (planned: orchard made it, merged by reachability). */
async function deleteBranchNow(ctx: Ctx, item: PlannedItem, held: Set<string> | null): Promise<StepOutcome> {
  const { branch, head } = item.preconditions;
  const skip = (reasons: Reason[]): StepOutcome => ({ action: "delete_branch", state: "skipped", reasons });
  if (!branch || !head) return skip([changed("branch", branch, null)]);
  const ref = `refs/heads/${branch}`;
  if (held === null || held.has(ref)) return skip([reason("branch_checked_out", { branch })]);
  const { primary } = ctx.repo;
  if (await deleteRef(primary, ref, head)) return { action: "delete_branch", state: "done", reasons: [] };
  const now = await resolveCommit(primary, ref);
  if (now === null) return { action: "delete_branch", state: "done", reasons: [reason("already_done")] };
  if (now === head) throw new Error(`git update-ref -d ${ref} failed while it still pointed at ${now} (a ref lock held elsewhere?)`);
  return skip([changed("head", head, now)]);
}

/**
 * Removes the worktree `judged` holds a plain removal of (actsNow), from the facts just read under
 * the caller's lock: the path is still that linked worktree (its `.git` leads to its admin dir,
 * which names it back), then removal.ts, then the merged branch (unless another worktree holds it,
 * read then), then the row retired.
 */
export async function removeNow(ctx: Ctx, path: string, judged: Judged): Promise<StepOutcome[]> {
  const [main, ...rest] = judged.items as [PlannedItem, ...PlannedItem[]];
  const refuse = (reasons: Reason[]): StepOutcome[] => [{ action: main.action, state: "skipped", reasons }];
  const admin = judged.admin;
  if (admin === null || readAdminWorktreePath(admin) === null || realOrAbsolute(readAdminWorktreePath(admin) as string) !== realOrAbsolute(path))
    return refuse([changed("registered", true, false)]);
  if (!existsSync(path)) return refuse([changed("directory", "present", "missing")]);
  // before anything acts: a `.git` that names another git dir made every read above about that repository
  const notLinked = whyNotLinkedWorktree(path, admin);
  if (notLinked !== null) return refuse([reason("not_a_linked_worktree", { path }, notLinked)]);
  await removeLinkedWorktree(ctx, { path, admin });
  const steps: StepOutcome[] = [{ action: main.action, state: "done", reasons: [] }];
  let failed: Error | null = null;
  const branchItem = rest.find((i) => i.action === "delete_branch");
  if (branchItem) {
    try {
      steps.push(await deleteBranchNow(ctx, branchItem, heldElsewhere(ctx)));
    } catch (error) {
      failed = error as Error;
    }
  }
  await ctx.registry.write(async () => await retireRow(ctx, path, { action: main.action }));
  if (failed) throw failure("remove_failed", `removing ${path} failed: ${reason("branch_delete_failed", { error: failed.message }).message}`);
  return steps;
}
