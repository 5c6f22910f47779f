// What the worker does for each GSD function that needs git or the registry, by name (bridge.ts
// calls them). Each resolves to GSD's shape; a failure throws and reaches the caller as an error
// the main side (index.ts) words in GSD's failure shape. The read-only ones are loaded with the
// worker; the reaper and the wave (which load core) on their first call.
import type { OrchardOf, WavePlan } from "./types.js";
import type { ReapRequest } from "./reap.js";
import { health, inventory, linkedPaths, prunePlan, runPrune, worktreeContext } from "./inventory.js";

// each handler takes its own arguments; the bridge passes what the caller gave
type Handler = (orchard: OrchardOf, ...args: any[]) => Promise<unknown>;

const reap: Handler = async (orchard, repoRoot: string, request?: ReapRequest) => (await import("./reap.js")).reap(orchard, repoRoot, request);
const pruneOrphaned: Handler = async (orchard, repoRoot: string) => (await import("./reap.js")).pruneOrphaned(orchard, repoRoot);
const runWave: Handler = async (orchard, plan: WavePlan) => (await import("./wave.js")).runWave(orchard, plan);

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
