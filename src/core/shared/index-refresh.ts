// A new checkout's index. `git worktree add` (and recycle's switch) write every file and then the
// index within the same second, so each entry is "racily clean": git cannot trust its stat data
// and re-hashes the file on every status — and a read-only status (GIT_OPTIONAL_LOCKS=0, SPEC
// §4.1) never writes the index that would end this. Once the index is older than git's timestamp
// granularity (one second: git compares whole seconds unless built with USE_NSEC), one
// `update-index --refresh` ends it for good. When that moment has passed before the command
// answers (a bootstrap ran), it is done then; otherwise the detached background job does it when
// the second has turned, and only if nobody wrote (or locked) the index meanwhile. The refresh takes
// index.lock like any git write: a git command of the new owner in that instant would find it held,
// so small indexes, whose racy entries cost next to nothing, are left alone.
import { statSync } from "node:fs";
import { join } from "node:path";
import { refreshIndex } from "../../git/write.js";
import { findAdminDir } from "./admin.js";
import { queueIndexRefresh } from "./trash.js";
import type { Ctx } from "./context.js";

/** Past the next whole second after the index was written, with a margin for the file system's coarse clock. */
const MARGIN_MS = 20;
/** Below this size (a few hundred entries) re-hashing racy files costs a status next to nothing: left alone. */
const SMALL_INDEX_BYTES = 64 * 1024;

export async function refreshIndexSoon(ctx: Ctx, worktree: string): Promise<void> {
  const admin = findAdminDir(ctx.repo.commonDir, worktree);
  const index = admin ? join(admin, "index") : null;
  const st = index ? statSync(index, { throwIfNoEntry: false }) : undefined;
  if (!index || !st || st.size < SMALL_INDEX_BYTES) return;
  const notBefore = (Math.floor(st.mtimeMs / 1000) + 1) * 1000 + MARGIN_MS;
  if (Date.now() >= notBefore) await refreshIndex(worktree);
  else queueIndexRefresh(ctx.workspace.home, { worktree, index, mtimeMs: st.mtimeMs, notBefore });
}
