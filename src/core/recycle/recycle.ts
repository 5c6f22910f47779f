// `orchard recycle <handle|path> --branch <new>` (SPEC §3.4) and the proof the recycle-terminal
// policy shares with it. Facts → pure verdict (every reason) → apply (recycle-apply.ts); the facts
// are gathered under the mutation lock that the apply holds, so nothing changes in between.
// A dry run takes no lock and changes nothing. Output is `add`'s, with action `recycled`.
import { existsSync } from "node:fs";
import { readSymbolicRef, resolveCommit } from "../../git/read.js";
import type { WorktreeEntry } from "../../git/parse/worktrees.js";
import type { WorktreeRow } from "../../registry/index.js";
import type { Ctx } from "../shared/context.js";
import { resolveBase, resultFor, validateAdd, type AddRequest, type AddResult, type Base } from "../shared/request.js";
import { readSnapshot, factsOf, type Snapshot } from "../facts/index.js";
import { resolveTarget } from "../shared/repo/target.js";
import { withMutationLock } from "../ownership/index.js";
import { assessDestination, assessRecycle, type RecycleProof } from "./verdict.js";
import { applyRecycle, lastOwner, lineageOf } from "./apply.js";
import { reason, type Reason } from "../shared/reasons/reasons.js";
import { findAdminDir } from "../shared/repo/admin.js";
import { whyNotLinkedWorktree } from "../shared/repo/linked.js";
import { repairRecycles, type RecycleJournal } from "./journal.js";

export interface RecycleOptions {
  target: string;
  branch: string;
  base?: string;
  task?: string;
  owner?: string;
  pid?: number | string;
  dryRun?: boolean;
}

/** The recycle proof of one worktree for a request: the worktree itself, then where it would go. */
export async function proveRecyclable(
  ctx: Ctx,
  snapshot: Snapshot,
  target: { entry: WorktreeEntry | null; row: WorktreeRow | null },
  request: AddRequest,
): Promise<RecycleProof> {
  const facts = await factsOf(snapshot, target.entry, target.row, { full: true });
  const taken = snapshot.rows.find((r) => r.handle === request.handle && r.id !== target.row?.id);
  const holder = snapshot.entries.find((e) => e.branch === `refs/heads/${request.branch}` && e.path !== facts.path)?.path ?? null;
  const primaryHolds = (await readPrimaryBranch(ctx)) === request.branch ? ctx.repo.primary : null;
  const destination = assessDestination(
    { handleTakenBy: taken ? taken.path : null, pathOccupied: request.path !== facts.path && existsSync(request.path), branchHolder: holder ?? primaryHolds },
    request.path,
  );
  return { row: target.row, entry: target.entry, facts, reasons: [...assessRecycle(facts), ...stillLinked(ctx, target.entry, facts), ...destination] };
}

/** The directory git lists is still that linked worktree (not swapped for a symlink, §4.10). */
function stillLinked(ctx: Ctx, entry: WorktreeEntry | null, facts: { path: string; missing: boolean }): Reason[] {
  if (entry === null || facts.missing) return [];
  const admin = findAdminDir(ctx.repo.commonDir, facts.path);
  const why = admin === undefined ? `git has no admin dir for ${facts.path}` : whyNotLinkedWorktree(facts.path, admin);
  return why === null ? [] : [reason("not_a_linked_worktree", { path: facts.path }, why)];
}

/** The branch the primary has checked out (snapshot entries list linked worktrees only). */
async function readPrimaryBranch(ctx: Ctx): Promise<string | null> {
  if (ctx.repo.bare) return null;
  const ref = await readSymbolicRef(ctx.repo.primary, "HEAD");
  return ref?.startsWith("refs/heads/") ? ref.slice("refs/heads/".length) : null;
}

/** The result of a proof that passed: planned on a dry run, else the recycle itself. */
export async function recycleWith(ctx: Ctx, request: AddRequest, base: Base, proof: RecycleProof & { row: WorktreeRow }): Promise<AddResult> {
  if (!request.dryRun) return applyRecycle(ctx, request, base, proof);
  const head = (await resolveCommit(ctx.repo.primary, `refs/heads/${request.branch}`)) ?? base.commit;
  return resultFor(request, "planned", {
    base,
    head,
    notes: [reason("recycle_planned", { from: proof.row.handle, path: proof.row.path })],
    lineage: lineageOf(proof.row, proof.facts, { handle: request.handle, branch: request.branch, base, task: request.task }, await lastOwner(ctx, proof.row)),
  });
}

export async function recycle(ctx: Ctx, options: RecycleOptions): Promise<AddResult> {
  const request = await validateAdd(ctx, {
    branch: options.branch,
    dryRun: options.dryRun ?? false,
    ...(options.base !== undefined ? { base: options.base } : {}),
    ...(options.task !== undefined ? { task: options.task } : {}),
    ...(options.owner !== undefined ? { owner: options.owner } : {}),
    ...(options.pid !== undefined ? { pid: options.pid } : {}),
  });
  const decide = async (): Promise<AddResult> => {
    const concerned = (j: RecycleJournal): boolean => [j.from.handle, j.from.path, j.from.branch].includes(options.target) || j.to.handle === request.handle;
    const undone = request.dryRun ? [] : await repairRecycles(ctx, concerned);
    const target = await resolveTarget(ctx, options.target);
    const resolved = await resolveBase(ctx, request);
    const { base } = resolved;
    const notes = [...undone, ...resolved.notes];
    const snapshot = await readSnapshot(ctx.repo, ctx.registry, target.listing);
    const proof = await proveRecyclable(ctx, snapshot, target, request);
    if (proof.reasons.length > 0 || !proof.row) return resultFor(request, "refused", { base, reasons: proof.reasons, notes });
    const result = await recycleWith(ctx, request, base, { ...proof, row: proof.row });
    return { ...result, notes: [...notes, ...result.notes] };
  };
  return request.dryRun ? decide() : withMutationLock(ctx.repo.commonDir, decide);
}
