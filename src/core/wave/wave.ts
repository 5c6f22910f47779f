// `orchard cleanup-wave --manifest <file>` (SPEC §3.9): merge a wave of agent branches back into
// the target and clean their worktrees, in manifest order, each entry under the mutation lock.
// Invalid input refuses the whole manifest (exit 2) before anything happens; a target that is
// detached or has tracked changes refuses the wave before any entry (exit 3); a blocked entry
// stops the wave (the rest are `pending`) unless --continue-on-block isolates entries. A merge
// an earlier Orchard left in progress when it was killed (MERGE_HEAD = an entry's branch tip,
// MERGE_MSG = the wave's message; this one makes its merge commit before it moves the target, so
// it leaves none) is aborted before anything else. --dry-run judges every entry and changes nothing.
import { realpathSync } from "node:fs";
import { join, resolve } from "node:path";
import { readGitDirs, readWorktrees, resolveCommit } from "../../git/read.js";
import { peekListing } from "../shared/repo/repo.js";
import { abortMerge } from "../../git/write.js";
import { hasMutationWaiters, withMutationLock } from "../ownership/index.js";
import { usageError } from "../shared/errors.js";
import { reason, type Reason } from "../shared/reasons/reasons.js";
import { DEFAULT_BRANCH_PATTERN, readManifestFile, validateManifest, type WaveEntry, type WavePlan } from "./manifest.js";
import { checkTarget, processEntry, RETRY, type EntryOptions, type PendingDelete, type WaveOutcome, type WaveTarget } from "./entry.js";
import { readBatch, type PatchIdCache } from "./batch.js";
import { finishDeletes } from "./deletes.js";
import { GSD_WORDING, mergeSubjects, type Wording } from "./messages.js";
import type { Ctx } from "../shared/context.js";
import { realOrAbsolute } from "../shared/repo/paths.js";
import type { Strategy } from "../shared/input/inputs.js";
import { progressCounter } from "../shared/progress.js";
import { readPlainText } from "../shared/files.js";

export interface WaveOptions {
  /** Path of the manifest file. */
  manifest: string;
  /** A worktree of the repo to merge into (default: the primary). */
  into?: string;
  continueOnBlock?: boolean;
  allowDeletions?: boolean;
  /** Remove worktrees a process works in (the orchestrator knows its executors are done). */
  allowLive?: boolean;
  /** Judge every entry and print the plan; change nothing. */
  dryRun?: boolean;
  /** How each branch lands on the target (default merge: a merge commit, --no-ff). */
  strategy?: Strategy;
}

export interface WaveItem {
  agent_id: string | null;
  worktree_path: string;
  branch: string;
  expected_base: string;
}

/** `next`: the command (or MCP tool call) that moves a blocked or warned entry on, or null (SPEC v4 §2). */
export type WaveResultEntry = WaveItem & WaveOutcome & { next?: string | null };

/**
 * What `cleanupWave` resolves to, discriminated on `ok` (and `result.ok`, `result.reason`): every
 * entry merged, removed or planned; or blocked — an entry blocked (`result.entries`, what is left
 * in `result.pending`), or the target refused before any entry (`reasons`).
 */
export type WaveResult = WaveFields & ({ ok: true; result: WaveRun<true> } | { ok: false; result: WaveRun<false> });

export interface WaveRun<Ok extends boolean> {
  ok: Ok;
  action: "cleanup_wave" | "skip";
  reason: Ok extends true ? "ok" : "cleanup_blocked";
  entries: WaveResultEntry[];
  pending: WaveItem[];
}

export interface WaveFields {
  plan: WavePlan;
  /** Why the wave was refused before any entry (target checks). */
  reasons?: Reason[];
  /** Observations, e.g. an unfinished merge of an earlier run that was aborted. */
  notes?: Reason[];
  dryRun?: true;
  /** How the branches landed (or would land). */
  strategy: Strategy;
}

const item = (e: WaveEntry): WaveItem => ({ agent_id: e.agent_id, worktree_path: e.worktree_path, branch: e.branch, expected_base: e.expected_base });

export async function resolveWaveTarget(ctx: Ctx, into: string | undefined): Promise<{ path: string; branch: string | null }> {
  // which worktree `--into` names (input, not a proof: each entry re-reads at its moment of use): the listing read while resolving the repo
  const entries = peekListing(ctx.repo) ?? (await readWorktrees(ctx.repo.primary));
  if (into === undefined) {
    const main = entries[0];
    if (!main || main.bare) throw usageError("invalid_argument", "the primary is a bare repository; pass --into <worktree path>");
    return { path: main.path, branch: main.branch?.replace(/^refs\/heads\//, "") ?? null };
  }
  let wanted: string;
  try {
    wanted = realpathSync(resolve(into));
  } catch {
    throw usageError("invalid_argument", `--into ${into} does not exist`);
  }
  const entry = entries.find((e) => !e.bare && (e.path === wanted || realOrAbsolute(e.path) === wanted));
  if (!entry) throw usageError("invalid_argument", `--into ${into} is not a worktree of ${ctx.repo.primary}`);
  return { path: entry.path, branch: entry.branch?.replace(/^refs\/heads\//, "") ?? null };
}

export async function cleanupWave(ctx: Ctx, options: WaveOptions): Promise<WaveResult> {
  if (!options.manifest) throw usageError("invalid_argument", "--manifest <file> is required");
  const raw = readManifestFile(resolve(options.manifest));
  const target = await resolveWaveTarget(ctx, options.into);
  return runWave(ctx, raw, target, options, ctx.repo.config.config.wave?.branchPattern ?? DEFAULT_BRANCH_PATTERN);
}

/** A wave of validated entries (`raw`, as a manifest has them) into `target`; `branchPattern` is the allowlist. */
export async function runWave(
  ctx: Ctx,
  raw: unknown[],
  target: { path: string; branch: string | null },
  options: Omit<WaveOptions, "manifest"> & { wording?: Wording; progress?: string },
  branchPattern: string,
): Promise<WaveResult> {
  const waveConfig = ctx.repo.config.config.wave;
  const strategy = options.strategy ?? "merge";
  const entries = await validateManifest(raw, {
    primary: ctx.repo.primary,
    targetPath: realOrAbsolute(target.path),
    targetBranch: target.branch,
    branchPattern,
  });
  const plan: WavePlan = { action: "cleanup_wave", discovery: "manifest", reason: "ok", entries, invalid: [] };
  const pendingAll = entries.map(item);
  if (entries.length === 0)
    return {
      ok: true,
      strategy,
      plan: { ...plan, action: "skip", reason: "empty_manifest" },
      result: { ok: true, action: "skip", reason: "ok", entries: [], pending: [] },
    };
  const dryRun = options.dryRun ?? false;
  const notes: Reason[] = [];
  const own = await ownUnfinishedMerge(ctx, target.path, entries);
  if (own) {
    if (!dryRun)
      await withMutationLock(ctx.repo.commonDir, async () => {
        if (await ownUnfinishedMerge(ctx, target.path, entries)) await abortMerge(target.path);
      });
    notes.push(
      reason(
        "unfinished_merge_aborted",
        { branch: own.branch, mergeHead: own.mergeHead },
        dryRun ? `dry run: would abort the merge of ${own.branch}` : own.branch,
      ),
    );
  }
  const extra = { strategy, ...(notes.length > 0 ? { notes } : {}), ...(dryRun ? { dryRun: true as const } : {}) };
  const problems = own && dryRun ? [] : await checkTarget(target);
  const first = problems[0];
  if (first || target.branch === null) {
    const reasons = problems.map((p) => reason(p.code, { path: target.path }, p.detail));
    return {
      ok: false,
      plan: { ...plan, action: "skip", reason: first?.code ?? "target_detached" },
      result: { ok: false, action: "skip", reason: "cleanup_blocked", entries: [], pending: pendingAll },
      reasons,
      ...extra,
    };
  }
  const waveTarget = { path: target.path, branch: target.branch, gitDir: (await readGitDirs(target.path)).gitDir };
  const entryOptions = {
    allowDeletions: options.allowDeletions ?? waveConfig?.allowDeletions ?? false,
    allowLive: options.allowLive ?? false,
    dryRun,
    strategy,
    wording: options.wording ?? GSD_WORDING,
    ...(dryRun ? { simulated: { tip: null, tree: "" } } : {}),
  };
  const done: WaveResultEntry[] = [];
  const tick = progressCounter(options.progress ?? (dryRun ? "checking the wave" : "merging the wave"), entries.length);
  const stopOnBlock = !options.continueOnBlock && !dryRun;
  if (dryRun)
    for (const entry of entries) {
      done.push({ ...item(entry), ...(await judgeAlone(ctx, waveTarget, entry, entryOptions)) });
      tick({ handle: entry.branch });
    }
  const patchIds: PatchIdCache = new Map();
  let next = 0;
  let stopped = false;
  while (!dryRun && !stopped && next < entries.length)
    await withMutationLock(ctx.repo.commonDir, async () => {
      const run = await runBatch(ctx, waveTarget, entries.slice(next, next + BATCH_SIZE), entryOptions, { patchIds, stopOnBlock, tick });
      done.push(...run.done);
      next += run.done.length;
      stopped = run.stopped;
    });
  const pending = stopped ? entries.slice(next).map(item) : [];
  if (done.some((d) => d.status === "blocked"))
    return { ok: false, plan, result: { ok: false, action: "cleanup_wave", reason: "cleanup_blocked", entries: done, pending }, ...extra };
  return { ok: true, plan, result: { ok: true, action: "cleanup_wave", reason: "ok", entries: done, pending }, ...extra };
}

/** Entries judged together under one hold of the lock (fewer when a command waits for it, or the target moves). */
const BATCH_SIZE = 128;

async function judgeAlone(ctx: Ctx, target: WaveTarget, entry: WaveEntry, options: EntryOptions): Promise<WaveOutcome> {
  const outcome = await processEntry(ctx, target, entry, options);
  if (outcome === RETRY) throw new Error("an entry judged alone cannot be asked to retry"); // only a batch's facts go stale
  return outcome;
}

/**
 * One batch under the lock: its facts read now (batch.ts; the merge strategy only — squash and
 * rebase entries are judged alone), its entries in order until one blocks (unless isolated), the
 * target moves, or another command waits for the lock; then the batch's branch deletes. Returns
 * the entries done (a prefix of `entries`) and whether a block stopped the wave.
 */
async function runBatch(
  ctx: Ctx,
  target: WaveTarget,
  entries: readonly WaveEntry[],
  options: EntryOptions,
  run: { patchIds: PatchIdCache; stopOnBlock: boolean; tick: (at: { handle: string }) => void },
): Promise<{ done: WaveResultEntry[]; stopped: boolean }> {
  const deletes: PendingDelete[] = [];
  const batched = options.strategy === "merge";
  const batch = batched
    ? await readBatch(ctx, `refs/heads/${target.branch}`, entries, { allowDeletions: options.allowDeletions, patchIds: run.patchIds })
    : null;
  const entryOptions: EntryOptions = batched ? { ...options, deletes } : options;
  const done: WaveResultEntry[] = [];
  let stopped = false;
  for (const entry of batched ? entries : entries.slice(0, 1)) {
    let outcome = await processEntry(ctx, target, entry, entryOptions, batch);
    if (outcome === RETRY) outcome = await judgeAlone(ctx, target, entry, entryOptions);
    done.push({ ...item(entry), ...outcome });
    run.tick({ handle: entry.branch });
    if (outcome.status === "blocked" && run.stopOnBlock) {
      stopped = true;
      break;
    }
    if (batch?.stale || hasMutationWaiters(ctx.repo.commonDir)) break;
  }
  const warnings = await finishDeletes(ctx, deletes);
  return { done: done.map((d) => ({ ...d, ...(warnings.get(d.branch) ?? {}) })), stopped };
}

function firstLine(file: string): string | null {
  const text = readPlainText(file, 1024 * 1024); // null: absent (no merge in progress), or not a plain file
  return text === null ? null : (text.split("\n")[0]?.trim() ?? null);
}

/** A merge in progress in the target that an earlier run of this wave started: MERGE_HEAD is an entry's tip, MERGE_MSG the wave's message. */
async function ownUnfinishedMerge(ctx: Ctx, targetPath: string, entries: readonly WaveEntry[]): Promise<{ branch: string; mergeHead: string } | null> {
  const gitDir = (await readGitDirs(targetPath)).gitDir;
  const mergeHead = firstLine(join(gitDir, "MERGE_HEAD"));
  if (!mergeHead) return null;
  const message = firstLine(join(gitDir, "MERGE_MSG"));
  for (const e of entries)
    if (message !== null && mergeSubjects(e.branch, null).includes(message) && (await resolveCommit(ctx.repo.primary, `refs/heads/${e.branch}`)) === mergeHead)
      return { branch: e.branch, mergeHead };
  return null;
}
