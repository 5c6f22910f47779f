// Facts the orphan sweep decides on, read from the common dir's admin dirs (not from the cwd's
// worktree, so the sweep sees the same thing from any worktree of the repo).
import { existsSync, readdirSync } from "node:fs";
import { decodeGitBytes } from "../../git/bytes.js";
import { readPlainFile } from "../shared/files.js";
import { join } from "node:path";
import { isAncestor, readReflogOnly, resolveCommit } from "../../git/read.js";
import type { WorktreeRow } from "../../registry/index.js";
import { readAdminWorktreePath, readLockMtime } from "../shared/repo/admin.js";
import { parseLockOwner, type LockOwner } from "../ownership/index.js";
import { baseBranchName, chooseMergeTargets, readDirtyState, readLiveness, proveMerged, type MergeTarget } from "../facts/index.js";
import type { RepoContext } from "../shared/repo/repo.js";
import type { LockFacts, MergeMode, WorkFacts } from "./verdict.js";
import type { Ctx } from "../shared/context.js";
import { realOrAbsolute } from "../shared/repo/paths.js";
import { whyNotLinkedWorktree } from "../shared/repo/linked.js";

/** Commits of the refs under refs/heads and refs/remotes, read once for a batch (readCommitRefs). */
export type RefView = ReadonlyMap<string, string>;

/** A ref's commit from the batch's view; refs outside it (or a raw object name) ask git. */
async function commitOf(cwd: string, ref: string, refs: RefView): Promise<string | null> {
  return refs.get(ref) ?? (ref.startsWith("refs/heads/") || ref.startsWith("refs/remotes/") ? null : resolveCommit(cwd, ref));
}

export interface LockedWorktree {
  /** The worktree path the admin dir's `gitdir` records (a relative record resolved against the admin dir). */
  path: string;
  admin: string;
  lockText: string;
}

/** Every linked worktree whose admin dir holds a `locked` file, in admin-id order. */
export function readLockedWorktrees(commonDir: string): LockedWorktree[] {
  const root = join(commonDir, "worktrees");
  let ids: string[];
  try {
    ids = readdirSync(root).sort();
  } catch {
    return []; // no linked worktrees
  }
  return ids.map((id) => readLockedWorktree(join(root, id))).filter((wt): wt is LockedWorktree => wt !== null);
}

/** One admin dir's locked worktree as it is now; null when it is not locked (or has no `gitdir`). */
export function readLockedWorktree(admin: string): LockedWorktree | null {
  const lockText = readText(join(admin, "locked"));
  const path = readAdminWorktreePath(admin);
  // no gitdir: a half-created or broken entry git itself lists as prunable; not addressable by path
  return lockText !== null && path !== null ? { path, admin, lockText } : null;
}

/** A small admin file's text; null when absent or anything but a plain file (a FIFO planted there never hangs the sweep). */
export function readText(path: string): string | null {
  const bytes = readPlainFile(path);
  return bytes === null ? null : decodeGitBytes(bytes); // a branch name in HEAD may hold bytes that are not UTF-8 (git/bytes.ts)
}

export async function readLockFacts(options: {
  wt: LockedWorktree;
  row: WorktreeRow | null;
  guardMs: number;
  cwds: Map<number, string> | null;
  now: number;
}): Promise<LockFacts & { ownerParsed: LockOwner }> {
  const { wt, row } = options;
  const mtime = readLockMtime(wt.admin);
  const owner = parseLockOwner(wt.lockText);
  let orchardLease: LockFacts["orchardLease"] = "present";
  if (owner.kind === "orchard") {
    const named = row ? row.owner !== null || row.pid !== null : owner.owner !== null || owner.pid !== undefined;
    orchardLease = !named ? "absent" : row ? "present" : "unknown";
  }
  const liveness = await readLiveness({ row, lockReason: wt.lockText, path: realOrAbsolute(wt.path), cwds: options.cwds, now: options.now });
  return { lockAgeMs: mtime === null ? null : options.now - mtime, guardMs: options.guardMs, owner, ownerParsed: owner, orchardLease, liveness };
}

/** The commit the admin dir's HEAD names: `ref: <ref>` resolved, or a 40/64-hex object name. */
export async function readAdminTip(cwd: string, admin: string, refs: RefView): Promise<{ tip: string | null; branch: string | null }> {
  const text = readText(join(admin, "HEAD"))?.trim() ?? null;
  if (text === null) return { tip: null, branch: null };
  if (text.startsWith("ref: ")) {
    const ref = text.slice(5).trim();
    const branch = ref.startsWith("refs/heads/") ? ref.slice("refs/heads/".length) : null;
    return { tip: ref.startsWith("refs/") ? await commitOf(cwd, ref, refs) : null, branch };
  }
  if (/^(?:[0-9a-f]{40}|[0-9a-f]{64})$/.test(text)) return { tip: await resolveCommit(cwd, text), branch: null };
  return { tip: null, branch: null };
}

async function readMergedInto(cwd: string, tip: string, targets: readonly MergeTarget[], mode: MergeMode): Promise<NonNullable<WorkFacts["merged"]>> {
  if (mode === "equivalent") return proveMerged(cwd, tip, targets);
  for (const t of targets) if (t.oid === tip) return { target: t.ref, how: "same_commit" };
  for (const t of targets) if (await isAncestor(cwd, tip, t.oid)) return { target: t.ref, how: "ancestor" };
  return { target: targets[0]?.ref ?? null, how: null };
}

/**
 * Status of a checkout, only when its `.git` really leads to `admin` (else git would answer for
 * another repo): changes, the operation in progress, and unique ignored files (§4.7).
 */
export async function readCheckoutDirty(repo: RepoContext, path: string, admin: string): Promise<NonNullable<WorkFacts["dirty"]>> {
  try {
    if (whyNotLinkedWorktree(path, admin) !== null) return "unknown";
    const { dirty } = await readDirtyState(repo, path, admin);
    return {
      changes: dirty.tracked + dirty.untracked + dirty.conflicted,
      operation: dirty.operation,
      ignored: dirty.ignored,
      nested: dirty.nested ?? [],
      ...(dirty.bookkeeping ? { bookkeeping: dirty.bookkeeping } : {}),
    };
  } catch {
    return "unknown"; // status or the ignored-file scan failed: the verdict treats unknown as not safe
  }
}

export async function readWorkFacts(
  ctx: Ctx,
  options: { wt: LockedWorktree; targets: MergeTarget[]; mode: MergeMode; salvage: boolean; refs: RefView; dirty: boolean },
): Promise<WorkFacts & { branch: string | null }> {
  const cwd = ctx.repo.primary;
  const { tip, branch } = await readAdminTip(cwd, options.wt.admin, options.refs);
  const missing = !existsSync(options.wt.path);
  const facts: WorkFacts & { branch: string | null } = { tip, branch, missing, salvage: options.salvage };
  if (tip === null) return facts;
  facts.merged = await readMergedInto(cwd, tip, options.targets, options.mode);
  if (facts.merged.how !== null && !missing && options.dirty) facts.dirty = await readCheckoutDirty(ctx.repo, options.wt.path, options.wt.admin);
  if (facts.merged.how !== null && !missing && branch === null) {
    const only = await readReflogOnly(cwd, options.wt.admin, tip);
    if (only === null || only.count > 0) facts.reflogOnly = only && only.count;
  }
  return facts;
}

/**
 * The refs a reaped branch must be merged into (SPEC v4 §3.8, facts/merge-target.ts): the lease's
 * recorded base when that base is a branch that still exists, else the default branch's refs — the
 * target status, hygiene and cleanup prove against too.
 */
export async function readReapTargets(cwd: string, defaultRefs: readonly string[], row: WorktreeRow | null, refs: RefView): Promise<MergeTarget[]> {
  const query = {
    baseRef: row?.baseRef ?? null,
    branch: row?.branch ?? null,
    defaultBranch: baseBranchName(defaultRefs[0]),
    defaultRefs,
    remotes: ["origin"], // origin's copy counts when it exists (chooseMergeTargets keeps only refs that do)
  };
  const targets: MergeTarget[] = [];
  for (const ref of chooseMergeTargets(query, (r) => refs.has(r))) {
    const oid = await commitOf(cwd, ref, refs);
    if (oid) targets.push({ ref, oid });
  }
  return targets;
}
