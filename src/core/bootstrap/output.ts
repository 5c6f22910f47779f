// What a bootstrap wrote is the bootstrap's, not work (issue 36 item 10): `echo done > .boot-done`
// or an install's `node_modules/` must not make the same owner's next add refuse `dirty` or
// `ignored_files`, which would break crash recovery and re-admission. Right after a bootstrap that
// ran on a fresh checkout (a new or a recycled worktree: nothing else was in it), the untracked and
// ignored entries it left are recorded in the admin dir; the dirty fact leaves them out from then
// on — a file only while its size and modification time are as the bootstrap left them (an edit
// of a copied `.env` is work again), an ignored directory as a whole (an install's tree). A
// directory git shows as untracked ("dir/": a nested repository) is never left out, and a record
// past 1 MiB is not written (those files then count as work, as before).
import { lstatSync } from "node:fs";
import { join } from "node:path";
import { readStatus } from "../../git/read.js";
import type { StatusSummary } from "../../git/parse/status.js";
import { readPlainFile, writeFileAtomic } from "../shared/files.js";

const RECORD = "orchard-bootstrap-output.json";
const MAX_RECORD = 1024 * 1024;

/** Records the untracked and ignored entries of the worktree at `path` as its bootstrap's output. */
export async function recordBootstrapOutput(admin: string, path: string): Promise<void> {
  // a status that cannot be read (a filter that may not run, a block) records nothing: that output then counts as work
  const status = await readStatus(path, { ignored: true }).catch(() => null);
  if (status === null) return;
  const paths = status.paths.filter((p) => p.kind === "ignored" || (p.kind === "untracked" && !p.path.endsWith("/"))).map((p) => p.path);
  const entries = paths.flatMap((p) => {
    if (p.endsWith("/")) return [p];
    const stamp = stampOf(join(path, p));
    return stamp === null ? [] : [`${p}\0${stamp}`];
  });
  const text = JSON.stringify({ paths: entries });
  if (Buffer.byteLength(text) <= MAX_RECORD) writeFileAtomic(join(admin, RECORD), text);
}

/** The recorded entries, or null when there is no (readable) record. */
function readRecord(admin: string): Set<string> | null {
  const bytes = readPlainFile(join(admin, RECORD), MAX_RECORD);
  if (bytes === null) return null;
  try {
    const paths = (JSON.parse(bytes.toString("utf8")) as { paths?: unknown }).paths;
    return Array.isArray(paths) ? new Set(paths.filter((p): p is string => typeof p === "string")) : null;
  } catch {
    return null; // damaged: nothing is left out
  }
}

/** A regular file's size and modification time, as the record keeps them; null for anything else. */
function stampOf(file: string): string | null {
  const st = lstatSync(file, { throwIfNoEntry: false, bigint: true });
  return st?.isFile() ? `${st.size}:${st.mtimeNs}` : null;
}

/** The status without the entries the bootstrap wrote (an ignored directory it made covers what is inside). */
export function withoutBootstrapOutput(admin: string, status: StatusSummary, worktree: string): StatusSummary {
  const record = readRecord(admin);
  if (record === null || record.size === 0) return status;
  const dirs = [...record].filter((p) => p.endsWith("/"));
  const unchanged = (p: string): boolean => {
    const stamp = record.has(`${p}\0`) ? null : stampOf(join(worktree, p));
    return stamp !== null && record.has(`${p}\0${stamp}`);
  };
  const ours = (p: StatusSummary["paths"][number]): boolean =>
    (p.kind === "ignored" || (p.kind === "untracked" && !p.path.endsWith("/"))) &&
    (dirs.some((d) => p.path === d || p.path.startsWith(d)) || unchanged(p.path));
  const kept = status.paths.filter((p) => !ours(p));
  if (kept.length === status.paths.length) return status;
  const dropped = status.paths.filter(ours);
  return {
    ...status,
    paths: kept,
    untracked: status.untracked - dropped.filter((p) => p.kind === "untracked").length,
    ignored: status.ignored - dropped.filter((p) => p.kind === "ignored").length,
  };
}
