// Walks of a commit graph read once (commit → parents), shared by the merged proofs and the wave.
export type Graph = ReadonlyMap<string, readonly string[]>;

/** Commits of `graph` reachable from `tips` (a tip included when it is in the graph). */
export function reachable(graph: Graph, tips: readonly string[]): Set<string> {
  const seen = new Set<string>();
  const stack = [...tips];
  while (stack.length) {
    const commit = stack.pop() as string;
    if (seen.has(commit) || !graph.has(commit)) continue;
    seen.add(commit);
    stack.push(...(graph.get(commit) ?? []));
  }
  return seen;
}

/** A commit with at most one parent in the graph (a patch-id describes it). */
export const nonMerge = (graph: Graph, commit: string): boolean => (graph.get(commit)?.length ?? 0) <= 1;
