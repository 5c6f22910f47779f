// `orchard reap-orphans` (SPEC §3.8): the startup sweep for crashed sessions. Every linked
// worktree with a `locked` file is judged on facts (reap-facts) by a pure verdict (reap-verdict).
// A first pass, without the lock and a few worktrees at a time, keeps the candidates: owner gone
// and branch merged (a dry run also reads the checkout). The candidates are then judged AGAIN,
// each one right before its removal, under one hold of the mutation lock (lock text, owner,
// processes inside, HEAD, dirty re-read now), salvaged if asked, and removed by
// removeLinkedWorktree: renamed into the workspace's trash in one step and git's entry dropped —
// never unlock-then-remove, so there is no moment in which the worktree is unlocked but still
// there. Never a repository-wide `worktree prune`.
import { existsSync } from "node:fs";
import { join } from "node:path";
import { harnessHold, harnessReader, readHarness, type HarnessReader } from "../harness/index.js";
import { readProcessCwds, withMutationLock, type LockOwner } from "../ownership/index.js";
import { readDefaultBranch, targetRefs } from "../shared/repo/repo.js";
import { readCommitRefs, readRefs } from "../../git/read.js";
import { GitError } from "../../git/errors.js";
import { OrchardError } from "../shared/errors.js";
import { parseDuration } from "../shared/input/duration.js";
import { requireDuration, requireOneOf } from "../shared/input/validate.js";
import { mapLimit, STATUS_PARALLELISM } from "../shared/pool.js";
import { progressCounter } from "../shared/progress.js";
import { removeLinkedWorktree } from "../shared/removal/removal.js";
import { salvageWorktree } from "../salvage/index.js";
import {
  readLockFacts,
  readLockedWorktree,
  readLockedWorktrees,
  readReapTargets,
  readText,
  readWorkFacts,
  type LockedWorktree,
  type RefView,
} from "./facts.js";
import { assessOwnerGone, assessWork, isLiveReason, type LockFacts, type MergeMode, type ReapReason, type ReapSkipReason } from "./verdict.js";
import { ownershipOf, recoveredRowOf } from "../workspace/index.js";
import type { WorktreeRow } from "../../registry/index.js";
import type { Ctx } from "../shared/context.js";
import { MERGE_MODES } from "../shared/input/inputs.js";
import { realOrAbsolute } from "../shared/repo/paths.js";
import { describeResumable, readResumable } from "../shared/claude/resumable.js";

import type { ReapEntry, ReapFields, ReapOptions, ReapOwner, ReapResult } from "./types.js";

export const REAP_LOCK_WAIT_MS = 10_000;
const DEFAULT_GUARD_MS = 5 * 60_000;

interface Request {
  guardMs: number;
  salvage: boolean;
  mode: MergeMode;
  dryRun: boolean;
  includeResumable: boolean;
}

function ownerView(owner: LockOwner): ReapOwner | undefined {
  switch (owner.kind) {
    case "unknown":
      return undefined;
    case "pid":
      return { kind: "pid", pid: owner.pid };
    case "claude-code":
      return { kind: "claude-code", pid: owner.pid, name: owner.id, ...(owner.startTime !== undefined && { startTime: owner.startTime }) };
    case "orchard":
      return {
        kind: "orchard",
        name: owner.owner,
        ...(owner.pid !== undefined && { pid: owner.pid }),
        ...(owner.startTime !== undefined && { startTime: owner.startTime }),
        ...(owner.host !== undefined && { host: owner.host }),
      };
    default: {
      const never: never = owner;
      throw new Error(`unhandled lock owner ${JSON.stringify(never)}`);
    }
  }
}

type Judgement = { kind: "skip"; entry: ReapEntry } | { kind: "go"; entry: ReapEntry; reason: ReapReason; salvage: boolean; head: string };

/** What one pass reads once for all its worktrees. */
interface View {
  request: Request;
  defaultRefs: readonly string[];
  refs: RefView;
  /** The registry's current rows by path, read once for the first pass (the second reads each row at use). */
  rows?: ReadonlyMap<string, WorktreeRow>;
  /** Harness marker files read in this pass (core/harness). */
  harness?: HarnessReader;
}

/** Refs and the default branch's targets read now (the second pass reads them again under the lock). */
async function readView(ctx: Ctx, request: Request, defaultRefs: readonly string[]): Promise<View> {
  return { request, defaultRefs, refs: await readCommitRefs(ctx.repo.primary, ["refs/heads", "refs/remotes"]) };
}

/**
 * Steps 1–6 for one worktree: the pure verdicts over freshly read facts. Without `dirty` the
 * checkout is not read and a `go` only says "owner gone and merged": a candidate for the second pass.
 */
async function judge(ctx: Ctx, wt: LockedWorktree, view: View, options: { cwds: Map<number, string> | null; dirty: boolean }): Promise<Judgement> {
  const { request } = view;
  const registered = view.rows ? (view.rows.get(wt.path) ?? null) : await rowAt(ctx, wt.path);
  // another workspace's worktree is never reaped from here, whatever its lease (SPEC v4 §4.11)
  const owned = registered ? null : ownershipOf(ctx.repo, wt.path, { admin: wt.admin, lockReason: wt.lockText });
  // one liveness verdict whatever asks: without its registry row, our worktree's lease is its identity file's, as hygiene and status read it
  const row = registered ?? (owned?.kind === "ours" ? recoveredRowOf(owned.identity, wt.path) : null);
  const lock = await readLockFacts({ wt, row, guardMs: request.guardMs, cwds: options.cwds, now: Date.now() });
  const owner = ownerView(lock.ownerParsed);
  const base = { path: wt.path, branch: branchOf(wt), ...(owner ? { owner } : {}) };
  const gone = owned?.kind === "foreign" ? foreignSkip(owned.workspace, lock) : assessOwnerGone(lock);
  if (gone.kind === "skip") return { kind: "skip", entry: { ...base, status: "skipped", reason: gone.reason, ...detail(gone.detail) } };
  // another harness still tracks it, or cannot be read (SPEC v5 §1): that harness drops it, never the sweep
  const shape = {
    path: wt.path,
    branch: base.branch,
    primary: ctx.repo.primary,
    commonDir: ctx.repo.commonDir,
    admin: wt.admin,
    missing: !existsSync(wt.path),
    managed: row !== null, // Orchard's own (its row, or its identity file): only a harness's marker naming a live session holds it
  };
  const held = harnessHold(readHarness(shape, (view.harness ??= harnessReader(process.env, ctx.repo.workspace.home))));
  if (held) return { kind: "skip", entry: { ...base, status: "skipped", reason: held.code, detail: held.drop } };
  // its Claude Code session can still be resumed: `claude --resume` would go on in this worktree (issue 22 item 4)
  const resumable =
    request.includeResumable || row?.lifecycle !== "active"
      ? null
      : readResumable(row?.owner, { primary: ctx.repo.primary, worktree: wt.path, branch: base.branch, admin: wt.admin, now: Date.now() });
  if (resumable) return { kind: "skip", entry: { ...base, status: "skipped", reason: "session_resumable", detail: describeResumable(resumable) } };
  const targets = await readReapTargets(ctx.repo.primary, view.defaultRefs, row, view.refs);
  const work = await readWorkFacts(ctx, { wt, targets, mode: request.mode, salvage: request.salvage, refs: view.refs, dirty: options.dirty });
  const entry = { ...base, branch: work.branch, ...(work.merged ? { merged: work.merged } : {}) };
  const verdict = options.dirty || work.missing || !work.merged?.how ? assessWork(work, gone.byHeartbeat) : null;
  if (verdict?.kind === "skip") return { kind: "skip", entry: { ...entry, status: "skipped", reason: verdict.reason, ...detail(verdict.detail) } };
  const reason = verdict?.reason ?? (gone.byHeartbeat ? "lease_dead_and_merged" : "pid_dead_and_merged");
  // harness bookkeeping alone (facts/bookkeeping.ts) is reaped with its files saved in the salvage ref, and said so
  const kept = verdict?.bookkeeping ? detail(`harness_bookkeeping: ${verdict.bookkeeping.join(", ")} (saved in the salvage ref)`) : {};
  return { kind: "go", entry: { ...entry, status: "planned", reason, ...kept }, reason, salvage: verdict?.salvage ?? false, head: work.tip as string };
}

const detail = (text: string | undefined): { detail?: string } => (text ? { detail: text } : {});

/** A live holder is still named as live (it is counted apart); anything else of another workspace is `foreign_workspace`. */
function foreignSkip(workspace: string | null, lock: LockFacts): { kind: "skip"; reason: ReapSkipReason; detail?: string } {
  const live = assessOwnerGone(lock);
  if (live.kind === "skip" && isLiveReason(live.reason)) return live;
  return { kind: "skip", reason: "foreign_workspace", detail: `the workspace ${workspace ?? "(made before workspace ids)"} made it` };
}

function branchOf(wt: LockedWorktree): string | null {
  const head = readText(join(wt.admin, "HEAD"))?.trim() ?? "";
  return head.startsWith("ref: refs/heads/") ? head.slice("ref: refs/heads/".length) : null;
}

/** The row of one worktree read now: one indexed query, not every row of the fleet (per item, that grew with N). */
async function rowAt(ctx: Ctx, path: string): Promise<WorktreeRow | null> {
  return (await ctx.registry.worktrees.atPath(ctx.repo.identity, path)) ?? null;
}

/** The current rows by path; the newest row of a path wins, as the first of loadCurrent's newest-first order. */
function rowsByPath(rows: readonly WorktreeRow[]): Map<string, WorktreeRow> {
  const map = new Map<string, WorktreeRow>();
  for (const row of rows) if (!map.has(row.path)) map.set(row.path, row);
  return map;
}

/** The command line alone, checked before the repository's config is read: only it is exit 2 for reap-orphans (SPEC v3 §2). */
export function requireReapCommandLine(options: ReapOptions): void {
  requireDuration(options.guard, "guard", DEFAULT_GUARD_MS);
  requireOneOf(options.merged, MERGE_MODES, "merged", "ancestor");
}

export async function reapOrphans(ctx: Ctx, options: ReapOptions): Promise<ReapResult> {
  const configGuard = ctx.repo.config.config.reap?.guard;
  const request: Request = {
    guardMs: requireDuration(options.guard, "guard", configGuard ? parseDuration(configGuard) : DEFAULT_GUARD_MS),
    salvage: options.salvage ?? false,
    mode: requireOneOf(options.merged, MERGE_MODES, "merged", "ancestor"),
    dryRun: options.dryRun ?? false,
    includeResumable: options.includeResumable ?? false,
  };
  const locked = readLockedWorktrees(ctx.repo.commonDir);
  const result: ReapFields & { ok: true } = {
    ok: true,
    reaped: 0,
    skipped: 0,
    live: 0,
    entries: [],
    ...(request.dryRun ? { dryRun: true as const, planned: 0 } : {}),
  };
  if (locked.length === 0) return result;
  const defaultRefs = await readDefaultRefs(ctx);
  if (defaultRefs === null) return { ...result, ok: false, reason: "default_branch_unknown" };
  const cwds = await readProcessCwds(); // before our own git children start
  const view = { ...(await readView(ctx, request, defaultRefs)), rows: rowsByPath(await ctx.registry.worktrees.current(ctx.repo.identity)) };
  // a dry run reads everything now; a sweep reads the checkouts only of the candidates, under the lock
  const judged = progressCounter("judging locked worktrees", locked.length);
  const first = await mapLimit(locked, STATUS_PARALLELISM, async (wt) => {
    const j = await guarded(wt, () => judge(ctx, wt, view, { cwds, dirty: request.dryRun }));
    judged(wt);
    return j;
  });
  const entries = first.map((j) => j.entry);
  const candidates = request.dryRun ? [] : locked.flatMap((wt, i) => (first[i]?.kind === "go" ? [{ wt, index: i }] : []));
  if (candidates.length > 0) {
    const applied = await applyAll(
      ctx,
      candidates.map((c) => c.wt),
      { request, defaultRefs },
    );
    candidates.forEach((c, i) => (entries[c.index] = applied[i] as ReapEntry));
  }
  for (const entry of entries) {
    result.entries.push(entry);
    if (entry.status === "reaped") result.reaped++;
    else if (entry.status === "skipped" && isLiveReason(entry.reason)) result.live++;
    else if (entry.status === "skipped") result.skipped++;
    else if (result.planned !== undefined) result.planned++;
  }
  return result;
}

/** A git command that fails on one worktree skips it (`fact_unknown`) rather than ending the sweep. */
async function guarded(wt: LockedWorktree, fn: () => Promise<Judgement>): Promise<Judgement> {
  try {
    return await fn();
  } catch (error) {
    if (!(error instanceof GitError)) throw error;
    return { kind: "skip", entry: { path: wt.path, branch: branchOf(wt), status: "skipped", reason: "fact_unknown", detail: messageOf(error) } };
  }
}

/**
 * Step 7 for every candidate under one hold of the mutation lock: the sweep waits at most
 * REAP_LOCK_WAIT_MS for it (a SessionStart hook has 60 s); when it gives up, every candidate is
 * reported busy. Each candidate is re-judged right before its own removal.
 */
async function applyAll(ctx: Ctx, candidates: LockedWorktree[], base: Omit<View, "refs">): Promise<ReapEntry[]> {
  try {
    return await withMutationLock(
      ctx.repo.commonDir,
      async () => {
        const view = await readView(ctx, base.request, base.defaultRefs);
        const reaped = progressCounter("reaping", candidates.length);
        return mapLimit(candidates, STATUS_PARALLELISM, async (first) => {
          try {
            const entry = await applyReap(ctx, first, view);
            reaped(first);
            return entry;
          } catch (error) {
            if (!(error instanceof GitError)) throw error;
            return { path: first.path, branch: branchOf(first), status: "skipped", reason: "fact_unknown", detail: messageOf(error) };
          }
        });
      },
      { timeoutMs: REAP_LOCK_WAIT_MS },
    );
  } catch (error) {
    if (!(error instanceof OrchardError && error.code === "repo_busy")) throw error;
    return candidates.map((wt) => ({ path: wt.path, branch: branchOf(wt), status: "skipped", reason: "repo_busy", detail: error.message }));
  }
}

/** The default branch's refs that exist here; null when the default branch is unknown (§4.4). */
async function readDefaultRefs(ctx: Ctx): Promise<string[] | null> {
  const def = await readDefaultBranch(ctx.repo);
  if (!def) return null;
  const existing = new Set((await readRefs(ctx.repo.primary, [`refs/heads/${def.name}`, `refs/remotes/origin/${def.name}`])).map((r) => r.ref));
  const refs = targetRefs(ctx.repo, def.name, existing);
  return refs.length > 0 ? refs : null;
}

/** Step 7 at the moment of use (the caller holds the mutation lock): re-judge, salvage if asked, remove, record. */
async function applyReap(ctx: Ctx, first: LockedWorktree, view: View): Promise<ReapEntry> {
  const wt = readLockedWorktree(first.admin);
  if (!wt || wt.path !== first.path)
    return {
      path: first.path,
      branch: branchOf(first),
      status: "skipped",
      reason: "precondition_changed",
      detail: "the worktree was unlocked or removed during the sweep",
    };
  // the process scan last before the checkout is read and removed (our own git children do not count)
  const now = await judge(ctx, wt, view, { cwds: await readProcessCwds(), dirty: true });
  if (now.kind === "skip") return now.entry;
  let salvageRef: string | undefined;
  if (now.salvage) {
    try {
      salvageRef = (
        await salvageWorktree(ctx, {
          path: wt.path,
          handle: (await rowAt(ctx, wt.path))?.handle ?? null,
          branch: now.entry.branch,
          head: now.head,
          reason: "reap-orphans",
        })
      ).ref;
    } catch (error) {
      const tooLarge = error instanceof OrchardError && error.code === "salvage_too_large";
      return { ...now.entry, status: "skipped", reason: tooLarge ? "salvage_too_large" : "salvage_failed", detail: messageOf(error) };
    }
  }
  const salvaged = salvageRef ? { salvageRef } : {};
  try {
    await removeLinkedWorktree(ctx, { path: wt.path, admin: wt.admin });
  } catch (error) {
    // git's refusal, the path no longer being that worktree, or an I/O error: the sweep goes on
    return { ...now.entry, ...salvaged, status: "skipped", reason: "remove_failed", detail: messageOf(error) };
  }
  await recordReaped(ctx, { path: wt.path, branch: now.entry.branch, head: now.head, reason: now.reason, lockText: wt.lockText, ...salvaged });
  return { ...now.entry, ...salvaged, status: "reaped" };
}

function messageOf(error: unknown): string {
  return error instanceof GitError ? error.result.stderr.trim() || error.message : error instanceof Error ? error.message : String(error);
}

async function recordReaped(
  ctx: Ctx,
  what: { path: string; branch: string | null; head: string; reason: ReapReason; lockText: string; salvageRef?: string },
): Promise<void> {
  const row = await rowAt(ctx, what.path);
  const now = new Date().toISOString();
  await ctx.registry.write(async () => {
    if (row) await ctx.registry.worktrees.update(row.id, { lifecycle: "removed", lastActivityAt: now });
    await ctx.registry.events.append({
      kind: "reaped",
      repo: ctx.repo.identity,
      handle: row?.handle ?? null,
      task: row?.task ?? null,
      owner: row?.owner ?? null,
      data: {
        path: what.path,
        branch: what.branch,
        head: what.head,
        reason: what.reason,
        lock: what.lockText,
        ...(what.salvageRef ? { salvageRef: what.salvageRef } : {}),
      },
    });
  });
}

/**
 * The whole proof of §3.8 for one locked worktree, read now (steps 1–6, no salvage): for a
 * caller that already holds the mutation lock and removes the worktree itself (`cleanup apply`'s
 * `reap` items of foreign worktrees). `go` names the reap reason; `skip` the step that failed.
 */
export async function proveReapable(
  ctx: Ctx,
  path: string,
  admin?: string,
): Promise<{ go: true; reason: ReapReason } | { go: false; reason: ReapSkipReason | "default_branch_unknown"; detail?: string }> {
  const at = (w: LockedWorktree | null): w is LockedWorktree => w !== null && (w.path === path || realOrAbsolute(w.path) === realOrAbsolute(path));
  // the caller's admin dir (the one it removes), read now; else every locked worktree's, to find the path's
  const named = admin === undefined ? null : readLockedWorktree(admin);
  const wt = at(named) ? named : readLockedWorktrees(ctx.repo.commonDir).find(at);
  if (!wt) return { go: false, reason: "fact_unknown", detail: "git no longer lists a locked worktree at this path" };
  const defaultRefs = await readDefaultRefs(ctx);
  if (defaultRefs === null) return { go: false, reason: "default_branch_unknown" };
  const configGuard = ctx.repo.config.config.reap?.guard;
  const request: Request = {
    guardMs: configGuard ? parseDuration(configGuard) : DEFAULT_GUARD_MS,
    salvage: false,
    mode: "ancestor",
    dryRun: true,
    includeResumable: false,
  };
  const verdict = await judge(ctx, wt, await readView(ctx, request, defaultRefs), { cwds: await readProcessCwds(), dirty: true });
  if (verdict.kind === "go") return { go: true, reason: verdict.reason };
  const { reason, detail: why } = verdict.entry;
  return { go: false, reason: reason as ReapSkipReason, ...(why ? { detail: why } : {}) };
}
