// `orchard adopt <path>` (SPEC §3.11): registers a foreign linked worktree as managed, in place.
// It keeps its path (adopted worktrees are the one kind of managed worktree outside
// <home>/worktrees) and its lock: a harness that locked it keeps its lock. The handle is the one
// its branch would get from `add`; base = merge-base with the default branch. A detached worktree
// (SPEC v5 §3.11: Codex's, Cursor's, OpenCode's adapter's) is adopted with `branch: null`, a handle
// named after its path (handleForDetached) and its HEAD as the base: a commit, so its work is proven
// merged into the default branch, and commits on no ref stay unpushed work. Adopting a worktree
// that is already managed at that path is idempotent (exit 0); asked with an owner or a pid, it
// takes the lease over unless another owner holds it live (readopt.ts).
import { readMergeBase, readWorktrees, resolveCommit } from "../../git/read.js";
import type { WorktreeEntry } from "../../git/parse/worktrees.js";
import type { WorktreeRow } from "../../registry/index.js";
import { findAdminDir } from "../shared/repo/admin.js";
import { writeRowIdentity } from "../shared/rows.js";
import { newRow, ownershipOf } from "../workspace/index.js";
import { canonicalTask } from "../shared/naming/task.js";
import { handleForBranch, handleForDetached } from "../shared/naming/handle.js";
import {
  parseLockOwner,
  NO_LEASE,
  leaseLockText,
  leaseView,
  newLease,
  writeLock,
  DEFAULT_TTL_MS,
  type LeaseFields,
  withMutationLock,
} from "../ownership/index.js";
import { readDefaultBranch } from "../shared/repo/repo.js";
import { requireTtl, requirePid, requireText } from "../shared/input/validate.js";
import { parseDuration } from "../shared/input/duration.js";
import { usageError } from "../shared/errors.js";
import { reason, type Reason } from "../shared/reasons/reasons.js";
import type { Ctx } from "../shared/context.js";
import type { AddFields } from "../shared/request.js";
import { realOrAbsolute } from "../shared/repo/paths.js";
import { readopt } from "./readopt.js";

export interface AdoptOptions {
  path: string;
  task?: string;
  owner?: string;
  pid?: number | string;
  ttl?: string;
}

import { ADOPT_ACTIONS, type AdoptAction } from "../shared/actions.js";
export { ADOPT_ACTIONS, type AdoptAction };

/** The shape of an admission result, without what only `add` knows (candidates, notes, bootstrap). */
export interface AdoptFields extends Pick<AddFields, "path" | "base" | "head" | "task" | "owner" | "lease" | "reasons"> {
  /** The worktree's handle; on a refusal, the one it would have (null: the primary). */
  handle: string | null;
  branch: string | null;
}

/** What `adopt` resolves to, discriminated on `ok` and `action`: managed now (with its handle), or refused. */
export type AdoptResult =
  (AdoptFields & { ok: true; action: Exclude<AdoptAction, "refused">; handle: string }) | (AdoptFields & { ok: false; action: "refused" });

/** The lease the adopted worktree starts with: the requester's (heartbeat now), else its lock's owner with no heartbeat. */
async function leaseFor(entry: WorktreeEntry, requester: { owner: string | null; pid: number | null; ttlMs: number }): Promise<LeaseFields> {
  if (requester.owner !== null || requester.pid !== null) return newLease(requester);
  const lock = entry.locked ? parseLockOwner(entry.lockReason) : { kind: "unknown" as const };
  const none: LeaseFields = { ...NO_LEASE };
  switch (lock.kind) {
    case "unknown":
      return none;
    case "pid":
      return { ...none, pid: lock.pid };
    case "claude-code":
      return { ...none, owner: `claude-code:${lock.id}`, pid: lock.pid, pidStart: lock.startTime ?? null };
    case "orchard":
      return { ...none, owner: lock.owner, pid: lock.pid ?? null, pidStart: lock.startTime ?? null, host: lock.host ?? null };
    default: {
      const never: never = lock;
      throw new Error(`unhandled lock owner ${JSON.stringify(never)}`);
    }
  }
}

async function readBase(ctx: Ctx, head: string | null): Promise<{ ref: string; commit: string } | null> {
  const def = await readDefaultBranch(ctx.repo);
  if (!def || !head) return null;
  for (const ref of [`refs/heads/${def.name}`, `refs/remotes/origin/${def.name}`]) {
    if (!(await resolveCommit(ctx.repo.primary, ref))) continue;
    const commit = await readMergeBase(ctx.repo.primary, ref, head);
    return commit ? { ref, commit } : null;
  }
  return null;
}

export async function adopt(ctx: Ctx, options: AdoptOptions): Promise<AdoptResult> {
  if (!options.path || options.path.startsWith("-")) throw usageError("invalid_argument", `${JSON.stringify(options.path)} is not a path`);
  const taskRaw = requireText(options.task ?? process.env.ORCHARD_TASK, "task");
  const requester = {
    owner: requireText(options.owner ?? process.env.ORCHARD_OWNER, "owner"),
    pid: requirePid(options.pid),
    ttlMs: requireTtl(options.ttl, "ttl", ctx.repo.config.config.lease?.ttl ? parseDuration(ctx.repo.config.config.lease.ttl) : DEFAULT_TTL_MS),
  };
  return withMutationLock(ctx.repo.commonDir, async () => {
    const wanted = realOrAbsolute(options.path);
    const all = await readWorktrees(ctx.repo.primary);
    const index = all.findIndex((e) => e.path === wanted || realOrAbsolute(e.path) === wanted);
    const entry = all[index];
    if (!entry) throw usageError("not_a_worktree", `${options.path} is not a worktree of ${ctx.repo.primary}`);
    const branch = entry.branch?.replace(/^refs\/heads\//, "") ?? null;
    const branchHandle = branch ? await handleForBranch(ctx, branch) : index > 0 ? handleForDetached(ctx.repo.name, entry.path) : null;
    const fields = (row: WorktreeRow | null, reasons: Reason[] = [], base: AdoptFields["base"] = null) => ({
      handle: row?.handle ?? branchHandle,
      path: entry.path,
      branch,
      base: row?.baseRef && row.baseCommit ? { ref: row.baseRef, commit: row.baseCommit } : base,
      head: entry.head,
      task: row?.task ?? null,
      owner: row?.owner ?? null,
      lease: row ? leaseView(row) : null,
      reasons,
    });
    const view = (action: Exclude<AdoptAction, "refused">, row: WorktreeRow): AdoptResult => ({ ok: true, action, ...fields(row), handle: row.handle });
    const existing = (await ctx.registry.worktrees.current(ctx.repo.identity)).find((r) => r.path === entry.path);
    if (existing && requester.owner === null && requester.pid === null) return view("already_managed", existing);
    if (existing) {
      // asked with an owner or a pid: the lease goes to the requester (a harness's session starting again), unless held live
      const taken = await readopt(ctx, { entry, row: existing, listing: all, requester });
      return "row" in taken ? view("adopted", taken.row) : { ok: false, action: "refused", ...fields(existing, taken.reasons) };
    }
    const reasons: Reason[] = [];
    if (index === 0 || entry.bare) reasons.push(reason("not_adoptable", { path: entry.path }, "the primary worktree is never managed"));
    // another workspace's worktree is never adopted from here (SPEC v4 §4.11); its own workspace manages it
    const owned = index === 0 ? null : ownershipOf(ctx.repo, entry.path, { lockReason: entry.locked ? entry.lockReason : null });
    if (owned?.kind === "foreign") reasons.push(reason("foreign_workspace", { workspace: owned.workspace }));
    const taken = branchHandle ? await ctx.registry.worktrees.byHandle(branchHandle) : undefined;
    if (taken) reasons.push(reason("handle_taken", { handle: taken.handle, path: taken.path }));
    if (reasons.length > 0 || branchHandle === null) return { ok: false, action: "refused", ...fields(null, reasons) };
    if (!branch && !entry.head)
      return { ok: false, action: "refused", ...fields(null, [reason("detached", { path: entry.path }, "its HEAD names no commit")]) };
    // detached: the HEAD is the base (a commit ref: the merge target stays the default branch)
    const base = branch ? await readBase(ctx, entry.head) : { ref: entry.head as string, commit: entry.head as string };
    const lease = await leaseFor(entry, requester);
    const row = await insertAdopted(ctx, { entry, handle: branchHandle, branch, base, lease, taskRaw });
    return view("adopted", row);
  });
}

async function insertAdopted(
  ctx: Ctx,
  o: { entry: WorktreeEntry; handle: string; branch: string | null; base: { ref: string; commit: string } | null; lease: LeaseFields; taskRaw: string | null },
): Promise<WorktreeRow> {
  const handle = o.handle;
  const task = o.taskRaw === null ? null : canonicalTask(o.taskRaw, ctx.repo.identity);
  const row = await ctx.registry.write(async () => {
    const inserted = await ctx.registry.worktrees.insert(
      newRow({
        repo: ctx.repo.identity,
        handle,
        path: o.entry.path,
        branch: o.branch,
        baseRef: o.base?.ref ?? null,
        baseCommit: o.base?.commit ?? null,
        task,
        taskRaw: o.taskRaw,
        ...o.lease,
      }),
    );
    await ctx.registry.events.append({
      kind: "adopted",
      repo: inserted.repo,
      handle,
      task,
      owner: inserted.owner,
      data: { path: inserted.path, branch: o.branch, head: o.entry.head, base: o.base, lock: o.entry.locked ? o.entry.lockReason : null, inPlace: true },
    });
    return inserted;
  });
  const admin = findAdminDir(ctx.repo.commonDir, row.path);
  // an unlocked worktree gets Orchard's lock (as `add` gives one); a harness's lock is left as it is
  if (!o.entry.locked && admin) writeLock(admin, leaseLockText(handle, o.lease, ctx.workspace.id));
  if (admin) writeRowIdentity(admin, row, ctx.workspace.id);
  return row;
}
