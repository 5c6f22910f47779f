// Creating a managed worktree, rolling back a failed creation, and repairing one a crash left
// `creating`. Callers hold the repo's mutation lock. Order: row `creating` → new branch →
// `git worktree add --lock` on it → identity file and bootstrap journal → row `active` → bootstrap.
// Each step is a fault point (shared/fault.ts) that the crash tests kill the process at.
import { existsSync, lstatSync, rmSync, unlinkSync } from "node:fs";
import { join } from "node:path";
import { resolveCommit } from "../../git/read.js";
import { addWorktree, createBranch, deleteRef, removeWorktree } from "../../git/write.js";
import type { WorktreeEntry } from "../../git/parse/worktrees.js";
import { RegistryError, type WorktreeRow, type EventKind } from "../../registry/index.js";
import { findAdminDir } from "../shared/repo/admin.js";
import { writeRowIdentity } from "../shared/rows.js";
import { identityOf, newRow, restoreRow } from "../workspace/index.js";
import { isInside, type Ctx } from "../shared/context.js";
import { leaseLockText, newLease, writeLock, type LeaseFields, releaseMutationLockEarly } from "../ownership/index.js";
import { resultFor, type AddBootstrapFailed, type AddRequest, type AddResult, type AddResultOf, type BootstrappedAction } from "../shared/request.js";
import { beginBootstrapJournal, markBootstrapInterrupted, runBootstrap, type BootstrapOutcome } from "../bootstrap/index.js";
import { backdateCheckout, refreshIndexBeforeAnswer } from "../shared/index-refresh.js";
import { isClean, readDirty } from "../facts/index.js";
import { heldReasons, taskHolders, taskLockKey, TaskHeld } from "./exclusive.js";
import { faultCheckoutConfig, faultPoint, pausePoint } from "../shared/fault.js";
import { finishCheckout } from "./checkout.js";
import { readPlainText } from "../shared/files.js";

/** Writes the row's identity file; returns the worktree's admin dir (undefined when git does not list it). */
function recordIdentity(ctx: Ctx, row: WorktreeRow): string | undefined {
  const admin = findAdminDir(ctx.repo.commonDir, row.path);
  if (admin) writeRowIdentity(admin, row, ctx.workspace.id);
  return admin;
}

/** Marks a `creating` row active and records its `created` event, in one transaction. */
async function markCreated(ctx: Ctx, row: WorktreeRow, data: Record<string, unknown>): Promise<WorktreeRow> {
  const active = await ctx.registry.write(async () => {
    const active = await ctx.registry.worktrees.update(row.id, { lifecycle: "active" });
    await ctx.registry.events.append({ kind: "created", repo: row.repo, handle: row.handle, task: row.task, owner: row.owner, data });
    return active;
  });
  await ctx.registry.worktrees.releaseCreation(row.id);
  return active;
}

export async function createWorktree(
  ctx: Ctx,
  request: AddRequest,
  base: { ref: string; commit: string },
  options: { replacing?: WorktreeRow; staleEntry?: WorktreeEntry | null; tip?: string | null } = {},
): Promise<AddResult> {
  const { registry, repo } = ctx;
  // the branch's commit as the caller read it under this lock, else read now (null: no such branch)
  const existing = options.tip !== undefined ? options.tip : await resolveCommit(repo.primary, `refs/heads/${request.branch}`);
  const lease = await newLease(request);
  const now = new Date().toISOString();
  const fields = { ...lease, lastActivityAt: now };
  const exclusive = request.policy === "exclusive-task" && request.task !== null;
  let row: WorktreeRow = options.replacing
    ? await registry.worktrees.update(options.replacing.id, fields)
    : await registry.write(
        async () => {
          if (exclusive) {
            const holders = await taskHolders(ctx, request);
            if (holders.length > 0) throw new TaskHeld(heldReasons(holders, registry.host));
          }
          const inserted = await registry.worktrees.insert(
            newRow({
              repo: repo.identity,
              handle: request.handle,
              path: request.path,
              branch: request.branch,
              createdBranch: existing === null,
              baseRef: base.ref,
              baseCommit: base.commit,
              task: request.task,
              taskRaw: request.taskRaw,
              lifecycle: "creating",
              ...fields,
            }),
          );
          await registry.worktrees.holdCreation(inserted.id); // in the inserting transaction: no moment without a creator (§5)
          return inserted;
        },
        exclusive ? { lock: taskLockKey(repo.identity, request.task as string) } : {},
      );
  let backdated = false;
  try {
    faultPoint("add.row");
    if (options.staleEntry) await removeWorktree(repo.primary, options.staleEntry.path);
    if (existing === null) await createBranch(repo.primary, request.branch, base.commit);
    faultPoint("add.branch");
    const fault = faultCheckoutConfig("add.checkout");
    await addWorktree({
      cwd: repo.primary,
      path: row.path,
      lockReason: leaseLockText(row.handle, lease, ctx.workspace.id),
      start: request.branch,
      ...(fault ? { config: fault } : {}),
    });
    backdated = backdateCheckout(ctx, row.path); // nobody has seen the checkout yet (shared/index-refresh.ts)
    faultPoint("add.checked-out");
    const admin = recordIdentity(ctx, row);
    if (admin && request.bootstrap) await beginBootstrapJournal(admin); // before the row is usable: a crash from here re-runs it
    row = await markCreated(ctx, row, { path: row.path, branch: row.branch, base, recreated: !!options.replacing });
  } catch (error) {
    await rollBack(ctx, row, { createdBranch: existing === null, baseCommit: base.commit, keepRow: !!options.replacing }).catch((lost: unknown) => {
      throw registryLost(
        lost,
        `the worktree ${row.path} was rolled back; a row of it left \`creating\` holds nothing and the next command of this host drops it`,
      );
    });
    throw error;
  }
  try {
    return await finishCreated(ctx, request, row, backdated);
  } catch (error) {
    // the registry lost late: the answer says what exists (SPEC §5; issue 36 item 9), never "nothing was written"
    throw registryLost(error, `the worktree ${row.path} on branch ${row.branch} was made and stays: run the same orchard add again to adopt it`);
  }
}

/** A registry out of reach after some of the command's work stands: its error, saying what stands. */
function registryLost(error: unknown, what: string): unknown {
  if (!(error instanceof RegistryError) || error.code !== "registry_unreachable") return error;
  return new RegistryError("registry_unreachable", `${error.message}; ${what}`, { cause: error });
}

/** After the worktree is made and its row active: the bootstrap and the answer. */
async function finishCreated(ctx: Ctx, request: AddRequest, row: WorktreeRow, backdated: boolean): Promise<AddResult> {
  const { repo } = ctx;
  faultPoint("add.active");
  await pausePoint("add.active");
  // a dated-back checkout is refreshed (and its HEAD read) before the lock goes, at once: done after,
  // these gits inside the worktree were seen by a concurrent identical add, which scans under the
  // lock, as someone working there (live_owner) instead of a worktree to adopt
  const early = backdated ? { head: await refreshedHead(ctx, row.path, backdated) } : null;
  releaseMutationLockEarly(repo.commonDir); // the worktree is locked and active: bootstrap needs no repo lock
  const bootstrap = await runBootstrap(ctx, row, { enabled: request.bootstrap });
  const head = bootstrap.head !== undefined ? bootstrap.head : early ? early.head : await refreshedHead(ctx, row.path, backdated);
  return withBootstrap(
    resultFor(request, "created", {
      row: bootstrap.row,
      head,
      bootstrap: bootstrap.report,
    }),
    bootstrap,
  );
}

/** The new worktree's index refreshed (shared/index-refresh.ts) and its HEAD, read beside the refresh. */
async function refreshedHead(ctx: Ctx, path: string, backdated: boolean): Promise<string | null> {
  const head = resolveCommit(path, "HEAD");
  head.catch(() => undefined); // awaited below; a failed refresh must not leave it unhandled
  await refreshIndexBeforeAnswer(ctx, path, { backdated });
  return head;
}

/** A result whose bootstrap failed is `ok: false`, `bootstrap_failed` (exit 1); the worktree is kept. */
export function withBootstrap<A extends BootstrappedAction>(result: AddResultOf<A>, bootstrap: BootstrapOutcome): AddResultOf<A> | AddBootstrapFailed {
  if (bootstrap.report.status !== "failed") return result;
  return { ...result, ok: false, error: { code: "bootstrap_failed", message: bootstrap.message ?? "a bootstrap step failed" } };
}

async function rollBack(ctx: Ctx, row: WorktreeRow, options: { createdBranch: boolean; baseCommit: string; keepRow: boolean }): Promise<void> {
  const { repo, registry } = ctx;
  if (findAdminDir(repo.commonDir, row.path) !== undefined) await removeWorktree(repo.primary, row.path);
  else removeUnregisteredCheckout(ctx, row.path);
  if (options.createdBranch && row.branch !== null && (await resolveCommit(repo.primary, `refs/heads/${row.branch}`)) === options.baseCommit)
    await deleteRef(repo.primary, `refs/heads/${row.branch}`, options.baseCommit);
  if (!options.keepRow) await registry.write(async () => await registry.worktrees.delete(row.id));
  await registry.worktrees.releaseCreation(row.id);
}

/** A checkout a killed `git worktree add` left behind: never a symlink, always under the managed root. */
function removeUnregisteredCheckout(ctx: Ctx, path: string): void {
  if (!existsSync(path) || !isInside(ctx.workspace.root, path) || lstatSync(path).isSymbolicLink()) return;
  rmSync(path, { recursive: true, force: true });
}

/**
 * A row left `creating` by a crash. An interrupted checkout is finished first (its files are git's,
 * not work). Then a worktree that holds work (moved HEAD, changes, unique ignored files) is
 * finished, its bootstrap left to re-run; anything else is rolled back. Git may have left the ref
 * lock of the new branch. The worktree's state unknown: it throws, never guesses.
 */
export async function repairCreating(ctx: Ctx, row: WorktreeRow, entries: WorktreeEntry[]): Promise<void> {
  const { repo } = ctx;
  const entry = entries.find((e) => e.path === row.path);
  const admin = findAdminDir(repo.commonDir, row.path);
  if (entry && admin && existsSync(row.path) && entry.lockReason !== "initializing" && (await finishCheckout(row.path, admin)) !== "unborn") {
    const dirty = await readDirty(repo, row.path, admin);
    const head = await resolveCommit(row.path, "HEAD");
    const moved = row.baseCommit !== null && head !== row.baseCommit && row.createdBranch;
    if (moved || dirty === null || !isClean(dirty)) {
      recordIdentity(ctx, row);
      markBootstrapInterrupted(admin);
      await markCreated(ctx, row, { path: row.path, repaired: true });
      return;
    }
  }
  const refLock = join(repo.commonDir, "refs", "heads", `${row.branch}.lock`);
  await clearOwnRefLock(refLock, row);
  await rollBack(ctx, row, { createdBranch: row.createdBranch, baseCommit: row.baseCommit ?? "", keepRow: false });
}

/** Git holds a ref lock for milliseconds; one untouched for this long was left by a killed git. */
const REF_LOCK_STALE_MS = 2_000;

/**
 * Removes `refs/heads/<branch>.lock` only when it is what the interrupted add's own `git worktree
 * add -b` left: made after the row was written, empty or naming the commit that add would have
 * written, and untouched for REF_LOCK_STALE_MS (a live git holding it finishes and removes it
 * sooner; we poll until then). Anything else belongs to someone else and is kept.
 */
async function clearOwnRefLock(path: string, row: WorktreeRow): Promise<void> {
  for (;;) {
    const st = lstatSync(path, { throwIfNoEntry: false });
    if (!st?.isFile() || st.mtimeMs < Date.parse(row.createdAt) - 1_000) return;
    const text = readPlainText(path, 4096)?.trim();
    if (text === undefined) return; // released while we looked
    if (text !== "" && text !== row.baseCommit) return;
    if (Date.now() - st.mtimeMs >= REF_LOCK_STALE_MS) return unlinkSync(path);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** The registry lost this worktree but its identity file names this handle: bring the row back. */
export async function recoverFromIdentityFile(ctx: Ctx, request: AddRequest, entry: WorktreeEntry): Promise<WorktreeRow | undefined> {
  const identity = identityOf(ctx.repo, entry.path, { lockReason: entry.locked ? entry.lockReason : null });
  if (!identity || identity.handle !== request.handle) return undefined;
  return await restoreRow(ctx.registry, identity, entry.path);
}

/** Gives a worktree a new lease (git lock text replaced atomically) and records the event. */
export async function renewLease(ctx: Ctx, row: WorktreeRow, lease: LeaseFields, lockText: string, kind: EventKind): Promise<WorktreeRow> {
  const admin = findAdminDir(ctx.repo.commonDir, row.path);
  if (admin) writeLock(admin, lockText);
  const now = new Date().toISOString();
  const renewed = await ctx.registry.write(async () => {
    const updated = await ctx.registry.worktrees.update(row.id, { ...lease, lifecycle: "active", outcome: null, releasedAt: null, lastActivityAt: now });
    await ctx.registry.events.append({
      kind,
      repo: row.repo,
      handle: row.handle,
      task: row.task,
      owner: lease.owner,
      data: { path: row.path, previousOwner: row.owner },
    });
    return updated;
  });
  recordIdentity(ctx, renewed);
  return renewed;
}

export { newLease };
