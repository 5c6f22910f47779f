// A new checkout's index. `git worktree add` (and recycle's switch) write every file and then the
// index within the same second, so each entry is "racily clean": git cannot trust its stat data
// and re-hashes the file on every status — and a read-only status (GIT_OPTIONAL_LOCKS=0, SPEC
// §4.1) never writes the index that would end this. Once the index is older than git's timestamp
// granularity (one second: git compares whole seconds unless built with USE_NSEC), one
// `update-index --refresh` ends it for good.
//
// It is done before `add` or `recycle` answers (SPEC v3 §4.10: nothing of Orchard's touches a
// worktree's index or any lock after that). The refresh takes index.lock like any git write; run
// after the answer (as it once was, by the detached background job) it met the new owner's first
// `git add` ("Unable to create index.lock: File exists": 81 of 400 adds under four callers). So the
// command waits for the second to turn — at most one second, and only for an index of more than
// SMALL_INDEX_BYTES, whose checkout takes a good part of that second already — and refreshes then.
// Small indexes, whose racy entries cost a status next to nothing, are left alone.
import { statSync } from "node:fs";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { refreshIndex } from "../../git/write.js";
import { findAdminDir } from "./repo/admin.js";
import type { Ctx } from "./context.js";

/** Past the next whole second after the index was written, with a margin for the file system's coarse clock. */
const MARGIN_MS = 20;
/** Below this size (a few hundred entries) re-hashing racy files costs a status next to nothing: left alone. */
const SMALL_INDEX_BYTES = 64 * 1024;

/** Refreshes a large new index once git can trust its stat data; returns when it is done (before the command answers). */
export async function refreshIndexBeforeAnswer(ctx: Ctx, worktree: string): Promise<void> {
  const admin = findAdminDir(ctx.repo.commonDir, worktree);
  const index = admin ? join(admin, "index") : null;
  const st = index ? statSync(index, { throwIfNoEntry: false }) : undefined;
  if (!index || !st || st.size < SMALL_INDEX_BYTES) return;
  const notBefore = (Math.floor(st.mtimeMs / 1000) + 1) * 1000 + MARGIN_MS;
  const wait = notBefore - Date.now();
  if (wait > 0) await sleep(wait);
  await refreshIndex(worktree);
}
