// Applying a recycle (SPEC §3.4); the caller holds the mutation lock and has just proved the
// worktree recyclable. Order: lock under the new lease (the worktree never looks abandoned),
// switch to the new branch (an existing branch is checked out as it is, never reset), `git clean
// -ffdx` keeping `bootstrap.preserve` only while the bootstrap fingerprint stays valid, move to
// the new handle's path, then one registry transaction (old row `recycled` → new row, lineage
// event). A failing git step undoes the earlier ones in reverse; then bootstrap runs.
import { readAdminDirs, writeIdentityFile } from "../shared/admin.js";
import { newRow, writeRowIdentity } from "../shared/rows.js";
import { resolveCommit } from "../../git/read.js";
import { cleanWorktree, deleteRef, lockWorktree, moveWorktree, switchDetached, switchToBranch, switchToNewBranch, unlockWorktree } from "../../git/write.js";
import type { WorktreeRow } from "../../registry/index.js";
import type { Ctx } from "../shared/context.js";
import { resultFor, type AddRequest, type AddResult } from "../shared/request.js";
import { leaseLockText, newLease, writeLock } from "../shared/lease.js";
import { runBootstrap, readBootstrapFingerprintAt, FAILED_FINGERPRINT } from "../bootstrap/index.js";
import { releaseMutationLockEarly } from "../shared/mutation-lock.js";
import { failure } from "../shared/errors.js";
import type { RecycleProof } from "./verdict.js";
import type { Base } from "../shared/request.js";
import type { Facts } from "../shared/types.js";
import { requireInsideWorkspace, requireLinkedWorktree } from "../shared/linked.js";
import { refreshIndexSoon } from "../shared/index-refresh.js";

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
 * matches the old HEAD (no drift since bootstrap) and equals the new HEAD's. Else null.
 */
async function preservedFingerprint(ctx: Ctx, old: WorktreeRow, oldHead: string | null, newHead: string): Promise<string | null> {
  if (old.fpBootstrap === null || old.fpBootstrap === FAILED_FINGERPRINT || oldHead === null) return null;
  const [before, after] = await Promise.all([readBootstrapFingerprintAt(ctx.repo, oldHead), readBootstrapFingerprintAt(ctx.repo, newHead)]);
  return old.fpBootstrap === before && before === after ? after : null;
}

async function undoAll(steps: (() => Promise<void>)[], error: unknown): Promise<never> {
  const failed: string[] = [];
  for (const step of steps.reverse()) {
    try {
      await step();
    } catch (undoError) {
      failed.push((undoError as Error).message);
    }
  }
  const message = (error as Error).message;
  throw failure("recycle_failed", failed.length ? `${message}; undoing it failed too: ${failed.join("; ")}` : `${message} (undone)`, error);
}

export async function applyRecycle(ctx: Ctx, request: AddRequest, base: Base, proof: RecycleProof & { row: WorktreeRow }): Promise<AddResult> {
  const { repo, registry } = ctx;
  const old = proof.row;
  const from = old.path;
  const admin = readAdminDirs(repo.commonDir).get(from);
  if (!admin) throw failure("recycle_failed", `git no longer lists ${from}`);
  const tip = await resolveCommit(repo.primary, `refs/heads/${request.branch}`);
  const keep = await preservedFingerprint(ctx, old, proof.facts.head, tip ?? base.commit);
  const lease = await newLease(request);
  const lineage = lineageOf(old, proof.facts, { handle: request.handle, branch: request.branch, base, task: request.task }, await lastOwner(ctx, old));
  const undo: (() => Promise<void>)[] = [];
  // every git write in the worktree first re-checks that it is still the linked worktree git
  // registered (a directory swapped for a symlink into the primary must not switch the primary)
  const at = (path: string): string => (requireLinkedWorktree(path, admin), path);
  let row: WorktreeRow;
  try {
    at(from);
    const lockText = leaseLockText(request.handle, lease);
    if (proof.entry?.locked) {
      const previous = proof.entry.lockReason ?? "";
      writeLock(admin, lockText);
      undo.push(async () => writeLock(admin, previous));
    } else {
      await lockWorktree(repo.primary, from, lockText);
      undo.push(() => unlockWorktree(repo.primary, from));
    }
    if (tip) await switchToBranch(at(from), request.branch);
    else await switchToNewBranch(at(from), request.branch, base.commit);
    undo.push(async () => {
      if (proof.facts.branch) await switchToBranch(at(from), proof.facts.branch);
      else if (proof.facts.head) await switchDetached(at(from), proof.facts.head);
      if (!tip) await deleteRef(repo.primary, `refs/heads/${request.branch}`, base.commit);
    });
    await cleanWorktree(at(from), keep ? (repo.config.config.bootstrap?.preserve ?? []) : []);
    if (request.path !== from) {
      requireInsideWorkspace(ctx.workspace.root, request.path);
      await moveWorktree(repo.primary, at(from), request.path);
      undo.push(() => moveWorktree(repo.primary, at(request.path), from));
    }
    // the new identity before the registry knows it: a crash from here on is recovered by the next
    // `add` of the new handle (from orchard.json) instead of leaving an unexplained occupied path
    writeIdentityFile(admin, { handle: request.handle, repo: repo.identity, branch: request.branch, task: request.task, owner: lease.owner, base });
    undo.push(async () => writeRowIdentity(admin, old));
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
          fpBootstrap: keep,
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
    return undoAll(undo, error);
  }
  writeRowIdentity(admin, row);
  releaseMutationLockEarly(repo.commonDir); // the worktree is locked and recorded: bootstrap needs no repo lock
  const bootstrap = await runBootstrap(ctx, row, { enabled: request.bootstrap, ...(keep !== null ? { reuse: keep } : {}) });
  await refreshIndexSoon(ctx, row.path);
  const result = resultFor(request, "recycled", { row: bootstrap.row, head: await resolveCommit(row.path, "HEAD"), bootstrap: bootstrap.report, lineage });
  if (bootstrap.report.status === "failed")
    return { ...result, ok: false, error: { code: "bootstrap_failed", message: bootstrap.message ?? "a bootstrap step failed" } };
  return result;
}
