// What `orchard path` answers about a worktree (path.ts, and quick.ts from the registry alone).
import type { WorktreeRow } from "../../registry/index.js";

export interface PathFields {
  path: string;
  handle: string | null;
  branch: string | null;
  task: string | null;
  /** How the argument was read: as a handle, path or branch, as a task, or as the primary (no target, `^`, the default branch). */
  via: "target" | "task" | "primary";
  /** Other worktrees of the same task (task lookup only), most recently used first. */
  others?: string[];
}

/** A task's worktrees: the active ones before the released ones. */
export const RANK: Record<string, number> = { active: 0, terminal: 1 };

/** A managed worktree's fields, from its row. */
export function pathFields(row: Pick<WorktreeRow, "path" | "handle" | "branch" | "task">, via: "target" | "task"): PathFields {
  return { path: row.path, handle: row.handle, branch: row.branch, task: row.task, via };
}
