// One plan item, at the moment of use: re-check every precondition (under the repo's mutation
// lock, with facts read now), then act. Drift → `skipped` with one `precondition_changed` reason
// per changed fact; nothing is touched. An item found `applying` after a crash is re-checked the
// same way, except that a removal already under way (phase `acting`) may have deleted tracked
// files: finishing it loses nothing the plan had not checked, so deletions-only dirt is accepted
// and a salvage is simply taken again.
import { existsSync, lstatSync, realpathSync } from "node:fs";
import { join } from "node:path";
import { countNotOnRemotes, resolveCommit } from "../../git/read.js";
import { deleteRef } from "../../git/write.js";
import { removeLinkedWorktree } from "../shared/removal/removal.js";
import { findAdminDir, readAdminWorktreePath } from "../shared/repo/admin.js";
import { readDirtyState, readLiveness, proveMerged, dirtyDigest, onlyDeletions, readMergeTargets, treeDigest, type MergeTarget } from "../facts/index.js";
import { processesInside, readProcessCwds, unseenProcesses } from "../ownership/index.js";
import { salvageWorktree } from "../salvage/index.js";
import { readGitPointer, readHuskFacts, type KnownRepo } from "../hygiene/index.js";
import { huskContainment, removeHusk, salvageHusk } from "./husk.js";
import { reason, type Reason } from "../shared/reasons/reasons.js";
import type { PreconditionValue, ReasonDetails } from "../shared/reasons/reason-details.js";
import type { Ctx } from "../shared/context.js";
import type { PlanItemRow } from "../../registry/index.js";
import type { Preconditions } from "./plan.js";
import { realOrAbsolute } from "../shared/repo/paths.js";
import { whyNotLinkedWorktree } from "../shared/repo/linked.js";
import { readPlainText } from "../shared/files.js";
import { harnessHoldAt } from "../harness/index.js";

/** What was read once per batch, under the lock. */
export interface BatchView {
  ctx: Ctx;
  /** Distinct targets of the default branch; null when it is unknown. */
  targets: MergeTarget[] | null;
  /** The default branch's name; null when it is unknown. */
  defaultBranch: string | null;
  checkedOut: Set<string>;
  merged: Set<string>;
  repos: KnownRepo[];
}

export interface ItemEnv {
  recovering: boolean;
  phase: string | null;
  salvageRef: string | null;
  /** Records progress inside the item (committed before the next step acts). */
  note: (progress: { phase: string; salvageRef?: string | null }) => Promise<void>;
}

export interface Outcome {
  state: "done" | "skipped";
  reasons: Reason[];
  salvageRef?: string;
  /** The managed row of this path is retired (lifecycle `removed`). */
  retire: boolean;
}

const done = (reasons: Reason[], extra: Partial<Outcome> = {}): Outcome => ({ state: "done", reasons, retire: true, ...extra });
const skip = (reasons: Reason[]): Outcome => ({ state: "skipped", reasons, retire: false });
const changed = (
  field: string,
  planned: PreconditionValue,
  now: PreconditionValue,
  extra: Omit<ReasonDetails["precondition_changed"], "field" | "planned" | "now"> = {},
): Reason => reason("precondition_changed", { field, planned, now, ...extra }, field);

/** The admin dir that names `path` now (one file read at the moment of use, not every admin dir of the fleet). */
function registeredAdmin(b: BatchView, path: string): string | null {
  const admin = findAdminDir(b.ctx.repo.commonDir, path);
  if (!admin) return null;
  const recorded = readAdminWorktreePath(admin); // null: the admin dir is gone, no longer registered
  return recorded !== null && realOrAbsolute(recorded) === realOrAbsolute(path) ? admin : null;
}

function readLockText(admin: string): string | null {
  return readPlainText(join(admin, "locked"))?.trim() ?? null; // null: not locked, or not a plain file (unvetted)
}

async function stillPreserved(b: BatchView, item: PlanItemRow, head: string, requireMerged: boolean): Promise<boolean> {
  const pre = item.preconditions as unknown as Preconditions;
  if (pre.proof === "pushed" && !requireMerged) return b.ctx.repo.remotes.length > 0 && (await countNotOnRemotes(b.ctx.repo.primary, head)) === 0;
  if (!b.targets || b.targets.length === 0) return false;
  return (await proveMerged(b.ctx.repo.primary, head, await itemTargets(b, item, b.targets))).how !== null;
}

/**
 * The item's merge target read now (SPEC v4 §3.8): the target it was planned against (else, for a
 * plan stored before targets were recorded, its row's base) while that branch exists, else the default branch.
 */
export async function itemTargets(b: Pick<BatchView, "ctx" | "defaultBranch">, item: PlanItemRow, defaults: MergeTarget[]): Promise<MergeTarget[]> {
  const pre = item.preconditions as unknown as Preconditions;
  const row = pre.target || !item.handle ? undefined : await b.ctx.registry.worktrees.byHandle(item.handle);
  const baseRef = pre.target ?? (row?.path === item.path ? row.baseRef : null);
  const query = { baseRef, branch: pre.branch, defaultBranch: b.defaultBranch, defaultRefs: defaults.map((t) => t.ref), remotes: b.ctx.repo.remotes };
  return readMergeTargets(b.ctx.repo.primary, query, defaults);
}

async function livenessDrift(b: BatchView, item: PlanItemRow, lockReason: string | null, wantDead: boolean): Promise<Reason[]> {
  const row = item.handle ? await b.ctx.registry.worktrees.byHandle(item.handle) : undefined;
  const liveness = await readLiveness({
    row: row?.path === item.path ? row : null,
    lockReason,
    path: item.path,
    cwds: await readProcessCwds(),
    now: Date.now(),
  });
  if (liveness.state === "live" || liveness.state === "unknown")
    return [changed("liveness", wantDead ? "dead" : "not live", liveness.state, { signals: liveness.signals })];
  if (wantDead && liveness.state !== "dead") return [changed("liveness", "dead", liveness.state, { signals: liveness.signals })];
  return [];
}

async function lifecycleDrift(b: BatchView, item: PlanItemRow, pre: Preconditions): Promise<Reason[]> {
  const row = item.handle ? await b.ctx.registry.worktrees.byHandle(item.handle) : undefined;
  const now = row && row.path === item.path ? row.lifecycle : null;
  return now === pre.lifecycle ? [] : [changed("lifecycle", pre.lifecycle, now)];
}

/**
 * removeLinkedWorktree (into the trash, git's entry dropped; in place by git on another file
 * system); when it fails but the worktree is gone anyway (a git child of a killed apply finishing
 * the same removal), the goal is reached.
 */
async function removeOrFindGone(b: BatchView, path: string, admin: string): Promise<void> {
  try {
    await removeLinkedWorktree(b.ctx, { path, admin });
  } catch (error) {
    if (existsSync(path) || findAdminDir(b.ctx.repo.commonDir, path) !== undefined) throw error;
  }
}

/** remove, reap, salvage_remove of a listed worktree. */
async function actOnWorktree(b: BatchView, item: PlanItemRow, env: ItemEnv): Promise<Outcome> {
  const pre = item.preconditions as unknown as Preconditions;
  const acting = env.recovering && env.phase === "acting";
  const admin = registeredAdmin(b, item.path);
  const exists = existsSync(item.path);
  if (!admin) return exists ? skip([changed("registered", true, false)]) : done([reason("already_done")]);
  if (!exists) {
    if (!acting) return skip([changed("directory", "present", "missing")]);
    await removeOrFindGone(b, item.path, admin);
    return done([reason("removal_interrupted")]);
  }
  // before any git reads it or salvage saves it: a `.git` that names the primary's git dir (or any
  // other) would make them read that repository's index and status, and save it as this worktree's
  const notLinked = whyNotLinkedWorktree(item.path, admin);
  if (notLinked !== null) return skip([reason("not_a_linked_worktree", { path: item.path }, notLinked)]);
  // a harness that took the worktree since the plan (its marker written now) drops it, never Orchard (SPEC v5 §1 harness)
  const held = acting ? null : await harnessHoldAt(b.ctx, item.path, admin);
  if (held) return skip([held]);
  const lock = readLockText(admin);
  const drift = [...(await lifecycleDrift(b, item, pre)), ...(lock === pre.lockReason ? [] : [changed("lockReason", pre.lockReason, lock)])];
  drift.push(...(await livenessDrift(b, item, lock, item.action === "reap")));
  const { status, operation, ignored } = await readDirtyState(b.ctx.repo, item.path, admin);
  if (status.oid !== pre.head) drift.push(changed("head", pre.head, status.oid));
  const digest = dirtyDigest(item.path, status, operation, ignored);
  const dirtyOk = digest === pre.dirtyDigest || (acting && (item.action === "salvage_remove" || (onlyDeletions(status) && ignored.length === 0)));
  if (!dirtyOk) drift.push(changed("dirtyDigest", pre.dirtyDigest, digest));
  if (drift.length === 0 && item.action !== "salvage_remove" && status.oid && !(await stillPreserved(b, item, status.oid, item.action === "reap")))
    drift.push(changed(item.action === "reap" ? "merged" : "workPreserved", true, false));
  if (drift.length > 0) return skip(drift);
  if (item.action === "reap" && item.handle === null && !acting) {
    // a foreign worktree: the whole proof of the orphan sweep (§3.8), read now
    const { proveReapable } = await import("../reap/index.js"); // loaded for a foreign worktree's reap only, not by every remove
    const proof = await proveReapable(b.ctx, item.path, admin);
    if (!proof.go) return skip([reason(proof.reason, { reapProof: false }, proof.detail)]);
  }
  let salvageRef = env.salvageRef;
  if (item.action === "salvage_remove" && (acting || !salvageRef)) {
    salvageRef = (await salvageWorktree(b.ctx, { path: item.path, handle: item.handle, branch: pre.branch, head: status.oid, reason: "cleanup" })).ref;
    await env.note({ phase: "salvaged", salvageRef });
  }
  await env.note({ phase: "acting", salvageRef });
  await removeOrFindGone(b, item.path, admin);
  const reasons = acting ? [reason("removal_interrupted")] : [];
  return salvageRef ? done(reasons, { salvageRef }) : done(reasons);
}

async function prune(b: BatchView, item: PlanItemRow): Promise<Outcome> {
  const pre = item.preconditions as unknown as Preconditions;
  if (existsSync(item.path)) return skip([changed("directory", "missing", "present")]);
  const drift = await lifecycleDrift(b, item, pre);
  const admin = registeredAdmin(b, item.path);
  const held = admin ? await harnessHoldAt(b.ctx, item.path, admin) : null; // a harness's marker written since the plan: its to drop
  if (held) return skip([held]);
  const lock = admin ? readLockText(admin) : null;
  if (admin && lock !== pre.lockReason) drift.push(changed("lockReason", pre.lockReason, lock));
  drift.push(...(await livenessDrift(b, item, lock, false)));
  if (drift.length > 0) return skip(drift);
  if (admin) await removeLinkedWorktree(b.ctx, { path: item.path, admin, entryOnly: true }); // exactly this registration, never a repo-wide prune
  return done(admin ? [] : [reason("already_done")]);
}

/** The full ref a delete_branch item names. */
export const branchRef = (item: PlanItemRow): string => `refs/heads/${(item.preconditions as unknown as Preconditions).branch ?? ""}`;

async function deleteBranch(b: BatchView, item: PlanItemRow): Promise<Outcome> {
  const pre = item.preconditions as unknown as Preconditions;
  const ref = branchRef(item);
  const { primary } = b.ctx.repo;
  if (!pre.branch || !pre.head) return skip([changed("branch", pre.branch, null)]);
  if (b.checkedOut.has(ref)) return skip([reason("branch_checked_out", { branch: pre.branch })]);
  if (!b.merged.has(ref)) {
    const now = await resolveCommit(primary, ref);
    return now === null ? done([reason("already_done")], { retire: false }) : skip([changed("merged", true, false, { head: now })]);
  }
  if (await deleteRef(primary, ref, pre.head)) return done([], { retire: false });
  const now = await resolveCommit(primary, ref);
  if (now === null) return done([reason("already_done")], { retire: false });
  if (now === pre.head) throw new Error(`git update-ref -d ${ref} failed while it still pointed at ${now} (a ref lock held elsewhere?)`);
  return skip([changed("head", pre.head, now)]);
}

/** remove or salvage_remove of a husk directory under the managed root. */
async function actOnHusk(b: BatchView, item: PlanItemRow, env: ItemEnv): Promise<Outcome> {
  const pre = item.preconditions as unknown as Preconditions;
  const root = b.ctx.workspace.root;
  if (!lstatSync(item.path, { throwIfNoEntry: false })) return done([reason("already_done")]);
  const refused = huskContainment(root, item.path);
  if (refused) return skip([changed("directory", "a directory under the managed root", refused)]);
  if (readGitPointer(item.path)?.registered) return skip([changed("registered", false, true)]);
  const cwds = await readProcessCwds();
  const inside = cwds === null || unseenProcesses(cwds) > 0 ? null : processesInside(cwds, realpathSync(item.path));
  if (inside === null || inside.length > 0) return skip([changed("liveness", "none", inside === null ? "unknown" : "live", { pids: inside })]);
  const acting = env.recovering && env.phase === "acting";
  if (!acting) {
    const digest = treeDigest(item.path);
    if (digest !== pre.dirtyDigest) return skip([changed("dirtyDigest", pre.dirtyDigest, digest)]);
  } else if (item.action === "remove") {
    const facts = await readHuskFacts(item.path, b.repos);
    if (!facts || !(facts.empty || (facts.salvageable === 0 && facts.uniqueIgnored === 0)))
      return skip([changed("dirtyDigest", pre.dirtyDigest, "files appeared")]);
  }
  let salvageRef = env.salvageRef;
  if (item.action === "salvage_remove" && (acting || !salvageRef)) {
    salvageRef = (await salvageHusk(b.ctx, item.path, "cleanup")).ref;
    await env.note({ phase: "salvaged", salvageRef });
  }
  await env.note({ phase: "acting", salvageRef });
  removeHusk(root, item.path);
  return salvageRef ? done([], { salvageRef }) : done([]);
}

export async function applyItem(b: BatchView, item: PlanItemRow, env: ItemEnv): Promise<Outcome> {
  const husk = (item.preconditions as unknown as Preconditions).husk;
  switch (item.action) {
    case "remove":
    case "salvage_remove":
      return husk ? actOnHusk(b, item, env) : actOnWorktree(b, item, env);
    case "reap":
      return actOnWorktree(b, item, env);
    case "prune":
      return prune(b, item);
    case "delete_branch":
      return deleteBranch(b, item);
    default:
      throw new Error(`unknown plan action ${item.action}`);
  }
}
