// A context source for a capability that resolves its repo itself: the first context of `repo`
// starts now (git resolves the repo while the capability's module loads), later ones as asked.
import type { Ctx } from "./shared/context.js";

/** A context source whose first context of `repo` is already under way (started now). */
export function resolving(open: (repo?: string) => Promise<Ctx>, repo: string | undefined): { context(repo?: string): Promise<Ctx> } {
  let first: Promise<Ctx> | null = open(repo);
  first.catch(() => undefined); // awaited by the first caller
  return {
    context: (asked?: string) => {
      if (first === null || asked !== repo) return open(asked);
      const started = first;
      first = null;
      return started;
    },
  };
}
