// The snapshot's history walks, kept by a long-lived process (the MCP server, a library caller)
// for the next call that asks the same walk. `rev-list --parents <heads> --not <excluded>`, every
// revision an object id (a walk named by a ref is never kept), reads commits alone, and a commit
// never changes under its id: the same ids give the same graph, whatever happened to the refs
// since. So an agent's loop of add, status and heartbeat on its worktree walks its history once
// per new head or new remote-tracking tip, not once per call.
//
// Replace refs and grafts never reach Orchard's git (SPEC v5 §4, git/env.ts); only a shallow
// boundary (`shallow`, GIT_SHALLOW_FILE: a fetch that deepens it shows more history behind the same
// tips) lets it see another graph behind the same ids, so a kept walk is used only without one.
// It is looked for again at every call (one stat), before the walk and after it (one that appeared
// meanwhile may be in the walk). A walk that fails is not kept; at most KEEP walks of at most
// KEEP_COMMITS commits are kept, the least recently used dropped first.
import { readRevListParents } from "../../git/read.js";
import { graphFixedByIds } from "../../git/warm/graph-fixed.js";

export { graphFixedByIds };

const KEEP = 32;
const OID = /^(?:[0-9a-f]{40}|[0-9a-f]{64})$/;
const KEEP_COMMITS = 20_000;
/** Shared by every caller that asks the same walk: read only (ReadonlyMap). */
const kept = new Map<string, ReadonlyMap<string, readonly string[]>>();
/**
 * `git rev-list --parents tips --not excluded` in `cwd` (object ids only), or the same walk kept
 * from an earlier call when the repository's graph is fixed by ids (graphFixedByIds).
 */
export async function walkGraph(
  cwd: string,
  commonDir: string,
  tips: readonly string[],
  excluded: readonly string[],
): Promise<ReadonlyMap<string, readonly string[]>> {
  const ids = [...tips, ...excluded].every((rev) => OID.test(rev));
  // every tip excluded: git would print nothing (a worktree at its target's or a remote's commit); no process for it
  if (ids && tips.every((tip) => excluded.includes(tip))) return new Map();
  if (tips.length === 0 || !ids || !graphFixedByIds(commonDir)) return readRevListParents(cwd, tips, excluded);
  const key = `${commonDir}\0${[...new Set(tips)].sort().join(" ")}\0${[...new Set(excluded)].sort().join(" ")}`;
  const known = kept.get(key);
  if (known) {
    kept.delete(key); // most recently used: last in the map's order
    kept.set(key, known);
    return known;
  }
  const graph = await readRevListParents(cwd, tips, excluded);
  if (graph.size <= KEEP_COMMITS && graphFixedByIds(commonDir)) {
    kept.set(key, graph);
    for (const oldest of kept.keys()) {
      if (kept.size <= KEEP) break;
      kept.delete(oldest);
    }
  }
  return graph;
}
