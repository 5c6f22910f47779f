// Bounded parallelism: map over items with at most `limit` promises in flight, results in order.
import { availableParallelism } from "node:os";

export const DEFAULT_PARALLELISM = Math.max(2, Math.min(8, availableParallelism() * 2));

/** For one `git status` per worktree (CPU- and syscall-bound): one per core, plus one so that a core is
 * never idle while a process starts or exits; at most 8. */
export const STATUS_PARALLELISM = Math.max(2, Math.min(8, availableParallelism() + 1));

export async function mapLimit<T, R>(items: readonly T[], limit: number, fn: (item: T, index: number) => Promise<R>): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < items.length) {
      const index = next++;
      results[index] = await fn(items[index] as T, index);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}
