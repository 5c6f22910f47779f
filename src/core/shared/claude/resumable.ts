// Whether a worktree's Claude Code session can still be resumed (issue 22 item 4, SPEC v4 §3.14). A
// worktree the WorktreeCreate hook made is owned by `claude-code:<session_id>`; Claude Code keeps
// that session's transcript at `<config dir>/projects/<slug>/<session_id>.jsonl` and deletes
// transcripts older than `cleanupPeriodDays` (default 30). While the transcript is younger than
// that, `claude --resume <session_id>` takes the session up again — in its worktree if the
// worktree is still there, else in the primary. So the sweep keeps such a worktree
// (`session_resumable`) until the period has passed, unless asked (`--include-resumable`). Only
// while the worktree is still `active`: a session that released it (ExitWorktree, a subagent's
// stop) has let it go.
// Two rules of v4 (issue 40 items 1 and 2):
// - only a session's own worktree (`--worktree`, EnterWorktree) is resumable: a subagent's
//   (`worktree-agent-*`) never is — `claude --resume <parent>` goes on in the primary, not in it;
// - where the session lives is recorded when the hook makes the worktree (the hook's input carries
//   `transcript_path`; `claude-session.json` in the worktree's admin dir), and the verdict is read
//   from that record: the same whatever HOME or CLAUDE_CONFIG_DIR the caller has (cron, CI, sudo).
//   Only a worktree made before the record existed is looked for under the caller's own config.
import { readdirSync, statSync } from "node:fs";
import { basename, dirname, isAbsolute, join } from "node:path";
import { claudeConfigDir, readCleanupPeriodDays } from "./claude-settings.js";
import { readPlainFile, writeFileAtomic } from "../files.js";

const DAY_MS = 24 * 60 * 60 * 1000;
const OWNER_PREFIX = "claude-code:";
/** The branch prefix of Agent-tool subagents' worktrees (`agent-<id>` → `worktree-agent-<id>`). */
export const SUBAGENT_BRANCH_PREFIX = "worktree-agent-";
const RECORD = "claude-session.json";

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

/** What the WorktreeCreate hook records beside the worktree: the session and where its transcript is. */
export interface SessionRecord {
  sessionId: string;
  transcriptPath: string;
}

/** Records the session that made (or took back) a worktree, in its admin dir. */
export function writeSessionRecord(admin: string, record: SessionRecord): void {
  writeFileAtomic(join(admin, RECORD), `${JSON.stringify(record, null, 2)}\n`);
}

/**
 * The record of a worktree's admin dir when it is about `sessionId` and well formed (an agent can
 * write the admin dir: an absolute `<dir>/projects/<slug>/<sessionId>.jsonl`, nothing else); null otherwise.
 */
export function readSessionRecord(admin: string | null | undefined, sessionId: string): SessionRecord | null {
  if (!admin) return null;
  const bytes = readPlainFile(join(admin, RECORD));
  if (bytes === null) return null;
  let value: unknown;
  try {
    value = JSON.parse(bytes.toString("utf8"));
  } catch {
    return null; // damaged: judged as a worktree without a record
  }
  const r = value as Partial<SessionRecord> | null;
  if (r?.sessionId !== sessionId || typeof r.transcriptPath !== "string") return null;
  const path = r.transcriptPath;
  const wellFormed = isAbsolute(path) && basename(path) === `${sessionId}.jsonl` && basename(dirname(dirname(path))) === "projects" && !path.includes("\0");
  return wellFormed ? { sessionId, transcriptPath: path } : null;
}

/**
 * The transcript of a session under a `projects` directory: looked for first at `first` (the
 * recorded path), then under the slugs of the given paths (the session's cwd: the primary, or the
 * worktree), then in every project directory (a slug over 200 characters carries a hash Orchard
 * does not compute; session ids are unique). Null when there is none.
 */
export function findTranscript(
  sessionId: string,
  paths: readonly string[],
  where: { projects?: string; first?: string } = {},
): { file: string; mtimeMs: number } | null {
  const projects = where.projects ?? join(claudeConfigDir(), "projects");
  const tried = new Set<string>();
  const atFile = (file: string): { file: string; mtimeMs: number } | null => {
    if (tried.has(file)) return null;
    tried.add(file);
    const stat = statSync(file, { throwIfNoEntry: false });
    return stat?.isFile() ? { file, mtimeMs: stat.mtimeMs } : null;
  };
  const at = (dir: string) => atFile(join(projects, dir, `${sessionId}.jsonl`));
  const recorded = where.first === undefined ? null : atFile(where.first);
  if (recorded) return recorded;
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

export interface ResumableQuery {
  primary: string;
  worktree: string;
  /** The worktree's branch: a subagent's (`worktree-agent-*`) is never resumable. */
  branch: string | null | undefined;
  /** The worktree's admin dir, where the hook's record is (null: not known). */
  admin: string | null | undefined;
  now: number;
}

/** The session a worktree's owner names, when its transcript is younger than Claude Code's cleanup period; else null. */
export function readResumable(owner: string | null | undefined, options: ResumableQuery): Resumable | null {
  const sessionId = claudeSessionOf(owner);
  if (sessionId === null || options.branch?.startsWith(SUBAGENT_BRANCH_PREFIX)) return null;
  const record = readSessionRecord(options.admin, sessionId);
  // the session's Claude config dir: the recorded one (`<dir>/projects/<slug>/<id>.jsonl`), else the caller's
  const configDir = record ? dirname(dirname(dirname(record.transcriptPath))) : null;
  const projects = configDir === null ? {} : { projects: join(configDir, "projects"), first: record?.transcriptPath as string };
  const transcript = findTranscript(sessionId, [options.primary, options.worktree], projects);
  if (transcript === null) return null;
  const periodDays = readCleanupPeriodDays(options.primary, configDir ?? undefined);
  const until = transcript.mtimeMs + periodDays * DAY_MS;
  return until > options.now ? { sessionId, transcript: transcript.file, until, periodDays } : null;
}

export function describeResumable(r: Resumable): string {
  return `claude --resume ${r.sessionId} can take it up until ${new Date(r.until).toISOString()} (transcript ${r.transcript}, cleanupPeriodDays ${r.periodDays})`;
}
