// Cleanup of bootstrap.share's kept copies (SPEC v4 §6): after the worktrees, the copies the
// verdict calls reclaimable (incomplete, unused, over `disk.shareBudget`) are deleted, each
// renamed aside first (share/store.ts). A copy is judged from a fleet assessed after the removals,
// so a copy whose last worktree this run removed goes in the same run.
import { measureKept, type Fleet, type KeptCopyView } from "../hygiene/index.js";
import { removeKept, sweepStore } from "../share/index.js";

export interface KeptReclaim {
  /** The copies deleted, with why. */
  removed: KeptCopyView[];
  /** Copies left in place. */
  kept: number;
}

/** Deletes the reclaimable copies, oldest use first, while `more()` holds; each removed copy's bytes go to `freed`. */
export async function reclaimKeptCopies(
  home: string,
  fleet: Fleet,
  options: { more: () => boolean; freed: (bytes: number) => void; measure: boolean },
): Promise<KeptReclaim> {
  sweepStore(home); // half copies whose builder is gone
  if (options.measure) await measureKept(fleet.kept.filter((k) => k.view.disk === undefined));
  const result: KeptReclaim = { removed: [], kept: 0 };
  for (const k of fleet.kept) {
    if (k.view.disposition !== "reclaimable" || !options.more()) {
      result.kept++;
      continue;
    }
    removeKept(k.copy.path);
    options.freed(k.view.disk?.uniqueBytes ?? 0);
    result.removed.push(k.view);
  }
  return result;
}
