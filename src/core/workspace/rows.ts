// A new registry row of a managed worktree: what every insert shares (active, no lease, no
// fingerprints, no lineage links, times now); callers name what differs.
import type { NewWorktreeRow } from "../../registry/index.js";
import { NO_LEASE } from "../ownership/index.js";

export function newRow(fields: Pick<NewWorktreeRow, "repo" | "handle" | "path" | "branch"> & Partial<NewWorktreeRow>): NewWorktreeRow {
  const now = new Date().toISOString();
  return {
    createdBranch: false,
    baseRef: null,
    baseCommit: null,
    task: null,
    taskRaw: null,
    ...NO_LEASE,
    lastOwner: null,
    lifecycle: "active",
    outcome: null,
    fpBootstrap: null,
    fpContext: null,
    fpRuntime: null,
    recycledFrom: null,
    supersededBy: null,
    createdAt: now,
    releasedAt: null,
    lastActivityAt: now,
    ...fields,
  };
}
