// `orchard add` (SPEC §3.1): validate, adopt the exact handle or say why not, refuse a branch
// checked out elsewhere, look at candidates, then create under the per-repo mutation lock.
// Creation writes the registry row as `creating` first, runs `git worktree add --lock` (no window
// between create and lock), then marks it `active`; a failure rolls back what this call made, and
// a row left `creating` by a crash is repaired by the next add of that handle. The exact handle
// is never handed out with its bootstrap unfinished: a bootstrap another process still runs is
// waited for (outside the lock), one a crash interrupted is re-run.
import { existsSync } from "node:fs";
import { readWorktrees } from "../../git/read.js";
import { dropEarly } from "../../git/run.js";
import type { WorktreeEntry } from "../../git/parse/worktrees.js";
import { branchRefOf, type WorktreeRow } from "../../registry/index.js";
import { managedPath, type Ctx } from "../shared/context.js";
import { handleForBranch } from "../shared/naming/handle.js";
import {
  releaseMutationLockEarly,
  withMutationLock,
  newLease,
  leaseLockText,
  type LeaseFields,
  compareStartTime,
  HOST,
  readAncestors,
  readCallerHolds,
  readPidState,
  readStartTime,
} from "../ownership/index.js";
import { reason, type Reason } from "../shared/reasons/reasons.js";
import { readBranchRefs, resolveBase, resultFor, validateAdd, SKIPPED_BOOTSTRAP, type AddOptions, type AddRequest, type AddResult } from "../shared/request.js";
import { focusRefPatterns, focusedEntry, readOneFacts, registeredAdmin, startDirty } from "../facts/index.js";
import { takeLockedListing } from "../shared/repo/repo.js";
import { removeWorktree } from "../../git/write.js";
import { assessExact } from "./verdict.js";
import { createWorktree, repairCreating, recoverFromIdentityFile, renewLease, withBootstrap } from "./create.js";
import { creationInterrupted, finishCheckout } from "./checkout.js";
import { findAdminDir } from "../shared/repo/admin.js";
import { writeRowIdentity } from "../shared/rows.js";
import { isTrusted, markBootstrapInterrupted, readBootstrapJournal, runBootstrap } from "../bootstrap/index.js";
import { waitForBootstrap, type BootstrapWait } from "./wait.js";
import { findCandidates } from "./candidates.js";
import { applyPolicy } from "./policy.js";
import { diskLow } from "./disk-floor.js";
import { TaskHeld } from "./exclusive.js";
import { settleRecycles } from "../recycle/index.js";
import { branchFromTask } from "./branch-from-task.js";
import { canonicalTask } from "../shared/naming/task.js";
import { requireText } from "../shared/input/validate.js";
import { usageError } from "../shared/errors.js";
import { sweptRootReason } from "../harness/index.js";

export async function add(ctx: Ctx, options: AddOptions): Promise<AddResult> {
  if (options.branch !== undefined) return admit(ctx, { ...options, branch: options.branch });
  // no branch: the task names it (SPEC v4 §3), said in a note
  const taskRaw = requireText(options.task ?? process.env.ORCHARD_TASK, "task");
  if (taskRaw === null) throw usageError("invalid_argument", "add needs a <branch>, or a --task (or ORCHARD_TASK) to derive the branch from");
  const task = canonicalTask(taskRaw, ctx.repo.identity);
  const branch = branchFromTask(task);
  if (!branch) throw usageError("invalid_argument", `no branch name can be made of the task ${JSON.stringify(taskRaw)}: pass a <branch>`);
  const result = await admit(ctx, { ...options, branch });
  return { ...result, notes: [reason("branch_from_task", { task, branch }), ...result.notes] };
}

async function admit(ctx: Ctx, options: AddOptions & { branch: string }): Promise<AddResult> {
  const request = await validateAdd(ctx, options);
  // the listing git made under the lock this call still holds (Orchard.add took it first), if any
  let listed = request.dryRun ? undefined : takeLockedListing(ctx.repo);
  for (;;) {
    const known = listed;
    listed = undefined; // a second decision (after a wait without the lock) lists anew
    const outcome = request.dryRun ? await decide(ctx, request) : await withMutationLock(ctx.repo.commonDir, () => decide(ctx, request, known));
    if (!("waitFor" in outcome)) return outcome;
    releaseMutationLockEarly(ctx.repo.commonDir); // held since the repo was resolved (Orchard.add)
    await waitForBootstrap(ctx, outcome); // without the lock: that bootstrap may need it
  }
}

/**
 * `listed`: the worktree listing read under this hold of the lock, nothing changed since. The
 * handle is decided again here, under the lock: two concurrent adds of branches whose 8-hex
 * handles collide would otherwise both have taken it before either held the lock (§1 v2).
 */
async function decide(ctx: Ctx, asked: AddRequest, listed?: WorktreeEntry[]): Promise<AddResult | BootstrapWait> {
  const handle = asked.dryRun ? asked.handle : await handleForBranch(ctx, asked.branch);
  const request = handle === asked.handle ? asked : { ...asked, handle, path: managedPath(ctx.workspace, handle) };
  try {
    return await decideOn(ctx, request, listed);
  } finally {
    dropEarly(); // refs started for a snapshot that did not come (a path that returned first) are not left for a later call
  }
}

async function decideOn(ctx: Ctx, request: AddRequest, listed?: WorktreeEntry[]): Promise<AddResult | BootstrapWait> {
  // a recycle that died on either side of this handle is undone first (recycle/journal.ts)
  const repaired = request.dryRun
    ? { notes: [], settled: 0 }
    : await settleRecycles(ctx, (j) => j.from.handle === request.handle || j.to.handle === request.handle);
  const notes: Reason[] = repaired.notes;
  if (ctx.settledCreating?.includes(request.handle)) notes.push(reason("creating_repaired")); // dropped when the repo was opened
  let row = await ctx.registry.worktrees.byHandle(request.handle);
  const known = repaired.settled === 0 ? listed : undefined;
  // with no listing in hand, an exact handle's worktree that git registers is decided on git's entry
  // for it alone (focused-entry.ts: its admin files and its status); every other worktree is not read
  const focus = known === undefined && row && row.lifecycle !== "creating" ? registeredAdmin(ctx.repo.commonDir, row.path) : null;
  // an exact handle's checkout is read while git lists the worktrees (used only if it is still there),
  // with what its snapshot reads: the listing (when there is none yet, nor a focused entry) and the refs
  const reads = row
    ? { listing: known === undefined && focus === null, refs: focusRefPatterns(ctx.repo, [branchRefOf(row)], row), commonDir: ctx.repo.commonDir }
    : undefined;
  const early = row && row.lifecycle !== "creating" ? startDirty(ctx.repo, row.path, reads) : null;
  const status = focus !== null && early ? await early.status : null;
  const focused = row && focus !== null && status ? focusedEntry(row.path, focus, status) : null;
  if (row && focused) return exactHandle(ctx, request, row, focused, notes, { focused: true }, early);
  // no row (a new worktree, or a candidate): the refs its decision reads are read beside the listing
  const branchRefs = row ? null : readBranchRefs(ctx, request.branch);
  branchRefs?.catch(() => undefined); // awaited below, unless a refusal answers first
  let entries = known ?? (await readWorktrees(ctx.repo.primary)); // (where no focused entry could be told: listed now)
  if (row?.lifecycle === "creating") {
    if (request.dryRun) return resultFor(request, "planned", { row, notes: [reason("creating_repaired", {}, "an interrupted add would be repaired first")] });
    await repairCreating(ctx, row, entries);
    notes.push(reason("creating_repaired"));
    entries = await readWorktrees(ctx.repo.primary);
    row = await ctx.registry.worktrees.byHandle(request.handle);
  }
  const entry = entries.slice(1).find((e) => e.path === request.path);
  if (!row && entry && !request.dryRun) row = await recoverFromIdentityFile(ctx, request, entry);
  // an adopted worktree keeps its own path (§3.11): git's entry is the row's path, not the handle's
  if (row)
    return exactHandle(ctx, request, row, row.path === request.path ? entry : entries.slice(1).find((e) => e.path === row.path), notes, { entries }, early);
  if (existsSync(request.path))
    return resultFor(request, "refused", {
      reasons: [reason("path_occupied", { path: request.path }, entry ? "registered with git but not with orchard (see `orchard adopt`)" : undefined)],
      notes,
    });
  const holder = entries.find((e) => e.branch === `refs/heads/${request.branch}`);
  if (holder) return resultFor(request, "refused", { reasons: [reason("branch_checked_out", { path: holder.path })], notes });
  // the refs once (one process): the default branch, the base, the requested branch's tip
  const refs = await (branchRefs ?? readBranchRefs(ctx, request.branch));
  const { base, notes: baseNotes } = await resolveBase(ctx, request, refs);
  notes.push(...baseNotes);
  const tip = refs.get(`refs/heads/${request.branch}`)?.commit ?? null;
  const candidates = await findCandidates(ctx, request, base, tip);
  const chosen = await applyPolicy(ctx, request, base, candidates);
  if (chosen) return { ...chosen, notes: [...notes, ...chosen.notes], candidates };
  // never under a root a harness sweeps by count (Cursor's ~/.cursor/worktrees): it would delete ours too
  const swept = sweptRootReason(request.path);
  if (swept) return resultFor(request, "refused", { base, reasons: [swept], candidates, notes });
  const low = await diskLow(ctx); // a new worktree takes disk: not below disk.minFree
  if (low) return resultFor(request, "refused", { base, reasons: [low], candidates, notes });
  if (request.dryRun) return resultFor(request, "planned", { base, candidates, notes });
  try {
    const created = await createWorktree(ctx, request, base, { tip });
    return { ...created, notes: [...notes, ...created.notes], candidates };
  } catch (error) {
    // another process (on this host or another) took the task between the look and the insert
    if (error instanceof TaskHeld) return resultFor(request, "refused", { reasons: error.reasons, candidates, notes });
    throw error;
  }
}

async function exactHandle(
  ctx: Ctx,
  request: AddRequest,
  row: WorktreeRow,
  entry: WorktreeEntry | undefined,
  notes: Reason[],
  listing: { entries: WorktreeEntry[] } | { focused: true },
  early: ReturnType<typeof startDirty> = null,
): Promise<AddResult | BootstrapWait> {
  if (!existsSync(row.path)) {
    if (request.dryRun) return resultFor(request, "planned", { row, notes: [...notes, reason("recreated_missing")] });
    const base = row.baseRef && row.baseCommit ? { ref: row.baseRef, commit: row.baseCommit } : (await resolveBase(ctx, request)).base;
    const created = await createWorktree(ctx, request, base, { replacing: row, staleEntry: entry ?? null });
    return { ...created, notes: [...notes, reason("recreated_missing"), ...created.notes] };
  }
  if (!entry) return resultFor(request, "refused", { row, reasons: [reason("path_occupied", { path: row.path })], notes });
  const admin = findAdminDir(ctx.repo.commonDir, row.path);
  const repaired = [...notes];
  if (admin && creationInterrupted(admin)) {
    // a recreate (its row kept its lifecycle) killed during git's checkout: finish it as a `creating` row is
    const note = reason("creating_repaired", {}, request.dryRun ? "an interrupted add would be repaired first" : undefined);
    if (request.dryRun) return resultFor(request, "planned", { row, notes: [...notes, note] });
    if ((await finishCheckout(row.path, admin)) === "unborn") {
      await removeWorktree(ctx.repo.primary, row.path);
      return exactHandle(ctx, request, row, undefined, [...notes, note], listing);
    }
    writeRowIdentity(admin, row, ctx.workspace.id);
    markBootstrapInterrupted(admin);
    repaired.push(note);
  }
  // a repaired checkout changed under the early read: read it anew
  // the verdict does not look at merged: no merge proof
  const target = "focused" in listing ? { entry, row, focused: true } : { entry, row, listing: listing.entries };
  const { facts } = await readOneFacts(ctx.repo, ctx.registry, target, repaired.length > notes.length ? null : early, { merged: false });
  // the requester's chain of parents matters only to tell it from someone working inside (verdict.ts)
  const inside = facts.liveness.signals.some((s) => s.code === "process_in_worktree");
  const verdict = assessExact(facts, { ...request2exact(request), ancestors: inside ? await readAncestors() : [] }, { strict: false });
  const allNotes = [...repaired, ...verdict.notes];
  // the same owner's name with another pid re-points a live lease: only its holder may (SPEC v5)
  if (verdict.reasons.length === 0 && request.pid !== null && row.pid !== null && request.pid !== row.pid && !(await readCallerHolds(row)))
    verdict.reasons.push(
      reason("live_owner", { owner: row.owner, signals: facts.liveness.signals, holderPid: row.pid }, `the lease is held by pid ${row.pid}`),
    );
  if (verdict.reasons.length > 0) return resultFor(request, "refused", { row, head: facts.head, reasons: verdict.reasons, notes: allNotes });
  if (request.dryRun) return resultFor(request, "planned", { row, head: facts.head, notes: allNotes });
  const journal = admin ? await readBootstrapJournal(admin) : { state: "none" as const };
  if (journal.state === "running" && admin) return { waitFor: admin, pid: journal.pid, host: journal.host };
  const lease = await keepRecordedPid(row, request, await newLease(request));
  const renewed = await renewLease(ctx, row, lease, leaseLockText(row.handle, lease, ctx.workspace.id), "adopted");
  // a bootstrap whose commands were skipped as untrusted is owed: it runs once the repository is trusted
  const owed = journal.state === "untrusted" && request.bootstrap && (await isTrusted(ctx.repo, ctx.registry));
  if (journal.state === "interrupted" || owed) {
    // bootstrapped outside the lock like a new worktree; the journal stays until the fingerprints are recorded
    releaseMutationLockEarly(ctx.repo.commonDir);
    const bootstrap = await runBootstrap(ctx, renewed, { enabled: request.bootstrap, rerun: true });
    const rerun = owed ? [reason("bootstrap_owed")] : request.bootstrap ? [reason("bootstrap_interrupted")] : [];
    return withBootstrap(
      resultFor(request, "adopted", { row: bootstrap.row, head: facts.head, notes: [...allNotes, ...rerun], bootstrap: bootstrap.report }),
      bootstrap,
    );
  }
  // still untrusted: handed out as it is, its bootstrap said skipped (never "reused" or "ran")
  const skipped = journal.state === "untrusted";
  return resultFor(request, "adopted", {
    row: renewed,
    head: facts.head,
    notes: skipped ? [...allNotes, reason("config_untrusted")] : allNotes,
    bootstrap: { ...SKIPPED_BOOTSTRAP, status: skipped ? "skipped" : "reused", fingerprint: renewed.fpBootstrap },
  });
}

export function request2exact(request: AddRequest): { branch: string; task: string | null; baseRef: string | null; owner: string | null; resume: boolean } {
  return { branch: request.branch, task: request.task, baseRef: request.explicitBase, owner: request.owner, resume: request.resume };
}

/**
 * Re-admission by the same owner without `--pid` keeps the recorded pid and start time (§3.2):
 * the agent re-adding its handle is still that process. Kept only while the recorded process is
 * still the one that was recorded (same host, not dead, start time not different); a pid that
 * died or was reused would make the fresh lease look dead, so it is dropped.
 */
export async function keepRecordedPid(row: WorktreeRow, request: AddRequest, lease: LeaseFields): Promise<LeaseFields> {
  if (request.pid !== null || row.pid === null || request.owner === null || request.owner !== row.owner) return lease;
  if (row.host !== null && row.host !== HOST) return lease;
  if ((await readPidState(row.pid)) === "dead") return lease;
  if (row.pidStart !== null) {
    const now = await readStartTime(row.pid);
    if (now !== null && compareStartTime(row.pidStart, now) === "different") return lease;
  }
  return { ...lease, pid: row.pid, pidStart: row.pidStart };
}
