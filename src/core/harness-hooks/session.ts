// A harness's session hooks, taken in place (SPEC v5 §3.15): at session start Orchard adopts the
// worktree the harness made for that session — owner `<harness>:<session id>`, leased to the
// harness's process (the hook's parent past launchers, read when the hook starts), locked — and at
// session end releases it, keeping the worktree. A resumed session takes its worktree back: an
// active lease of the same owner is renewed to the new process, a released one is leased again.
// A worktree Orchard holds for someone else is never taken (refused with the reasons).
import { existsSync, lstatSync, realpathSync } from "node:fs";
import { basename, dirname, join, resolve } from "node:path";
import type { Orchard } from "../orchard.js";
import type { Reason } from "../shared/reasons/reasons.js";
import { readPlainFile } from "../shared/files.js";
import { readAdminWorktreePath } from "../shared/repo/admin.js";
import { renewLease } from "../admission/index.js";
import { DEFAULT_TTL_MS, leaseLockText, newLease, withMutationLock, type ClientProcess } from "../ownership/index.js";
import { reason } from "../shared/reasons/reasons.js";

export type HarnessHookName = "codex" | "copilot" | "gemini";

export const SESSION_ACTIONS = ["adopted", "renewed", "released", "already_released", "refused", "not_tracked", "not_held"] as const;
export type SessionAction = (typeof SESSION_ACTIONS)[number];

export interface SessionHookResult {
  ok: boolean;
  harness: HarnessHookName;
  event: "session-start" | "session-end";
  /** adopted, renewed (same session again), released, already_released; refused (reasons); not_tracked (no worktree of this session here); not_held (Orchard holds no lease of this session). */
  action: SessionAction;
  sessionId: string;
  owner: string;
  /** The worktree the session runs in (null: the session's cwd is in no linked worktree). */
  path: string | null;
  handle: string | null;
  reasons: Reason[];
}

export interface LinkedWorktree {
  /** The worktree's top directory, as its admin dir's `gitdir` names it. */
  path: string;
  admin: string;
}

function real(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return resolve(path);
  }
}

/**
 * The linked worktree that holds `cwd` (it or a parent has a `.git` file naming an admin dir
 * `<common>/worktrees/<id>` whose `gitdir` names it back), or null: the primary, no repository.
 */
export function findLinkedWorktree(cwd: string): LinkedWorktree | null {
  for (let dir = real(cwd); ; dir = dirname(dir)) {
    const dotGit = join(dir, ".git");
    if (existsSync(dotGit)) {
      if (!lstatSync(dotGit).isFile()) return null; // the primary (or a nested repository's own)
      const gitdir = /^gitdir: (.+)$/m.exec(readPlainFile(dotGit, 4096)?.toString("utf8") ?? "")?.[1]?.trim();
      if (!gitdir) return null;
      const admin = resolve(dir, gitdir);
      const named = readAdminWorktreePath(admin);
      if (basename(dirname(admin)) !== "worktrees" || named === null || real(named) !== dir) return null;
      return { path: named, admin };
    }
    if (dirname(dir) === dir) return null;
  }
}

export function ownerOf(harness: HarnessHookName, sessionId: string): string {
  return `${harness}:${sessionId}`;
}

interface SessionRef {
  harness: HarnessHookName;
  sessionId: string;
  worktree: LinkedWorktree;
}

function result(
  ref: SessionRef,
  event: SessionHookResult["event"],
  fields: Pick<SessionHookResult, "action" | "handle"> & { reasons?: Reason[] },
): SessionHookResult {
  return {
    ok: fields.action !== "refused",
    harness: ref.harness,
    event,
    action: fields.action,
    sessionId: ref.sessionId,
    owner: ownerOf(ref.harness, ref.sessionId),
    path: ref.worktree.path,
    handle: fields.handle,
    reasons: fields.reasons ?? [],
  };
}

/** The session's worktree adopted in place (or its lease renewed to `host`), leased and locked. */
export async function adoptForSession(orchard: Orchard, ref: SessionRef, host: ClientProcess | null): Promise<SessionHookResult> {
  const owner = ownerOf(ref.harness, ref.sessionId);
  const path = ref.worktree.path;
  const pid = host === null ? {} : { pid: host.pid };
  const ctx = await orchard.context(path);
  const row = (await ctx.registry.worktrees.current(ctx.repo.identity)).find((r) => r.path === path);
  if (!row) {
    const adopted = await orchard.adopt({ repo: path, path, owner, ...pid });
    return result(
      ref,
      "session-start",
      adopted.ok ? { action: "adopted", handle: adopted.handle } : { action: "refused", handle: null, reasons: adopted.reasons },
    );
  }
  if (row.lifecycle === "active") {
    const renewed = await orchard.heartbeat({ repo: path, target: path, owner, ...pid });
    return result(
      ref,
      "session-start",
      renewed.ok ? { action: "renewed", handle: row.handle } : { action: "refused", handle: row.handle, reasons: renewed.reasons },
    );
  }
  // released (at the end of this session, or another's): the session's own worktree is leased to it again,
  // decided on the row as it is under the repo's lock
  return withMutationLock(ctx.repo.commonDir, async () => {
    const now = (await ctx.registry.worktrees.current(ctx.repo.identity)).find((r) => r.path === path);
    if (now?.lifecycle !== "terminal")
      return result(ref, "session-start", {
        action: "refused",
        handle: row.handle,
        reasons: [reason("not_active", { lifecycle: now?.lifecycle ?? "removed" })],
      });
    const lease = await newLease({
      owner,
      pid: host?.pid ?? null,
      ...(host?.startTime ? { pidStart: host.startTime } : {}),
      ttlMs: now.ttlMs ?? DEFAULT_TTL_MS,
    });
    const renewed = await renewLease(ctx, now, lease, leaseLockText(now.handle, lease, ctx.workspace.id), "adopted");
    return result(ref, "session-start", { action: "adopted", handle: renewed.handle });
  });
}

/** The session's lease released; the worktree stays. Orchard releases only a lease this session holds. */
export async function releaseForSession(orchard: Orchard, ref: SessionRef): Promise<SessionHookResult> {
  const owner = ownerOf(ref.harness, ref.sessionId);
  const path = ref.worktree.path;
  const ctx = await orchard.context(path);
  const row = (await ctx.registry.worktrees.current(ctx.repo.identity)).find((r) => r.path === path);
  if (!row || (row.owner !== owner && !(row.lifecycle === "terminal" && row.lastOwner === owner)))
    return result(ref, "session-end", { action: "not_held", handle: row?.handle ?? null });
  const released = await orchard.release({ repo: path, target: path, owner });
  if (!released.ok) return result(ref, "session-end", { action: "refused", handle: row.handle, reasons: released.reasons });
  return result(ref, "session-end", { action: released.action === "released" ? "released" : "already_released", handle: row.handle });
}

/** The result when the session's cwd holds no worktree this session's harness made for it. */
export function notTracked(harness: HarnessHookName, event: SessionHookResult["event"], sessionId: string, path: string | null): SessionHookResult {
  return { ok: true, harness, event, action: "not_tracked", sessionId, owner: ownerOf(harness, sessionId), path, handle: null, reasons: [] };
}
