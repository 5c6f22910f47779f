// A new checkout's index. `git worktree add` (and recycle's switch) write every file and then the
// index within the same second, so each entry is "racily clean": git cannot trust its stat data
// and re-hashes the file on every status — and a read-only status (GIT_OPTIONAL_LOCKS=0, SPEC
// §4.1) never writes the index that would end this. Once every entry's file is older than the
// index by git's timestamp granularity (one second: git compares whole seconds unless built with
// USE_NSEC), one `update-index --refresh` ends it for good.
//
// It is done before `add` or `recycle` answers (SPEC v3 §4.10: nothing of Orchard's touches a
// worktree's index or any lock after that). The refresh takes index.lock like any git write; run
// after the answer (as it once was, by the detached background job) it met the new owner's first
// `git add` ("Unable to create index.lock: File exists": 81 of 400 adds under four callers).
//
// A created worktree holds nothing but what git has just written, so `add` dates those files two
// seconds back right after the checkout (backdateCheckout) and refreshes at once: the refresh
// hashes each file, as it would have anyway, and records its stat data, older than the index it
// writes. This is only about speed: git smudges any entry it cannot trust, so whatever happens to a
// file (a bootstrap step writing it) a status still sees it, and a later write changes its mtime.
// Recycle's switch keeps the untracked files of the worktree it reuses, so recycle waits for the
// second to turn instead — at most one second, and only for an index of more than
// SMALL_INDEX_BYTES, whose checkout takes a good part of that second already. Small indexes,
// whose racy entries cost a status next to nothing, are left alone.
import { lutimesSync, readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { refreshIndex } from "../../git/write.js";
import { findAdminDir } from "./repo/admin.js";
import type { Ctx } from "./context.js";

/** Past the next whole second after the index was written, with a margin for the file system's coarse clock. */
const MARGIN_MS = 20;
/** Below this size (a few hundred entries) re-hashing racy files costs a status next to nothing: left alone. */
const SMALL_INDEX_BYTES = 64 * 1024;

/** How far back a created checkout's files are dated: whole seconds, so the index the refresh writes is newer even by a coarse clock. */
const BACKDATE_S = 2;

/** The new worktree's index when it is large enough to be worth refreshing. */
function largeIndex(ctx: Ctx, worktree: string): { mtimeMs: number } | undefined {
  const admin = findAdminDir(ctx.repo.commonDir, worktree);
  const st = admin ? statSync(join(admin, "index"), { throwIfNoEntry: false }) : undefined;
  return st && st.size >= SMALL_INDEX_BYTES ? st : undefined;
}

/**
 * Dates every file of a checkout `git worktree add` has just made BACKDATE_S seconds back (links
 * themselves, never what they point to; directories and the top-level `.git` file as they are).
 * Only for a worktree nobody else has seen yet. Returns whether it did (a large index); a file it
 * cannot date is left as it is (its entry stays racy: slower statuses, the same answers).
 */
export function backdateCheckout(ctx: Ctx, worktree: string): boolean {
  if (!largeIndex(ctx, worktree)) return false;
  const when = Math.floor(Date.now() / 1000) - BACKDATE_S;
  const walk = (dir: string, top: boolean): void => {
    let entries;
    try {
      entries = readdirSync(dir, { withFileTypes: true });
    } catch {
      return;
    }
    for (const entry of entries) {
      if (top && entry.name === ".git") continue;
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path, false);
      else
        try {
          lutimesSync(path, when, when);
        } catch {
          // left racy: see above
        }
    }
  };
  walk(worktree, true);
  return true;
}

/**
 * Refreshes a large new index so git can trust its stat data; returns when it is done (before the
 * command answers). `backdated`: its files were dated back (backdateCheckout), so it refreshes at
 * once; otherwise it waits for the turn of the second the index was written in.
 */
export async function refreshIndexBeforeAnswer(ctx: Ctx, worktree: string, options: { backdated?: boolean } = {}): Promise<void> {
  const st = largeIndex(ctx, worktree);
  if (!st) return;
  const notBefore = (Math.floor(st.mtimeMs / 1000) + 1) * 1000 + MARGIN_MS;
  const wait = options.backdated ? 0 : notBefore - Date.now();
  if (wait > 0) await new Promise((done) => setTimeout(done, wait)); // not timers/promises: a module every command would load
  await refreshIndex(worktree);
}
