// Hygiene and `list --full` read one `git status` per worktree, most of their time. The command
// line starts those statuses while node still loads the library (the worktree listing it started
// early, git/early.ts, names them): the process scan first, because the shells' git processes are
// not our children and a scan while they run would count them as someone working inside; then
// the shells. startStatuses (facts.ts) takes the scan, the admin dirs and the statuses together.
import { existsSync } from "node:fs";
import { peekEarlyListing, readStatuses } from "../../git/read.js";
import type { StatusSummary } from "../../git/parse/status.js";
import { readAdminDirs } from "./repo/admin.js";
import { STATUS_PARALLELISM } from "./pool.js";
import { readProcessCwds } from "../ownership/index.js";
import { programPolicyOf, setProgramPolicy } from "../../git/programs/policy.js";
import { readProgramGuard } from "../../git/programs/read.js";

export interface EarlyStatuses {
  commonDir: string;
  /** The process scan taken before the shells started. */
  cwds: Map<number, string> | null;
  admins: Map<string, string>;
  /** The listed, present worktrees with an admin dir, in listing order; `statuses` in the same order. */
  worktrees: string[];
  statuses: Promise<(StatusSummary | Error)[]>;
  /** The program policy they ran under (programs/policy.ts): a command whose repo turned out trusted reads them anew. */
  policyKey: string;
}

let early: Promise<EarlyStatuses | null> | null = null;
let stop: AbortController | null = null;

/** Starts the statuses of the repo at `path` as soon as its early listing answers (none without one). */
export function startEarlyStatuses(path: string): void {
  const controller = (stop = new AbortController());
  early = (async (): Promise<EarlyStatuses | null> => {
    const listed = await peekEarlyListing(path);
    if (!listed) return null;
    const cwds = await readProcessCwds();
    const admins = readAdminDirs(listed.commonDir);
    const worktrees = listed.entries.slice(1).flatMap((e) => (!e.bare && admins.has(e.path) && existsSync(e.path) ? [e.path] : []));
    // before the command knows whether the repo is trusted, the statuses run as for an untrusted one
    const primary = listed.entries[0];
    const guard = await readProgramGuard(primary && !primary.bare ? primary.path : listed.commonDir, listed.commonDir);
    if (!programPolicyOf(listed.commonDir)) setProgramPolicy(listed.commonDir, guard);
    const policyKey = programPolicyOf(listed.commonDir)!.key;
    if (controller.signal.aborted) return null;
    const statuses = readStatuses(worktrees, { ignored: true, slices: STATUS_PARALLELISM, signal: controller.signal });
    statuses.catch(() => undefined); // taken by startStatuses
    return { commonDir: listed.commonDir, cwds, admins, worktrees, statuses, policyKey };
  })().catch(() => null); // nothing started: the command reads its statuses itself
}

/** The statuses started early for the repo whose common dir (realpath) is `commonDir`, once; null when none were. */
export async function takeEarlyStatuses(commonDir: string): Promise<EarlyStatuses | null> {
  if (early === null) return null;
  const started = await early;
  early = null;
  if (started?.commonDir === commonDir && programPolicyOf(commonDir)?.key === started.policyKey) {
    stop = null; // taken: they run to their end
    return started;
  }
  dropEarlyStatuses();
  return null;
}

/** Stops statuses started early that nobody took (the command failed first): their processes are killed, nothing waits for them. */
export function dropEarlyStatuses(): void {
  stop?.abort();
  stop = null;
  early = null;
}
