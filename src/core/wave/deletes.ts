// Step 8 of a batch's merged entries, done at the batch's end: each branch deleted compare-and-swap
// (only while it still points at the commit the wave merged or proved merged), never while checked
// out anywhere (git's own listing, read once for the batch right before the deletes: one process,
// not one read of every worktree's HEAD in-process), all in one
// `update-ref --stdin` transaction — or, when git refuses it (a branch moved, a lock held), one by
// one as before, so each branch that moved is its own warning. The registry records the batch's
// deletes in one transaction, right after them.
import { deleteRef } from "../../git/write.js";
import { deleteRefsAtomically } from "../../git/history/wave.js";
import { readBranchHolders } from "../shared/repo/checkouts.js";
import type { Ctx } from "../shared/context.js";
import type { PendingDelete } from "./entry.js";
import { recordDone } from "./leftover.js";
import type { WaveOutcome } from "./outcome.js";

/** Deletes the batch's merged branches; the entries (by branch) whose delete failed, with their warning. */
export async function finishDeletes(ctx: Ctx, deletes: readonly PendingDelete[]): Promise<Map<string, WaveOutcome>> {
  const warnings = new Map<string, WaveOutcome>();
  if (deletes.length === 0) return warnings;
  const holders = await readBranchHolders(ctx.repo); // git's listing now: where each branch is checked out
  const free: PendingDelete[] = [];
  for (const d of deletes) {
    const holder = holders.get(`refs/heads/${d.entry.branch}`);
    if (holder) warnings.set(d.entry.branch, { status: "warning", reason: "branch_delete_failed", stderr: `${d.entry.branch} is checked out in ${holder}` });
    else free.push(d);
  }
  const refs = free.map((d) => ({ ref: `refs/heads/${d.entry.branch}`, expected: d.tip }));
  const deleted = (await deleteRefsAtomically(ctx.repo.primary, refs)) ? free : [];
  if (deleted.length === 0)
    for (const d of free) {
      const ref = `refs/heads/${d.entry.branch}`;
      if (await deleteRef(ctx.repo.primary, ref, d.tip)) deleted.push(d);
      else warnings.set(d.entry.branch, { status: "warning", reason: "branch_delete_failed", stderr: `${ref} no longer points at ${d.tip}` });
    }
  await recordDone(ctx, deleted);
  return warnings;
}
