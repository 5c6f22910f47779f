// The startup sweep and `disk.minFree` (SPEC v4 §6): the sweep reaps only what its own proofs allow,
// whatever the free space; below the floor it says so in a `disk_low` note, whose next step is the
// cleanup that frees space under cleanup's proofs (`cleanup run --until-free <minFree>`). A Claude Code
// SessionStart hook runs this sweep, so a session hears of a full disk before it installs anything.
import { reapOrphans as sweep } from "./reap.js";
import type { ReapOptions, ReapResult } from "./types.js";
import { reason } from "../shared/reasons/reasons.js";
import type { Ctx } from "../shared/context.js";

export async function reapOrphans(ctx: Ctx, options: ReapOptions): Promise<ReapResult> {
  const result = await sweep(ctx, options);
  const minFree = ctx.repo.config.config.disk?.minFree;
  if (minFree === undefined) return result;
  const { assessFloor } = await import("../hygiene/index.js"); // loaded only where a floor is set
  const floor = assessFloor(ctx.workspace.home, minFree);
  if (!floor?.below) return result;
  const note = reason("disk_low", { free: floor.free, floor: floor.floor, minFree }, `${ctx.repo.name}: the floor is ${minFree}`);
  return { ...result, notes: [...(result.notes ?? []), note] };
}
