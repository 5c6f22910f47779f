// The snapshot's history walks, kept by a long-lived process (the MCP server, a library caller)
// for the next call that asks the same walk. `rev-list --parents <heads> --not <excluded>`, every
// revision an object id (a walk named by a ref is never kept), reads commits alone, and a commit
// never changes under its id: the same ids give the same graph, whatever happened to the refs
// since. So an agent's loop of add, status and heartbeat on its worktree walks its history once
// per new head or new remote-tracking tip, not once per call.
//
// Only three things let git see another graph behind the same ids, and a kept walk is used only
// when none of them is there: replace refs (`refs/replace/`, loose or packed, or another base named
// by GIT_REPLACE_REF_BASE), grafts (`info/grafts`, GIT_GRAFT_FILE) and a shallow boundary (`shallow`,
// GIT_SHALLOW_FILE: a fetch that deepens it shows more history behind the same tips). Each is looked
// for again at every call (three stats and a directory read; the packed refs are read only when
// their file changed), before the walk and after it (one that appeared meanwhile may be in the
// walk). A walk that fails is not kept; at most KEEP walks of at most KEEP_COMMITS commits are
// kept, the least recently used dropped first.
import { readFileSync, readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { readRevListParents } from "../../git/read.js";

const KEEP = 32;
const OID = /^(?:[0-9a-f]{40}|[0-9a-f]{64})$/;
const KEEP_COMMITS = 20_000;
/** Shared by every caller that asks the same walk: read only (ReadonlyMap). */
const kept = new Map<string, ReadonlyMap<string, readonly string[]>>();
/** Per common dir: the packed refs file's stamp when it was last read, and whether it held a replace ref. */
const packedReplace = new Map<string, { stamp: string; replaces: boolean }>();

function packedHoldsReplaceRefs(commonDir: string): boolean {
  const file = join(commonDir, "packed-refs");
  const st = statSync(file, { bigint: true, throwIfNoEntry: false });
  if (!st) return false;
  const stamp = `${st.dev}:${st.ino}:${st.size}:${st.mtimeNs}:${st.ctimeNs}`;
  const known = packedReplace.get(commonDir);
  if (known?.stamp === stamp) return known.replaces;
  const replaces = readFileSync(file, "latin1").includes(" refs/replace/");
  packedReplace.set(commonDir, { stamp, replaces });
  return replaces;
}

function hasEntries(dir: string): boolean {
  try {
    return readdirSync(dir).length > 0;
  } catch {
    return false; // absent: no replace refs there
  }
}

/** True when ids alone fix the graph git walks in this repository (see above); any doubt says false. */
export function graphFixedByIds(commonDir: string): boolean {
  if (process.env.GIT_REPLACE_REF_BASE || process.env.GIT_GRAFT_FILE || process.env.GIT_SHALLOW_FILE) return false;
  try {
    if (statSync(join(commonDir, "shallow"), { throwIfNoEntry: false })) return false;
    if (statSync(join(commonDir, "info", "grafts"), { throwIfNoEntry: false })) return false;
    return !hasEntries(join(commonDir, "refs", "replace")) && !packedHoldsReplaceRefs(commonDir);
  } catch {
    return false;
  }
}

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
