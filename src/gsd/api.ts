// GSD's functions that read git or change worktrees, each a synchronous call into Orchard's
// worker (bridge.ts), as GSD's own are synchronous. GSD's `deps` seams (execGit, isPidAlive, readFileSafe, …) are accepted and not
// used: the facts are read for real. Its data options are kept (options.staleAfterMs, nowMs,
// deps.reapMtimeGuardMs). Where Orchard keeps what GSD would remove, the result says so in GSD's
// shape (`skipped`, `blocked`) with Orchard's reason; a refusal is never an exception.
import { existsSync } from "node:fs";
import { join } from "node:path";
import { callSync } from "./bridge.js";
import { contextHere, findingsOf, inventoryHere, linkedPathsHere, type InventoryOptions } from "./fast.js";
import type { ReapRequest } from "./reap.js";
import type {
  Answer,
  Health,
  Inventory,
  LinkedPaths,
  ListFailure,
  OrchardErrorView,
  PrunePlan,
  PruneResult,
  ReapResultEntry,
  WavePlan,
  WaveRunResult,
  WorktreeContext,
} from "./types.js";

/** GSD's reason for a failed listing, from Orchard's error. */
function listFailure(error: OrchardErrorView): ListFailure {
  if (error.code === "not_a_repository") return "not_a_git_repo";
  if (error.code === "timed_out") return "git_timed_out";
  return error.code === "git_failed" ? "git_list_failed" : "orchard_error";
}

function listed<T extends { ok: boolean; reason: string }>(answer: Answer<T>, empty: Omit<T, "ok" | "reason">): T {
  if (answer.ok) return answer.value;
  return { ok: false, reason: listFailure(answer.error), ...empty, error: answer.error } as unknown as T;
}

export function resolveWorktreeContext(cwd: string, deps: { existsSync?: (path: string) => boolean } = {}): WorktreeContext {
  // a local .planning wins, as in GSD (its existsSync seam is honoured: it reads no git)
  if ((deps.existsSync ?? existsSync)(join(cwd, ".planning"))) return { effectiveRoot: cwd, mode: "current_directory", reason: "has_local_planning" };
  const here = contextHere(cwd); // one rev-parse on this thread, as GSD's; else the worker
  if (here) return here;
  const answer = callSync<WorktreeContext>("worktreeContext", [cwd]);
  return answer.ok ? answer.value : { effectiveRoot: cwd, mode: "current_directory", reason: "not_git_repo" };
}

export function listLinkedWorktreePaths(repoRoot: string, _deps: unknown = {}): LinkedPaths {
  const paths = linkedPathsHere(repoRoot); // one listing on this thread, as GSD's; else the worker
  if (paths) return { ok: true, reason: "ok", paths };
  return listed(callSync<LinkedPaths>("linkedPaths", [repoRoot]), { paths: [] });
}

const inventoryOptions = (o: InventoryOptions = {}): InventoryOptions => ({
  ...(o.staleAfterMs === undefined ? {} : { staleAfterMs: o.staleAfterMs }),
  ...(o.nowMs === undefined ? {} : { nowMs: o.nowMs }),
  ...(o.assess ? { assess: true } : {}),
});

export function snapshotWorktreeInventory(repoRoot: string, options: InventoryOptions = {}, _deps: unknown = {}): Inventory {
  const entries = inventoryHere(repoRoot, options); // the listing and a stat each, on this thread; else the worker
  if (entries) return { ok: true, reason: "ok", entries };
  return listed(callSync<Inventory>("inventory", [repoRoot, inventoryOptions(options)]), { entries: [] });
}

export function inspectWorktreeHealth(repoRoot: string, options: InventoryOptions = {}, _deps: unknown = {}): Health {
  const entries = inventoryHere(repoRoot, options);
  if (entries) return { ok: true, reason: "ok", findings: findingsOf(entries) };
  return listed(callSync<Health>("health", [repoRoot, inventoryOptions(options)]), { findings: [] });
}

export function planWorktreePrune(repoRoot: string, options: { allowDestructive?: unknown } = {}, _deps: unknown = {}): PrunePlan {
  const answer = callSync<PrunePlan>("prunePlan", [repoRoot, { allowDestructive: Boolean(options.allowDestructive) }]);
  if (answer.ok) return answer.value;
  const reason = listFailure(answer.error);
  return { repoRoot, action: "skip", reason, destructiveModeRequested: Boolean(options.allowDestructive), error: answer.error };
}

export function executeWorktreePrunePlan(plan: PrunePlan | null | undefined, _deps: unknown = {}): PruneResult {
  if (!plan || plan.action === "skip") return { ok: false, action: plan ? plan.action : "skip", reason: plan ? plan.reason : "missing_plan", pruned: [] };
  if (plan.action !== "metadata_prune_only") return { ok: false, action: plan.action, reason: "unsupported_action", pruned: [] };
  const answer = callSync<PruneResult>("runPrune", [plan]);
  if (answer.ok) return answer.value;
  const timedOut = answer.error.code === "timed_out";
  return { ok: false, action: plan.action, reason: timedOut ? "git_timed_out" : listFailure(answer.error), timedOut, pruned: [], error: answer.error };
}

export function executeWorktreeWaveCleanupPlan(plan: WavePlan | null | undefined, _deps: unknown = {}): WaveRunResult {
  const entries = Array.isArray(plan?.entries) ? plan.entries : [];
  if (!plan || plan.action !== "cleanup_wave" || entries.length === 0)
    return {
      ok: false,
      action: plan ? plan.action : "skip",
      reason: plan ? plan.reason || "missing_entries" : "missing_plan",
      entries: [],
      pending: entries,
      ...(plan?.invalid ? { invalid: plan.invalid } : {}),
    };
  const answer = callSync<WaveRunResult>("runWave", [plan]);
  if (answer.ok) return answer.value;
  const refused = (answer.error.details as { plan?: { invalid?: WaveRunResult["invalid"] } } | undefined)?.plan?.invalid;
  if (answer.error.code === "invalid_manifest")
    return { ok: false, action: "skip", reason: "invalid_manifest", entries: [], pending: entries, invalid: refused ?? [], error: answer.error };
  return { ok: false, action: plan.action, reason: "cleanup_blocked", entries: [], pending: entries, error: answer.error };
}

/** GSD's deps of the reaper: only its data option is used (the rest are seams for fakes). */
export interface ReapDeps {
  reapMtimeGuardMs?: number;
  /** Orchard: save dirty work to a salvage ref, then reap it (GSD would remove it unsaved). */
  salvage?: boolean;
}

/**
 * Orchard itself cannot work (its registry cannot open: no SQLite driver, a bad ORCHARD_SQLITE_DRIVER, an
 * unreachable PostgreSQL; its worker did not start): thrown, so no caller reads "nothing to reap" into it.
 */
export class OrchardUnavailable extends Error {
  readonly code: string;
  constructor(readonly error: OrchardErrorView) {
    super(`Orchard cannot run: ${error.message}`);
    this.name = "OrchardUnavailable";
    this.code = error.code;
  }
}

const unavailable = (error: OrchardErrorView): boolean => error.code.startsWith("registry_") || error.code === "worker_failed";

/** A repository Orchard cannot read gives [] (as GSD's does), with the error on stderr under DEBUG; Orchard unable to run throws OrchardUnavailable. */
export function reapOrphanWorktrees(repoRoot: string, deps: ReapDeps = {}): ReapResultEntry[] {
  const request: ReapRequest = {
    ...(deps.reapMtimeGuardMs === undefined ? {} : { guardMs: deps.reapMtimeGuardMs }),
    ...(deps.salvage ? { salvage: true } : {}),
  };
  const answer = callSync<ReapResultEntry[]>("reap", [repoRoot, request]);
  if (answer.ok) return answer.value;
  if (unavailable(answer.error)) throw new OrchardUnavailable(answer.error);
  if (process.env.DEBUG) process.stderr.write(`[gsd] worktree.reap-orphans (Orchard): ${answer.error.message}\n`);
  return [];
}

/** GSD core's metadata prune: the paths of the entries it pruned (GSD's own always returns []). */
export function pruneOrphanedWorktrees(repoRoot: string): string[] {
  const answer = callSync<string[]>("pruneOrphaned", [repoRoot]);
  if (!answer.ok && unavailable(answer.error)) throw new OrchardUnavailable(answer.error);
  return answer.ok ? answer.value : [];
}
