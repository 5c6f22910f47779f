// `orchard claude-code worktree-create` (SPEC §3.14): Claude Code's WorktreeCreate hook. The
// session's worktree is admitted like any `add`: branch `worktree-<name>`, owner
// `claude-code:<session_id>`, leased to the Claude Code process (found up the parent chain), task
// from ORCHARD_TASK, base per §4.4. The same name again is the same worktree, taken back with the
// work a previous session left in it (`--resume`: same task, nobody else live), as Claude Code
// does with its own worktrees. The caller prints only the path: Claude Code reads the last
// non-empty line of stdout as the worktree directory (relative to the session's cwd if relative)
// and fails the session on anything that is not an existing directory.
import { existsSync, statSync } from "node:fs";
import { isAbsolute } from "node:path";
import { add, type AddResult } from "../admission/index.js";
import type { Ctx } from "../shared/context.js";
import type { Policy } from "../shared/input/inputs.js";
import { failure } from "../shared/errors.js";
import { branchForName, type CreatePayload } from "./payload.js";
import { readSymbolicRef, resolveCommit } from "../../git/read.js";
import { readClaudeWorktreeSettings, withClaudeSettings } from "./worktree-settings.js";
import { watchHost, type HostIdentity } from "./ancestry.js";
import { readSettingsFlag } from "./settings-flag.js";
import { refusalLine, untrustedNote } from "./tell.js";
import { recordSessionNotes, sessionNotesOf } from "./session-start.js";
import { findAdminDir } from "../shared/repo/admin.js";
import { writeSessionRecord } from "../shared/claude/resumable.js";

export interface WorktreeCreateOptions {
  /** The Claude Code process that holds the lease, identified when the hook started (ancestry.ts). */
  host: HostIdentity;
  policy?: string | undefined;
}

export interface WorktreeCreateResult {
  path: string;
  result: AddResult;
  /** What the person should know (a settings layer that could not be read, a bootstrap step skipped), one line each. */
  notes: string[];
}

export function ownerOf(sessionId: string): string {
  return `claude-code:${sessionId}`;
}

/**
 * `worktree.baseRef: "head"`: the branch the session's directory has checked out (its commit when
 * detached). Only for a worktree not made yet: the same name again takes back the one there is.
 */
async function headBase(ctx: Ctx, payload: CreatePayload, branch: string): Promise<string | undefined> {
  const rows = await ctx.registry.worktrees.current(ctx.repo.identity);
  if (rows.some((r) => r.branch === branch && r.lifecycle !== "removed")) return undefined;
  const symbolic = await readSymbolicRef(payload.cwd, "HEAD");
  if (symbolic?.startsWith("refs/heads/") && (await resolveCommit(payload.cwd, symbolic))) return symbolic;
  const commit = await resolveCommit(payload.cwd, "HEAD");
  if (commit === null)
    throw failure("refused", `worktree.baseRef is "head", and ${payload.cwd} has no commit checked out: no worktree was made for ${payload.name}`);
  return commit;
}

export async function worktreeCreate(ctx: Ctx, payload: CreatePayload, options: WorktreeCreateOptions): Promise<WorktreeCreateResult> {
  const host = options.host;
  // Claude Code died before the hook could look: nobody waits for this worktree, and a lease to
  // whatever the hook was reparented to (init, a subreaper) would hold it for nothing
  if (host.state === "gone") throw failure("refused", `Claude Code (pid ${host.pid}), which ran this hook, is gone: no worktree was made for ${payload.name}`);
  // Claude Code's worktree settings, through Orchard's own configuration (worktree-settings.ts)
  const flag = await readSettingsFlag(host, payload.cwd);
  const ignored: string[] = []; // what Claude Code warns about and ignores (an unknown baseRef): so does Orchard, and says it
  const settings = readClaudeWorktreeSettings(payload.cwd, flag.flag, (message) => ignored.push(message));
  const branch = branchForName(payload.name);
  const base = settings.baseRef === "head" ? await headBase(ctx, payload, branch) : undefined;
  const config = withClaudeSettings(ctx.repo.config, settings);
  // the bootstrap dies with the Claude Code that waits for it (Ctrl-C): the same name again takes the worktree back
  const watch = watchHost(host);
  const result = await add(
    { ...ctx, repo: { ...ctx.repo, config }, signal: watch.signal },
    {
      branch,
      ...(base === undefined ? {} : { base }),
      owner: ownerOf(payload.sessionId),
      resume: true,
      ...(host.state === "alive" ? { pid: host.pid, ...(host.startTime === null ? {} : { pidStart: host.startTime }) } : {}),
      // the hook's --policy flag, checked against POLICIES by add's validation (bad: invalid_argument)
      ...(options.policy === undefined ? {} : { policy: options.policy as Policy }),
    },
  ).finally(watch.stop);
  if (watch.signal.aborted)
    throw failure(
      "refused",
      `${String(watch.signal.reason)}: the bootstrap of ${result.handle} was stopped; \`claude --worktree ${payload.name}\` again takes the worktree back and finishes it`,
    );
  // a directory of worktree.symlinkDirectories that could not be linked is refused, never silently left out
  const link = result.bootstrap?.steps.find((s) => s.name === "link" && s.status === "failed");
  if (link) throw failure("refused", `orchard could not link worktree.symlinkDirectories into ${result.path}: ${link.reason ?? "failed"}`);
  if (!result.ok) {
    // refused (reasons), or made with a failed bootstrap (error: the worktree is kept, the session does not start in it)
    const why = [
      ...result.reasons.map((r) => refusalLine(r, payload.name)),
      ...("error" in result ? [`${result.error.code}: ${result.error.message}`] : []),
    ].join("; ");
    throw failure("refused", `orchard refused the worktree for ${payload.name} (${result.handle}): ${why}`);
  }
  if (!isAbsolute(result.path) || !existsSync(result.path) || !statSync(result.path).isDirectory())
    throw failure("internal", `orchard admitted ${result.handle} but ${result.path} is not an existing directory`);
  recordSession(ctx, result.path, payload);
  const untrusted = untrustedNote(result, ctx.repo.primary);
  // for the session's SessionStart hook, which tells the model (session-start.ts)
  const notes = [...ignored.map((message) => ({ kind: "setting_ignored" as const, message })), ...sessionNotesOf(result, ctx.repo.primary)];
  const admin = notes.length > 0 ? findAdminDir(ctx.repo.commonDir, result.path) : undefined;
  if (admin) recordSessionNotes(admin, { sessionId: payload.sessionId, path: result.path, notes });
  return { path: result.path, result, notes: [...(flag.note === null ? [] : [flag.note]), ...ignored, ...(untrusted === null ? [] : [untrusted])] };
}

/**
 * Where the session lives, recorded with the worktree (SPEC v4 §3.14): resumability is judged from
 * it, whatever HOME a later sweep runs with. Without it the sweep looks under its caller's own
 * Claude config dir, as for a worktree made before the record: a session is never failed over it.
 */
function recordSession(ctx: Ctx, path: string, payload: CreatePayload): void {
  const admin = findAdminDir(ctx.repo.commonDir, path);
  if (payload.transcriptPath === null || admin === undefined) return;
  try {
    writeSessionRecord(admin, { sessionId: payload.sessionId, transcriptPath: payload.transcriptPath });
  } catch {
    return; // the admin dir refused the file: judged as a worktree without a record (above)
  }
}
