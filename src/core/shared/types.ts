// Public result types (SPEC §3.3): the Facts of one worktree and the pieces they are made of.
import type { Lifecycle } from "../../registry/index.js";
import type { WorktreeBlock } from "../../git/read.js";

/** The fingerprint reason codes a managed worktree's facts can carry (each a ReasonCode). */
export type FingerprintDrift = "fingerprint_failed" | "bootstrap_drift" | "context_drift" | "runtime_drift";

export type Operation = "merge" | "rebase" | "cherry-pick" | "revert" | "bisect";
export type MergedHow = "same_commit" | "ancestor" | "patch_equivalent" | "merge_adds_nothing";
export type LivenessState = "live" | "dead" | "unknown" | "none";
export type LivenessSignalCode =
  | "pid_alive"
  | "pid_dead"
  | "pid_reused"
  | "pid_unknown"
  | "pid_other_host"
  | "lease_live"
  | "lease_expired"
  | "process_in_worktree"
  | "processes_unknown"
  | "lock_owner_unknown"
  | "lease_unknown";

/** One piece of liveness evidence; `pids`: the processes working inside (process_in_worktree). */
export interface LivenessSignal {
  code: LivenessSignalCode;
  detail: string;
  pids?: number[];
}

export interface LockOwnerFacts {
  kind: "orchard" | "claude-code" | "pid" | "unknown";
  pid?: number;
  startTime?: string;
  host?: string;
}

/** The agent harnesses Orchard recognises on disk (core/harness: one file of shapes each). */
export type HarnessName =
  | "claude-code"
  | "codex"
  | "opencode"
  | "copilot"
  | "gemini"
  | "cursor"
  | "vibe-kanban"
  | "conductor"
  | "sculptor"
  | "workmux"
  | "ccmanager"
  | "crystal"
  | "uzi";

/** Whether the harness still keeps its record of the worktree: `"unknown"` when Orchard cannot read that record. */
export type Tracked = true | false | "unknown";

/** The `harness` of every worktree row (SPEC v5 §1): null when no harness's shape matches. */
export interface HarnessFact {
  name: HarnessName;
  /** The harness's own name for the worktree's session, thread or workspace, when its shape says. */
  session?: string;
  tracked: Tracked;
}

/** Unique ignored files (SPEC §4.7): not disposable, not identical to the primary's copy. */
export interface IgnoredFacts {
  count: number;
  bytes: number;
  /** At most 5 paths, relative to the worktree, sorted. */
  sample: string[];
}

export interface Facts {
  path: string;
  handle: string | null;
  managed: boolean;
  branch: string | null;
  head: string | null;
  detached: boolean;
  lifecycle: Lifecycle | null;
  task: string | null;
  owner: string | null;
  /** Who held the lease a release ended, while nobody holds one: shown, never a live holder. */
  lastOwner?: string;
  base: { ref: string; commit: string; current: string | null; drifted: boolean | null } | null;
  lock: { locked: boolean; reason: string | null; owner: LockOwnerFacts | null };
  liveness: { state: LivenessState; signals: LivenessSignal[] };
  /** `nested`: worktrees or repositories inside (relative paths; SPEC §4.14) — a blocking fact. */
  dirty?: {
    tracked: number;
    untracked: number;
    conflicted: number;
    operation: Operation | null;
    ignored: IgnoredFacts;
    nested?: string[];
    /** Set when harness bookkeeping files (facts/bookkeeping.ts) are every change there is. */
    bookkeeping?: string[];
  } | null;
  /** Another workspace made it (the id its identity file or lock names; null: written before ids): never recovered, adopted, reaped, recycled or removed from here. */
  foreignWorkspace?: string | null;
  /** Something an agent wrote makes git's facts here untrue (a moved work tree, a config file or admin file that cannot be vetted): dirty is unknown (SPEC v4 §4.1). */
  blocked?: WorktreeBlock;
  upstream: { ref: string; ahead: number; behind: number } | null;
  unpushed: number | null;
  /** A detached worktree's commits that only its HEAD reflog keeps (no ref, not HEAD): work lost with the worktree unless salvaged (SPEC v5 §3.11). Present when not 0; null: the reflog could not be read. */
  reflogOnly?: number | null;
  merged?: { target: string | null; how: MergedHow | null } | null;
  fingerprints: { bootstrap: string | null; context: string | null; runtime: string | null; drift: FingerprintDrift[] };
  createdAt: string | null;
  lastActivity: string | null;
  missing: boolean;
  prunable: string | null;
  disk?: DiskFacts | null;
  /** Which agent harness made it, from its disk shape, and whether that harness still tracks it (SPEC v5 §1; core/harness). */
  harness: HarnessFact | null;
}

/**
 * `hygiene --disk` per worktree (SPEC v4 §6): `bytes` apparent (st.size, each inode once; what the
 * files hold), `allocatedBytes` on disk (st_blocks × 512, `du`), `uniqueBytes` what removing it
 * frees (allocated bytes of inodes whose every hard link is inside). `apparentBytes` = `bytes`
 * (its name before v4). `reflinks`: `none` on a filesystem that cannot clone (ext4, tmpfs), so
 * `uniqueBytes` is exact; `read` where it can and the kernel's shared flags (FIEMAP) were read, so
 * blocks a clone shares are not in `uniqueBytes`; `unknown` where they could not be read (no
 * filefrag): `uniqueBytes` may then overstate what removal frees, and every view says so.
 */
export interface DiskFacts {
  bytes: number;
  allocatedBytes: number;
  uniqueBytes: number;
  apparentBytes: number;
  reflinks: "none" | "read" | "unknown";
}

export interface Lease {
  owner: string | null;
  pid: number | null;
  host: string;
  expiresAt: string | null;
}
