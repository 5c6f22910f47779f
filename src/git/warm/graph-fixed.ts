// Whether object ids alone fix the graph git walks in a repository: only replace refs
// (`refs/replace/`, loose or packed, or another base named by GIT_REPLACE_REF_BASE), grafts
// (`info/grafts`, GIT_GRAFT_FILE) and a shallow boundary (`shallow`, GIT_SHALLOW_FILE) let git see
// another graph behind the same ids. What a long-lived process keeps by id (core/facts/graphs.ts:
// the walks; refs-kept.ts: the tracking counts of the refs) is used only while none is there.
import { readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { readPlainFile } from "../input/plain-file.js";

/** Per common dir: the packed refs file's stamp when it was last read, and whether it held a replace ref. */
const packedReplace = new Map<string, { stamp: string; replaces: boolean }>();

function packedHoldsReplaceRefs(commonDir: string): boolean {
  const file = join(commonDir, "packed-refs");
  const st = statSync(file, { bigint: true, throwIfNoEntry: false });
  if (!st) return false;
  const stamp = `${st.dev}:${st.ino}:${st.size}:${st.mtimeNs}:${st.ctimeNs}`;
  const known = packedReplace.get(commonDir);
  if (known?.stamp === stamp) return known.replaces;
  // not a plain file (a FIFO, a device, over 1 GiB): in doubt, as if it held one
  const replaces =
    readPlainFile(file, 1024 ** 3)
      ?.toString("latin1")
      .includes(" refs/replace/") ?? true;
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
