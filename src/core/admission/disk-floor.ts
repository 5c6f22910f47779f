// `disk.minFree` at admission (SPEC v4 §6): below the floor, an add that would create a worktree
// is refused `disk_low` (exit 3), saying what `cleanup run` would free now. Reuse and adoption
// take no new disk and are not refused. The estimate measures the fleet within a short budget
// (the repo's mutation lock is held): unmeasured, its bytes are null.
import { assessFleet, assessFloor, wouldFree } from "../hygiene/index.js";
import { reason, type ReasonOf } from "../shared/reasons/reasons.js";
import { formatBytes } from "../shared/format.js";
import type { Ctx } from "../shared/context.js";

const ESTIMATE_BUDGET = "10s";

export async function diskLow(ctx: Ctx): Promise<ReasonOf<"disk_low"> | null> {
  const minFree = ctx.repo.config.config.disk?.minFree;
  const floor = assessFloor(ctx.workspace.home, minFree);
  if (!floor?.below || minFree === undefined) return null;
  const fleet = await assessFleet([ctx], { disk: true, diskBudget: ESTIMATE_BUDGET });
  const would = wouldFree(fleet);
  const freed = would.bytes === null ? "an unmeasured amount" : formatBytes(would.bytes);
  return reason(
    "disk_low",
    { free: floor.free, floor: floor.floor, minFree, wouldFree: would },
    `${formatBytes(floor.free)} free, the floor is ${formatBytes(floor.floor)} (${minFree}); \`orchard cleanup run\` would free ${freed} (${would.worktrees} worktree(s), ${would.keptCopies} kept copies)`,
  );
}
