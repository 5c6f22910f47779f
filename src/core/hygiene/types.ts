// Result types of `orchard hygiene` (SPEC §3.6) and the facts its pure verdicts read.
import type { Facts } from "../shared/types.js";
import type { Reason } from "../shared/reasons.js";
import type { RepoSummary } from "../inspect/index.js";

export const DISPOSITIONS = ["live", "reclaimable", "reapable", "needs_salvage", "idle", "missing", "husk", "unknown"] as const;
export type Disposition = (typeof DISPOSITIONS)[number];

/** Dispositions that are cleanup work (by `cleanup`, `reap-orphans` or a person); the rest are kept. */
export const BACKLOG: readonly Disposition[] = ["reclaimable", "reapable", "needs_salvage", "missing", "husk"];

/** What is known about a directory under the managed root that git does not list. */
export interface HuskFacts {
  symlink: boolean;
  /** No files at all (only empty directories). */
  empty: boolean;
  /** Files the repository's ignore rules do not ignore; null when it could not be established (no repo, git failed). */
  salvageable: number | null;
  /** Unique ignored files (§4.7: not disposable, not identical to the primary's copy); null when not established. */
  uniqueIgnored: number | null;
  /** A nested git repository inside (a salvage ref would record it as a bare gitlink). */
  nestedRepository: boolean;
  /** The repo identity it belongs to (its `.git` file or its handle's repo name), or null. */
  repo: string | null;
}

/** Everything the classifier reads about one worktree. */
export interface Subject {
  facts: Facts;
  repo: string | null;
  /** `git worktree list` names this path. */
  listed: boolean;
  /** The path is inside `<home>/worktrees`. */
  underRoot: boolean;
  /** Present when the path is a directory git does not list. */
  husk?: HuskFacts;
  /** The directory is a worktree of another primary with the same repo identity. */
  otherPrimary?: string;
  /** The registry row says orchard created the branch (only such branches are ever deleted). */
  createdBranch: boolean;
  /** Why a fact is null, when reading it failed. */
  errors: Partial<Record<"dirty" | "merged", string>>;
  /** `idleAfter` (§3.6) and the snapshot's clock: an ownerless active worktree used more recently is `idle`. Absent: no such rule. */
  idle?: { afterMs: number; now: number };
}

export interface Verdict {
  disposition: Disposition;
  reasons: Reason[];
}

export interface Suggestion {
  action: string;
  /** A shell command line, or null when nothing should be done. */
  command: string | null;
}

export type HygieneWorktree = {
  path: string;
  handle: string | null;
  repo: string | null;
  disposition: Disposition;
  reasons: Reason[];
  suggestion: Suggestion;
} & Facts & { husk?: HuskFacts };

export interface DuplicateTaskGroup {
  repo: string;
  task: string;
  handles: string[];
  canonical: string;
  others: string[];
  /** Two or more members hold work nobody else has: no member is to be removed. */
  conflict: boolean;
}

export interface PatchEquivalentGroup {
  repo: string;
  patchId: string;
  /** Handles of managed worktrees; the path for foreign ones. */
  handles: string[];
  paths: string[];
}

export interface BacklogBucket {
  count: number;
  bytes: number | null;
}

export interface DiskSummary {
  /** Allocated bytes (st_blocks × 512, as `du`) of every measured worktree, each inode once across the fleet. */
  bytes: number;
  /** Apparent bytes (st.size) of the same inodes. */
  apparentBytes: number;
  /** What removing the whole backlog would free (inodes whose every link is inside the backlog). */
  backlogBytes: number;
  measured: number;
  unmeasured: number;
  complete: boolean;
}

export interface HygieneSummary {
  worktrees: number;
  managed: number;
  foreign: number;
  byDisposition: Record<Disposition, number>;
  disk?: DiskSummary;
}

export interface PreventableSuggestion {
  policy: "reuse-compatible" | "recycle-terminal";
  /** The worktree that policy would have taken. */
  handle: string;
  action: string;
}

export interface HygieneReport {
  ok: true;
  generatedAt: string;
  repos: RepoSummary[];
  summary: HygieneSummary;
  worktrees: HygieneWorktree[];
  duplicateTaskGroups: DuplicateTaskGroup[];
  patchEquivalentGroups: PatchEquivalentGroup[];
  preventableDuplicates: {
    count: number;
    recent: {
      at: string;
      repo: string;
      handle: string | null;
      task: string | null;
      owner: string | null;
      data: Record<string, unknown>;
      /** The policy that would really have reused a worktree (null for events recorded before v2). */
      suggestion: PreventableSuggestion | null;
    }[];
  };
  cleanupBacklog: { count: number; bytes: number | null; byDisposition: Partial<Record<Disposition, BacklogBucket>> };
  notes: Reason[];
  html?: string;
}
