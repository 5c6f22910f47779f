// What the worker does for each GSD function that needs git or the registry, by name (bridge.ts
// calls them). Each resolves to GSD's shape; a failure throws and reaches the caller as an error
// the main side (index.ts) words in GSD's failure shape.
import type { OrchardOf } from "./types.js";
import { health, inventory, linkedPaths, prunePlan, runPrune, worktreeContext } from "./inventory.js";
import { pruneOrphaned, reap } from "./reap.js";
import { runWave } from "./wave.js";

// each handler takes its own arguments; the bridge passes what the caller gave
type Handler = (orchard: OrchardOf, ...args: any[]) => Promise<unknown>;

export const HANDLERS: Record<string, Handler> = {
  worktreeContext,
  linkedPaths,
  inventory,
  health,
  prunePlan,
  runPrune,
  runWave,
  reap,
  pruneOrphaned,
};
