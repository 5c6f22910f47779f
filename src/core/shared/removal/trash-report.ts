// What the workspace's trash still holds after its purgers ran (SPEC v3 §4.10): entries a purger
// could not delete (its `failed` marker says why: an immutable file, another user's files) and
// entries Orchard never put there (no journal of its own, a link, a file), which are never deleted.
// Entries being purged right now are neither. Pure file-system reads; hygiene measures the bytes.
import { lstatSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { isRealEntry, readJournal } from "./trash.js";
import { trashDir } from "../context.js";
import { readPlainText } from "../files.js";

export interface TrashLeftover {
  path: string;
  /** `failed`: Orchard's entry that its purger could not delete; `foreign`: not Orchard's, left alone. */
  state: "failed" | "foreign";
  /** The purger's message (rm's first line), or what makes the entry foreign. */
  why: string;
}

function failedWhy(entry: string): string | null {
  const text = readPlainText(join(entry, "failed"), { follow: false });
  if (text === null) return null; // no failed marker (or no plain one): being purged, or not yet
  return text.split("\n")[0]?.trim() || "the purge failed";
}

function isEmptyDir(path: string): boolean {
  try {
    return readdirSync(path).length === 0;
  } catch {
    return false; // unreadable: reported as it is, never assumed empty
  }
}

/** The trash's leftovers, in name order; none when there is no trash. */
export function readTrashLeftovers(home: string): TrashLeftover[] {
  const dir = trashDir(home);
  let ids: string[];
  try {
    ids = readdirSync(dir).sort();
  } catch {
    return []; // no trash yet
  }
  const leftovers: TrashLeftover[] = [];
  for (const id of ids) {
    const path = join(dir, id);
    if (!isRealEntry(path)) {
      const link = lstatSync(path, { throwIfNoEntry: false })?.isSymbolicLink() ?? false;
      leftovers.push({ path, state: "foreign", why: link ? "a symbolic link" : "not a directory" });
    } else if (readJournal(path) === null) {
      // an empty one is a crash's between mkdir and journal: the next command removes it
      if (!isEmptyDir(path)) leftovers.push({ path, state: "foreign", why: "no journal of Orchard's in it" });
    } else {
      const why = failedWhy(path);
      if (why !== null) leftovers.push({ path, state: "failed", why });
    }
  }
  return leftovers;
}
