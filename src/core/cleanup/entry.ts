// Entry points of hygiene and cleanup for the library (`Orchard`): scope (one repo or every repo
// of the registry), a context for each repo a plan names, and validation of the apply options.
import { assessFleet, hygiene, hygieneFleet, resolveScope, type FleetHygieneReport, type HygieneOptions, type HygieneReport } from "../hygiene/index.js";
import { reclaimKeptCopies } from "./kept.js";
import { cleanupPlan, cleanupRun, type CleanupPlanOptions, type PlanResult, type RunResult } from "./cleanup.js";
import { applyPlan, type ApplyResult, type Progress } from "./apply.js";
import { cleanupDryRun, type DryRunResult } from "./dry-run.js";
import { requireDuration } from "../shared/input/validate.js";
import { failure } from "../shared/errors.js";
import type { Ctx } from "../shared/context.js";

export interface ContextSource {
  context(repo?: string): Promise<Ctx>;
}

export interface CleanupApplyOptions {
  planId: string;
  limit?: number | string | undefined;
  budget?: string | undefined;
}

export type ProgressListener = (progress: Progress) => void;

/** A context for the repo identity a plan item names (null: the plan's own repo). */
function opener(source: ContextSource, main: Ctx): (identity: string | null) => Promise<Ctx> {
  return async (identity) => {
    if (identity === null || identity === main.repo.identity) return main;
    const known = await main.registry.repos.load(identity);
    if (!known) throw failure("repo_unknown", `the plan names a repo the registry does not know: ${identity}`);
    return source.context(known.primaryPath);
  };
}

async function scope(
  source: ContextSource,
  repo: string | undefined,
  allRepos: boolean | undefined,
): Promise<{ main: Ctx; ctxs: Ctx[]; notes: HygieneReport["notes"] }> {
  const main = await source.context(repo);
  const { ctxs, notes } = await resolveScope(main, allRepos ?? false, (primary) => source.context(primary));
  return { main, ctxs, notes };
}

export async function runHygiene(source: ContextSource, repo: string | undefined, options: HygieneOptions): Promise<HygieneReport> {
  const s = await scope(source, repo, options.allRepos);
  return hygiene(s.ctxs, options, s.notes);
}

/** `hygiene --fleet`: this host's hygiene (published), then the report across the registry's hosts. */
export async function runHygieneFleet(source: ContextSource, repo: string | undefined, options: HygieneOptions): Promise<FleetHygieneReport> {
  const s = await scope(source, repo, options.allRepos);
  return hygieneFleet(s.ctxs, options, s.notes);
}

export async function runCleanupPlan(source: ContextSource, repo: string | undefined, options: CleanupPlanOptions): Promise<PlanResult> {
  const s = await scope(source, repo, options.allRepos);
  return cleanupPlan(s.main, s.ctxs, options, s.notes);
}

/** `cleanup run --dry-run`: the first round's plan and the refusals the real run would meet. */
export async function runCleanupDryRun(source: ContextSource, repo: string | undefined, options: CleanupPlanOptions): Promise<DryRunResult> {
  const s = await scope(source, repo, options.allRepos);
  return cleanupDryRun(s.main, s.ctxs, options, s.notes);
}

export async function runCleanupApply(
  source: ContextSource,
  repo: string | undefined,
  options: CleanupApplyOptions,
  onProgress?: ProgressListener,
): Promise<ApplyResult> {
  const main = await source.context(repo);
  const limit = options.limit === undefined ? null : Number(options.limit);
  const budgetMs = options.budget === undefined ? null : requireDuration(options.budget, "budget", 0);
  const applied = await applyPlan(main, opener(source, main), { planId: options.planId, limit, budgetMs, onProgress });
  if (applied.status !== "completed") return { ...applied, keptCopies: { removed: [], kept: 0 } };
  // the plan done: its scope's kept copies judged again now (at the moment of use), the reclaimable ones deleted
  const plan = await main.registry.plans.load(options.planId);
  const s = await scope(source, repo, plan?.scope === "all");
  const fleet = await assessFleet(s.ctxs, {});
  return { ...applied, keptCopies: await reclaimKeptCopies(main.workspace.home, fleet, { more: () => true, freed: () => undefined, measure: false }) };
}

export async function runCleanupRun(
  source: ContextSource,
  repo: string | undefined,
  options: CleanupPlanOptions,
  onProgress?: ProgressListener,
): Promise<RunResult> {
  const s = await scope(source, repo, options.allRepos);
  return cleanupRun(s.main, s.ctxs, opener(source, s.main), { ...options, ...(onProgress ? { onProgress } : {}) }, s.notes);
}
