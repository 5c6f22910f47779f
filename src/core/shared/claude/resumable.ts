// Whether a worktree's Claude Code session can still be resumed (issue 22 item 4). A worktree the
// WorktreeCreate hook made is owned by `claude-code:<session_id>`; Claude Code keeps that session's
// transcript at `<config dir>/projects/<slug>/<session_id>.jsonl` and deletes transcripts older
// than `cleanupPeriodDays` (default 30). While the transcript is younger than that,
// `claude --resume <session_id>` takes the session up again — in its worktree if the worktree is
// still there, else in the primary. So the sweep keeps such a worktree (`session_resumable`) until
// the period has passed, unless asked (`--include-resumable`). Only while the worktree is still
// `active`: a session that released it (ExitWorktree, a subagent's stop) has let it go.
import { readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { claudeConfigDir, readCleanupPeriodDays } from "./claude-settings.js";

const DAY_MS = 24 * 60 * 60 * 1000;
const OWNER_PREFIX = "claude-code:";
/** Claude Code's project directory name for a path (its slug rule): every non-alphanumeric character becomes `-`. */
export function claudeProjectSlug(path: string): string {
  return path.replace(/[^a-zA-Z0-9]/g, "-");
}

/** The Claude Code session id an owner names (`claude-code:<session_id>`), or null. */
export function claudeSessionOf(owner: string | null | undefined): string | null {
  if (!owner?.startsWith(OWNER_PREFIX)) return null;
  const id = owner.slice(OWNER_PREFIX.length);
  return /^[A-Za-z0-9_-]{1,128}$/.test(id) ? id : null;
}

/**
 * The transcript of a session: looked for first under the slugs of the given paths (the session's
 * cwd: the primary, or the worktree), then in every project directory (a slug over 200 characters
 * carries a hash Orchard does not compute; session ids are unique). Null when there is none.
 */
export function findTranscript(sessionId: string, paths: readonly string[]): { file: string; mtimeMs: number } | null {
  const projects = join(claudeConfigDir(), "projects");
  const tried = new Set<string>();
  const at = (dir: string): { file: string; mtimeMs: number } | null => {
    if (tried.has(dir)) return null;
    tried.add(dir);
    const file = join(projects, dir, `${sessionId}.jsonl`);
    const stat = statSync(file, { throwIfNoEntry: false });
    return stat?.isFile() ? { file, mtimeMs: stat.mtimeMs } : null;
  };
  for (const path of paths) {
    const found = at(claudeProjectSlug(path));
    if (found) return found;
  }
  let dirs: string[];
  try {
    dirs = readdirSync(projects);
  } catch {
    return null; // no transcripts at all
  }
  for (const dir of dirs) {
    const found = at(dir);
    if (found) return found;
  }
  return null;
}

export interface Resumable {
  sessionId: string;
  transcript: string;
  /** When Claude Code's cleanup may delete the transcript (its last write + cleanupPeriodDays). */
  until: number;
  periodDays: number;
}

/** The session a worktree's owner names, when its transcript is younger than Claude Code's cleanup period; else null. */
export function readResumable(owner: string | null | undefined, options: { primary: string; worktree: string; now: number }): Resumable | null {
  const sessionId = claudeSessionOf(owner);
  if (sessionId === null) return null;
  const transcript = findTranscript(sessionId, [options.primary, options.worktree]);
  if (transcript === null) return null;
  const periodDays = readCleanupPeriodDays(options.primary);
  const until = transcript.mtimeMs + periodDays * DAY_MS;
  return until > options.now ? { sessionId, transcript: transcript.file, until, periodDays } : null;
}

export function describeResumable(r: Resumable): string {
  return `claude --resume ${r.sessionId} can take it up until ${new Date(r.until).toISOString()} (transcript ${r.transcript}, cleanupPeriodDays ${r.periodDays})`;
}
