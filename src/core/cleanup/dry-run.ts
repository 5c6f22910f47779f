// `cleanup run --dry-run` (SPEC §2: a dry run exits as the real run would). The first round's plan,
// stored as `cleanup plan` stores it, and the refusals the real run would meet: a salvage too large
// to keep (`salvage_too_large`, exit 3), read now with the same check apply makes at the moment of
// use. Nothing is salvaged or removed.
import { cleanupPlan, type CleanupPlanOptions, type PlanResult } from "./cleanup.js";
import { checkHuskSalvageable } from "./husk.js";
import { checkSalvageable } from "../salvage/index.js";
import { OrchardError } from "../shared/errors.js";
import { reason, type Reason } from "../shared/reasons/reasons.js";
import type { Ctx } from "../shared/context.js";
import type { PlannedItem } from "./plan.js";

export interface DryRunRefusal {
  seq: number;
  path: string;
  handle: string | null;
  action: PlannedItem["action"];
  reasons: Reason[];
}

/** `ok: false` when the real run would refuse an item (exit 3): then `refusals` says which and why. */
export type DryRunResult = (DryRunFields & { ok: true; refused: 0; refusals: [] }) | (DryRunFields & { ok: false });

export interface DryRunFields extends Omit<PlanResult, "ok"> {
  dryRun: true;
  refused: number;
  /** The items the real run would refuse, and why. */
  refusals: DryRunRefusal[];
}

export async function cleanupDryRun(main: Ctx, ctxs: Ctx[], options: CleanupPlanOptions, notes: Reason[] = []): Promise<DryRunResult> {
  const plan = await cleanupPlan(main, ctxs, options, notes);
  const refusals: DryRunRefusal[] = [];
  for (const item of plan.items) {
    if (item.action !== "salvage_remove") continue;
    const ctx = ctxs.find((c) => c.repo.identity === item.repo) ?? main;
    try {
      await (item.preconditions.husk ? checkHuskSalvageable(ctx, item.path) : checkSalvageable(ctx, item.path));
    } catch (error) {
      // anything else (a directory gone since the plan) the real run re-checks and skips: no refusal
      if (error instanceof OrchardError && error.code === "salvage_too_large")
        refusals.push({
          seq: item.seq,
          path: item.path,
          handle: item.handle,
          action: item.action,
          reasons: [reason("salvage_too_large", { error: error.message })],
        });
    }
  }
  if (refusals.length === 0) return { ...plan, ok: true, dryRun: true, refused: 0, refusals: [] };
  return { ...plan, ok: false, dryRun: true, refused: refusals.length, refusals };
}
