// Result types of `orchard hygiene` (SPEC §3.6) and the facts its pure verdicts read.
import type { DiskFacts, Facts } from "../shared/types.js";
import type { Reason } from "../shared/reasons/reasons.js";
import type { RepoSummary } from "../inspect/index.js";
import type { Lifecycle } from "../../registry/index.js";
import type { LivenessState, LivenessSignalCode } from "../shared/types.js";

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
  /** A foreign lock's age and reap-orphans' guard: a reapable one younger than the guard says when it becomes reapable. */
  lockAge?: { ms: number; guardMs: number; now: number };
  /** `idleAfter` (§3.6) and the snapshot's clock: an ownerless active worktree used more recently is `idle`. Absent: no such rule. */
  idle?: { afterMs: number; now: number };
  /** Its owner is an ended Claude Code session whose transcript is younger than cleanupPeriodDays: `claude --resume` would go on here. */
  resumable?: { sessionId: string; until: string; transcript: string };
}

export interface Verdict {
  disposition: Disposition;
  reasons: Reason[];
  /** A reapable worktree whose lock is younger than reap-orphans' guard: when the sweep will take it. */
  reapableAt?: string;
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
  reapableAt?: string;
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

/** A kept copy of bootstrap.share (hygiene/kept.ts). */
export interface KeptCopyView {
  repo: string;
  key: string;
  path: string;
  dirs: string[];
  /** How the copy was made; null for an incomplete copy. */
  method: string | null;
  createdAt: string | null;
  lastUsed: string;
  /** Worktrees whose recorded fingerprints match the copy's. */
  worktrees: number;
  disposition: "kept" | "reclaimable";
  reasons: Reason[];
  disk?: DiskFacts | null;
}

export interface DiskSummary {
  /** Apparent bytes (st.size) of every measured worktree and kept copy, each inode once across the fleet. */
  bytes: number;
  /** The same as `bytes` (its name before v4). */
  apparentBytes: number;
  /** Allocated bytes (st_blocks × 512, as `du`) of the same inodes: what they take on disk. */
  allocatedBytes: number;
  /** What removing the whole backlog (and the reclaimable kept copies) would free (allocated bytes of inodes whose every link is inside it). */
  backlogBytes: number;
  measured: number;
  unmeasured: number;
  complete: boolean;
  /** Allocated bytes the workspace's trash still holds (entries being purged, ones that could not be, ones not Orchard's); null when out of budget. */
  trashBytes?: number | null;
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
  /** The pristine copies bootstrap.share keeps for the repos in scope (`disk` with --disk). */
  keptCopies?: KeptCopyView[];
  notes: Reason[];
  html?: string;
}

/** A host's summary of one repo, as `hygiene` publishes it (publish.ts). */
export interface PublishedSummary {
  generatedAt: string;
  worktrees: number;
  managed: number;
  foreign: number;
  byDisposition: Record<Disposition, number>;
  /**
   * The cleanup backlog: `reclaimable` what cleanup or reap-orphans converge as it is (reclaimable,
   * reapable, missing, husk); `needsAction` work nobody else has (needs_salvage). `bytes` what
   * removing each would free, null unless every member was measured.
   */
  backlog: { count: number; reclaimable: number; needsAction: number; bytes: number | null };
  /** Apparent (`bytes`, `apparentBytes`) and allocated bytes of the repo's measured worktrees (a file hard-linked between two counts in each); null without --disk. */
  disk: { bytes: number; apparentBytes: number; allocatedBytes?: number; measured: number; unmeasured: number } | null;
  duplicateTaskGroups: number;
  /** This host's preventable duplicates in the repo, all time. */
  preventableDuplicates: number;
}

export type PreventableEvent = HygieneReport["preventableDuplicates"]["recent"][number];

/** One current row of a duplicate-task group across the fleet (`hygiene --fleet`). */
export interface CrossHostMember {
  host: string;
  handle: string;
  path: string;
  branch: string | null;
  owner: string | null;
  lifecycle: Lifecycle;
  heartbeatAt: string | null;
  expiresAt: string | null;
  /** This host's members: from this run's facts; another host's: its lease's heartbeat alone. */
  liveness: { state: LivenessState; signals: { code: LivenessSignalCode; detail: string }[]; from: "facts" | "heartbeat" };
  /** This host's members: the disposition of this run's report; null for another host's. */
  disposition: Disposition | null;
}

/** Current rows of one repo sharing a canonical task, on any hosts, two or more. No canonical member: the work a member holds is a fact only its host can read. */
export interface CrossHostGroup {
  repo: string;
  task: string;
  hosts: string[];
  /** Members on two or more hosts. */
  crossHost: boolean;
  /** Members whose liveness is live. */
  live: number;
  members: CrossHostMember[];
}

/** A host's last published summary of a repo and how old it is (clamped at 0 when the clocks disagree). */
export interface HostBacklog {
  host: string;
  repo: string;
  publishedAt: string;
  ageMs: number;
  summary: PublishedSummary;
}

export interface FleetHygieneReport {
  ok: true;
  generatedAt: string;
  /** The host that made the report (its summaries were published just before). */
  host: string;
  repos: { identity: string; name: string }[];
  /** Every host seen in the rows, events and summaries of the repos in scope. */
  hosts: string[];
  duplicateTaskGroups: CrossHostGroup[];
  preventableDuplicates: { count: number; byHost: Record<string, number>; recent: (PreventableEvent & { host: string | null })[] };
  /** The sum of each host's last published backlog; `bytes` null unless every host measured its backlog. */
  backlog: { count: number; bytes: number | null; byHost: HostBacklog[] };
  /** This host's kept copies of bootstrap.share (as its hygiene lists them). */
  keptCopies: KeptCopyView[];
  notes: Reason[];
  html?: string;
}
