// Identity without the registry (SPEC §5, v3): each managed worktree's admin dir holds
// `orchard.json` (handle, repo, branch, task, owner, base). A listed worktree whose registry row is
// gone (orchard.db* deleted, another registry) is read as the managed worktree it is: reads take its
// identity from that file, in a row of memory only (never a lease: the git lock text decides its
// liveness as for any row-less worktree); a command that holds the repo's mutation lock — a write —
// restores the row.
import type { Registry, WorktreeRow } from "../../registry/index.js";
import type { WorktreeEntry } from "../../git/parse/worktrees.js";
import { findAdminDir, readIdentityFile, type IdentityFile } from "./repo/admin.js";
import { newRow } from "./rows.js";
import { canonicalTask } from "./naming/task.js";
import { heldMutationLock } from "../ownership/index.js";

/** Rows read from identity files and not (yet) in the registry. */
const recovered = new WeakSet<WorktreeRow>();
let nextId = -1;

/** Whether this row stands for an identity file only (no registry row behind it). */
export const isRecovered = (row: WorktreeRow | null | undefined): boolean => !!row && recovered.has(row);

/** The identity file of the listed worktree at `path`, when it names this repo. */
export function identityOf(commonDir: string, repo: string, path: string, admin?: string): IdentityFile | null {
  const dir = admin ?? findAdminDir(commonDir, path);
  const identity = dir ? readIdentityFile(dir) : null;
  return identity && identity.repo === repo && typeof identity.handle === "string" && typeof identity.branch === "string" ? identity : null;
}

function rowOf(identity: IdentityFile, path: string): WorktreeRow {
  const fields = newRow({
    repo: identity.repo,
    handle: identity.handle,
    path,
    branch: identity.branch,
    baseRef: identity.base?.ref ?? null,
    baseCommit: identity.base?.commit ?? null,
    task: identity.task === null ? null : canonicalTask(identity.task, identity.repo),
    taskRaw: identity.task,
    owner: identity.owner,
  });
  return { ...fields, id: nextId--, updatedAt: fields.createdAt };
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
  repo: { commonDir: string; identity: string },
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
    const identity = identityOf(repo.commonDir, repo.identity, entry.path, admin);
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
