// `disk.minFree` at admission (SPEC v4 §6): below the floor, an add that would create a worktree
// is refused `disk_low` (exit 3), saying what `cleanup run` would free now. Reuse and adoption
// take no new disk and are not refused. The estimate measures the fleet within a short budget
// (the repo's mutation lock is held): unmeasured, its bytes are null. When that would not meet the
// floor, it names what else holds space: worktrees needing salvage (`--salvage`), kept copies in use.
import { alsoFree, assessFleet, assessFloor, wouldFree } from "../hygiene/index.js";
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
  const also = alsoFree(fleet);
  const freed = would.bytes === null ? "an unmeasured amount" : formatBytes(would.bytes);
  const size = (bytes: number | null): string => (bytes === null ? "unmeasured" : formatBytes(bytes));
  // what else holds space, named when the default cleanup leaves the floor unmet (or cannot tell)
  const short = would.bytes === null || floor.free + would.bytes < floor.floor;
  const more = [
    also.needsSalvage.worktrees > 0
      ? `${also.needsSalvage.worktrees} worktree(s) needing salvage hold ${size(also.needsSalvage.bytes)} (\`orchard cleanup run --include reclaimable,reapable,missing,needs_salvage --salvage\` saves their work in salvage refs, then removes them)`
      : "",
    also.keptCopies.copies > 0
      ? `${also.keptCopies.copies} kept copies in use hold ${size(also.keptCopies.bytes)} (a lower disk.shareBudget reclaims the least recently used)`
      : "",
  ].filter(Boolean);
  const tail = short && more.length > 0 ? `; that is not enough: ${more.join("; ")}` : "";
  return reason(
    "disk_low",
    { free: floor.free, floor: floor.floor, minFree, wouldFree: would, alsoFree: also },
    `${formatBytes(floor.free)} free, the floor is ${formatBytes(floor.floor)} (${minFree}); \`orchard cleanup run\` would free ${freed} (${would.worktrees} worktree(s), ${would.keptCopies} kept copies)${tail}`,
  );
}
