// Rows left `creating` whose worktree git does not list (SPEC v3 §5): an add killed, or cut from
// its PostgreSQL registry, before its worktree existed (or after git's side was rolled back). They
// are never live holders (facts, exclusive.ts) and any command of their host drops them, not only
// an add of their handle. Only under the repo's mutation lock: every add holds it from the row's
// insert until the row is active or gone, so a `creating` row seen under the lock is a phantom
// whose creator is gone; without the lock (another command holds it) nothing is touched.
import { readWorktrees } from "../../git/read.js";
import type { WorktreeRow } from "../../registry/index.js";
import type { Ctx } from "../shared/context.js";
import { withMutationLock } from "../ownership/index.js";
import { OrchardError } from "../shared/errors.js";
import { repairCreating } from "./create.js";

/** Drops (rolls back) this host's phantom `creating` rows of the repo; the rows it dropped. */
export async function settleCreating(ctx: Ctx): Promise<WorktreeRow[]> {
  try {
    // the lock when it is free or stale (the killed add's own lock is stolen); never waits for a live holder
    return await withMutationLock(ctx.repo.commonDir, () => dropPhantoms(ctx), { timeoutMs: 0 });
  } catch (error) {
    if (error instanceof OrchardError && error.code === "repo_busy") return []; // another orchard works in the repo: left to the next command
    throw error;
  }
}

async function dropPhantoms(ctx: Ctx): Promise<WorktreeRow[]> {
  const rows = await ctx.registry.worktrees.creating(ctx.repo.identity); // read again under the lock
  if (rows.length === 0) return [];
  const entries = await readWorktrees(ctx.repo.primary);
  const listed = new Set(entries.map((e) => e.path));
  const settled: WorktreeRow[] = [];
  for (const row of rows) {
    if (listed.has(row.path)) continue; // git's side exists: the next add of its handle finishes or rolls it back
    await repairCreating(ctx, row, entries);
    settled.push(row);
  }
  return settled;
}
