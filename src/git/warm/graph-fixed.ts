// Whether object ids alone fix the graph git walks in a repository: only a shallow boundary
// (`shallow`, GIT_SHALLOW_FILE) lets Orchard's git see another graph behind the same ids; replace
// refs and grafts never reach it (env.ts: GIT_NO_REPLACE_OBJECTS, no graft file, SPEC v5 §4). What a
// long-lived process keeps by id (core/facts/graphs.ts: the walks; refs-kept.ts: the tracking counts
// of the refs) is used only while there is none.
import { statSync } from "node:fs";
import { join } from "node:path";

/** True when ids alone fix the graph git walks in this repository (see above); any doubt says false. */
export function graphFixedByIds(commonDir: string): boolean {
  if (process.env.GIT_SHALLOW_FILE) return false;
  try {
    return !statSync(join(commonDir, "shallow"), { throwIfNoEntry: false });
  } catch {
    return false;
  }
}
