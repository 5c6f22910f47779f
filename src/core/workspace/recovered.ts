// Identity without the registry (SPEC §5 v3, §4.11 v4): each managed worktree's admin dir holds
// `orchard.json` (handle, repo, branch, task, owner, base; since v4 the workspace that made it, its
// lifecycle, outcome, last owner and lease). A listed worktree whose registry row is gone
// (orchard.db* deleted) is read as the managed worktree it is: reads take its identity from that
// file, in a row of memory only; a command that holds the repo's mutation lock — a write —
// restores the row, as the file says it was. Only this workspace's own worktrees are recovered: the
// file must name this workspace (or, written before v4, lie under its managed root), the handle
// must be a handle and the path the one inside the workspace it names, and an Orchard lock on it
// must name the same handle and owner. Anything else is another workspace's (foreign_workspace) or
// no managed worktree at all — never recovered, adopted or removed from here.
import type { Registry, WorktreeRow } from "../../registry/index.js";
import type { WorktreeEntry } from "../../git/parse/worktrees.js";
import { findAdminDir, readIdentityFile, type IdentityFile } from "../shared/repo/admin.js";
import { newRow } from "./rows.js";
import { canonicalTask } from "../shared/naming/task.js";
import { heldMutationLock, parseLockOwner } from "../ownership/index.js";
import { isInside, type Workspace } from "./workspace.js";

/** Rows read from identity files and not (yet) in the registry. */
const recovered = new WeakSet<WorktreeRow>();
let nextId = -1;

/** Whether this row stands for an identity file only (no registry row behind it). */
export const isRecovered = (row: WorktreeRow | null | undefined): boolean => !!row && recovered.has(row);

/** What recovery needs of a repo context (shared/repo/repo.ts): where its git dirs are, its identity, the workspace it serves. */
type RepoOfWorkspace = { commonDir: string; identity: string; workspace: Pick<Workspace, "id" | "root"> };

/** Whose a listed worktree without a registry row is: this workspace's (its identity file, validated), another's, or nobody's. */
export type Ownership = { kind: "ours"; identity: IdentityFile } | { kind: "foreign"; workspace: string | null } | { kind: "none" };

const HANDLE = /^[A-Za-z0-9._-]+@[A-Za-z0-9._-]+$/;

/**
 * Whose the listed worktree at `path` is, from its identity file and its git lock (`lockReason`,
 * null when unlocked). Ours only when every part of the identity holds (see the file's head).
 */
export function ownershipOf(repo: RepoOfWorkspace, path: string, options: { admin?: string | undefined; lockReason?: string | null } = {}): Ownership {
  const lock = options.lockReason ? parseLockOwner(options.lockReason) : null;
  const lockWorkspace = lock?.kind === "orchard" ? lock.workspace : undefined;
  const dir = options.admin ?? findAdminDir(repo.commonDir, path);
  const identity = dir ? readIdentityFile(dir) : null;
  const ours = repo.workspace.id;
  if (lockWorkspace !== undefined && lockWorkspace !== ours) return { kind: "foreign", workspace: lockWorkspace };
  if (!identity || typeof identity !== "object" || identity.repo !== repo.identity) return { kind: "none" };
  if (typeof identity.handle !== "string" || (typeof identity.branch !== "string" && identity.branch !== null)) return { kind: "none" };
  const named = typeof identity.workspace === "string" ? identity.workspace : null;
  if (named !== null && named !== ours) return { kind: "foreign", workspace: named };
  const inside = isInside(repo.workspace.root, path) && path === `${repo.workspace.root}/${identity.handle}`;
  // written before workspaces had ids: ours only where our managed root holds it under its handle
  if (named === null && !isInside(repo.workspace.root, path)) return { kind: "foreign", workspace: null };
  if (!HANDLE.test(identity.handle) || identity.handle.includes("..") || !inside) return { kind: "none" };
  if (lock?.kind === "orchard" && (lock.handle !== identity.handle || lock.owner !== (identity.lease?.owner ?? identity.owner))) return { kind: "none" };
  return { kind: "ours", identity };
}

/** The identity file of the listed worktree at `path`, when it is this workspace's own (ownershipOf). */
export function identityOf(repo: RepoOfWorkspace, path: string, options: { admin?: string | undefined; lockReason?: string | null } = {}): IdentityFile | null {
  const owned = ownershipOf(repo, path, options);
  return owned.kind === "ours" ? owned.identity : null;
}

/** The row an identity file stands for, as the file says it was (a file before v4: active, its owner's lease without a heartbeat). */
function rowOf(identity: IdentityFile, path: string): WorktreeRow {
  const lease = identity.lease;
  const fields = newRow({
    repo: identity.repo,
    handle: identity.handle,
    path,
    branch: identity.branch,
    baseRef: identity.base?.ref ?? null,
    baseCommit: identity.base?.commit ?? null,
    task: identity.task === null ? null : canonicalTask(identity.task, identity.repo),
    taskRaw: identity.task,
    ...(identity.lifecycle === "terminal" ? { lifecycle: "terminal" as const, owner: null } : {}),
    ...(identity.outcome !== undefined ? { outcome: identity.outcome as WorktreeRow["outcome"] } : {}),
    ...(identity.lastOwner !== undefined ? { lastOwner: identity.lastOwner } : {}),
    ...(lease
      ? { owner: lease.owner, pid: lease.pid, pidStart: lease.pidStart, host: lease.host, heartbeatAt: lease.heartbeatAt, ttlMs: lease.ttlMs }
      : lease === null
        ? { owner: null }
        : { owner: identity.owner }),
  });
  const fp = identity.fingerprints;
  const str = (v: unknown): string | null => (typeof v === "string" && /^([0-9a-f]{64}|failed)$/.test(v) ? v : null);
  if (fp && typeof fp === "object") Object.assign(fields, { fpBootstrap: str(fp.bootstrap), fpContext: str(fp.context), fpRuntime: str(fp.runtime) });
  return { ...fields, id: nextId--, updatedAt: fields.createdAt };
}

/** A row of memory for one of this workspace's identity files (isRecovered): what a verdict reads without the registry. */
export function recoveredRowOf(identity: IdentityFile, path: string): WorktreeRow {
  const row = rowOf(identity, path);
  recovered.add(row);
  return row;
}

/** Writes the registry row an identity file stands for (event `adopted`, recoveredFrom orchard.json). */
export async function restoreRow(registry: Registry, identity: IdentityFile, path: string): Promise<WorktreeRow> {
  const { id: _id, updatedAt: _updated, ...fields } = rowOf(identity, path);
  return await registry.write(async () => {
    const row = await registry.worktrees.insert(fields);
    await registry.events.append({
      kind: "adopted",
      repo: row.repo,
      handle: row.handle,
      task: row.task,
      owner: row.owner,
      data: { path: row.path, recoveredFrom: "orchard.json" },
    });
    return row;
  });
}

/**
 * Rows for the listed worktrees that have none in `rows` but an identity file of this repo: restored
 * in the registry when this chain holds the repo's mutation lock, else rows of memory (isRecovered).
 */
export async function recoverRows(
  registry: Registry,
  repo: RepoOfWorkspace,
  entries: readonly WorktreeEntry[],
  rows: readonly Pick<WorktreeRow, "path" | "handle">[],
  admins: ReadonlyMap<string, string>,
): Promise<WorktreeRow[]> {
  const paths = new Set(rows.map((r) => r.path));
  const handles = new Set(rows.map((r) => r.handle));
  const write = heldMutationLock(repo.commonDir) !== undefined && !registry.isDetached;
  const found: WorktreeRow[] = [];
  for (const entry of entries) {
    const admin = admins.get(entry.path);
    if (paths.has(entry.path) || admin === undefined) continue;
    const identity = identityOf(repo, entry.path, { admin, lockReason: entry.locked ? entry.lockReason : null });
    if (!identity || handles.has(identity.handle)) continue;
    handles.add(identity.handle);
    if (write) found.push(await restoreRow(registry, identity, entry.path));
    else {
      const row = rowOf(identity, entry.path);
      recovered.add(row);
      found.push(row);
    }
  }
  return found;
}
