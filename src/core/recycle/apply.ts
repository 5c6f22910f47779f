// Applying a recycle (SPEC §3.4); the caller holds the mutation lock and has just proved the
// worktree recyclable. Order: lock under the new lease (the worktree never looks abandoned),
// switch to the new branch (an existing branch is checked out as it is, never reset), `git clean
// -ffdx` keeping `bootstrap.preserve` only while the bootstrap fingerprint stays valid, move to
// the new handle's path, then one registry transaction (old row `recycled` → new row, lineage
// event); then bootstrap runs. A journal (journal.ts) stands from before the lock until that
// transaction: a failing step is undone from it at once, a crash by the next command that
// touches either handle. Each step is a fault point (shared/fault.ts) for the crash tests.
import { findAdminDir, readIdentityFile, writeIdentityFile } from "../shared/repo/admin.js";
import { writeRowIdentity } from "../shared/rows.js";
import { newRow } from "../workspace/index.js";
import { resolveCommit } from "../../git/read.js";
import { cleanWorktree, createBranch, lockWorktree, moveWorktree, switchToBranch } from "../../git/write.js";
import type { WorktreeRow } from "../../registry/index.js";
import type { Ctx } from "../shared/context.js";
import { resultFor, type AddRequest, type AddResult } from "../shared/request.js";
import { leaseLockText, newLease, writeLock, releaseMutationLockEarly } from "../ownership/index.js";
import { beginBootstrapJournal, runBootstrap, readBootstrapFingerprintAt, readBootstrapJournal, FAILED_FINGERPRINT } from "../bootstrap/index.js";
import { failure } from "../shared/errors.js";
import type { RecycleProof } from "./verdict.js";
import type { Base } from "../shared/request.js";
import type { Facts } from "../shared/types.js";
import { requireInsideWorkspace, requireLinkedWorktree } from "../shared/repo/linked.js";
import { faultPoint } from "../shared/fault.js";
import { removeRecycleJournal, undoRecycle, writeRecycleJournal, type RecycleJournal } from "./journal.js";
import { refreshIndexBeforeAnswer } from "../shared/index-refresh.js";

type Lineage = NonNullable<AddResult["lineage"]>;

/** The last owner a worktree had: release clears the lease, the events keep who it was. */
export async function lastOwner(ctx: Ctx, row: WorktreeRow): Promise<string | null> {
  if (row.owner !== null) return row.owner;
  const events = (await ctx.registry.events.for({ handle: row.handle })).filter((e) => e.handle === row.handle && e.owner !== null);
  return events.at(-1)?.owner ?? null;
}

export function lineageOf(old: WorktreeRow, facts: Facts, to: Lineage["to"], owner: string | null): Lineage {
  return { from: { handle: old.handle, branch: facts.branch ?? old.branch, head: facts.head, task: old.task, owner }, to };
}

/**
 * The bootstrap fingerprint to keep when the preserved paths stay valid: the recorded one still
 * matches the old HEAD (no drift since bootstrap), equals the new HEAD's, and no bootstrap of the
 * worktree is unfinished. Else null.
 */
async function preservedFingerprint(ctx: Ctx, old: WorktreeRow, admin: string, oldHead: string | null, newHead: string): Promise<string | null> {
  if (old.fpBootstrap === null || old.fpBootstrap === FAILED_FINGERPRINT || oldHead === null) return null;
  if ((await readBootstrapJournal(admin)).state !== "none") return null;
  const [before, after] = await Promise.all([readBootstrapFingerprintAt(ctx.repo, oldHead), readBootstrapFingerprintAt(ctx.repo, newHead)]);
  return old.fpBootstrap === before && before === after ? after : null;
}

async function undoAfterFailure(ctx: Ctx, admin: string, journal: RecycleJournal, error: unknown): Promise<never> {
  let undoError: unknown = null;
  try {
    await undoRecycle(ctx, admin, journal);
  } catch (e) {
    undoError = e; // the journal stays: the next command that touches either handle tries again
  }
  const message = (error as Error).message;
  throw failure("recycle_failed", undoError ? `${message}; undoing it failed too: ${(undoError as Error).message}` : `${message} (undone)`, error);
}

export async function applyRecycle(ctx: Ctx, request: AddRequest, base: Base, proof: RecycleProof & { row: WorktreeRow }): Promise<AddResult> {
  const { repo, registry } = ctx;
  const old = proof.row;
  const from = old.path;
  const admin = findAdminDir(repo.commonDir, from);
  if (!admin) throw failure("recycle_failed", `git no longer lists ${from}`);
  const tip = await resolveCommit(repo.primary, `refs/heads/${request.branch}`);
  const keep = await preservedFingerprint(ctx, old, admin, proof.facts.head, tip ?? base.commit);
  const lease = await newLease(request);
  const lineage = lineageOf(old, proof.facts, { handle: request.handle, branch: request.branch, base, task: request.task }, await lastOwner(ctx, old));
  // every git write in the worktree first re-checks that it is still the linked worktree git
  // registered (a directory swapped for a symlink into the primary must not switch the primary)
  const at = (path: string): string => (requireLinkedWorktree(path, admin), path);
  const journal: RecycleJournal = {
    from: {
      rowId: old.id,
      handle: old.handle,
      path: from,
      branch: proof.facts.branch,
      head: proof.facts.head,
      lock: proof.entry?.locked ? (proof.entry.lockReason ?? "") : null,
      identity: readIdentityFile(admin),
      bootstrapped: old.fpBootstrap !== null || old.fpContext !== null,
    },
    to: { handle: request.handle, path: request.path, branch: request.branch, baseCommit: base.commit, createdBranch: tip === null },
  };
  at(from);
  writeRecycleJournal(admin, journal);
  let row: WorktreeRow;
  try {
    const lockText = leaseLockText(request.handle, lease, ctx.workspace.id);
    if (proof.entry?.locked) writeLock(admin, lockText);
    else await lockWorktree(repo.primary, from, lockText);
    faultPoint("recycle.locked");
    // a new branch is made first, so a name git cannot create fails before any file changes
    if (!tip) await createBranch(repo.primary, request.branch, base.commit);
    await switchToBranch(at(from), request.branch);
    faultPoint("recycle.switched");
    await cleanWorktree(at(from), keep ? (repo.config.config.bootstrap?.preserve ?? []) : []);
    faultPoint("recycle.cleaned");
    if (request.path !== from) {
      requireInsideWorkspace(ctx.workspace.root, request.path);
      await moveWorktree(repo.primary, at(from), request.path);
    }
    writeIdentityFile(admin, { handle: request.handle, repo: repo.identity, branch: request.branch, task: request.task, owner: lease.owner, base });
    if (request.bootstrap) await beginBootstrapJournal(admin); // before the new row exists: a crash after it re-runs the bootstrap
    faultPoint("recycle.moved");
    row = await registry.write(async () => {
      const now = new Date().toISOString();
      await registry.worktrees.update(old.id, { lifecycle: "recycled", lastActivityAt: now });
      const created = await registry.worktrees.insert(
        newRow({
          repo: repo.identity,
          handle: request.handle,
          path: request.path,
          branch: request.branch,
          createdBranch: tip === null,
          baseRef: base.ref,
          baseCommit: base.commit,
          task: request.task,
          taskRaw: request.taskRaw,
          ...lease,
          recycledFrom: old.id,
          createdAt: now,
          lastActivityAt: now,
        }),
      );
      await registry.worktrees.update(old.id, { supersededBy: created.id });
      await registry.events.append({
        kind: "recycled",
        repo: repo.identity,
        handle: created.handle,
        task: created.task,
        owner: created.owner,
        data: { ...lineage },
      });
      return created;
    });
  } catch (error) {
    return undoAfterFailure(ctx, admin, journal, error);
  }
  removeRecycleJournal(admin);
  faultPoint("recycle.recorded");
  writeRowIdentity(admin, row, ctx.workspace.id);
  releaseMutationLockEarly(repo.commonDir); // the worktree is locked and recorded: bootstrap needs no repo lock
  const bootstrap = await runBootstrap(ctx, row, { enabled: request.bootstrap, ...(keep !== null ? { reuse: keep } : {}) });
  await refreshIndexBeforeAnswer(ctx, row.path);
  const result = resultFor(request, "recycled", {
    row: bootstrap.row,
    head: bootstrap.head !== undefined ? bootstrap.head : await resolveCommit(row.path, "HEAD"),
    bootstrap: bootstrap.report,
    lineage,
  });
  if (bootstrap.report.status === "failed")
    return { ...result, ok: false, error: { code: "bootstrap_failed", message: bootstrap.message ?? "a bootstrap step failed" } };
  return result;
}
