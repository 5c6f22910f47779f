// GSD's result shapes (get-shit-done-cc 1.42.3, bin/lib/worktree-safety.cjs, and the reaper of its
// PR 3707), as the adapter returns them. Every field GSD has keeps its name and type; the fields
// Orchard adds (its reasons, its evidence) are optional, so a GSD caller reads what it always read.
import type { Orchard } from "../index.js";

/** The worker's Orchard for a repository (its workspace's, opened once). */
export type OrchardOf = (repo: string) => Promise<Orchard>;

export interface WorktreeContext {
  effectiveRoot: string;
  mode: "current_directory" | "linked_worktree_root";
  reason: "has_local_planning" | "not_git_repo" | "linked_worktree" | "main_worktree";
  /** Orchard: the repository's primary worktree (its main checkout), when cwd is in a repository. */
  primary?: string;
}

export interface PorcelainEntry {
  path: string;
  branch: string;
}

/** Why a listing failed, in GSD's words (`orchard_error`: Orchard failed otherwise; `error` says how). */
export type ListFailure = "not_a_git_repo" | "git_list_failed" | "git_timed_out" | "orchard_error";

export interface OrchardErrorView {
  code: string;
  message: string;
  details?: unknown;
}

export interface PrunePlan {
  repoRoot: string;
  action: "metadata_prune_only" | "skip";
  reason: string;
  destructiveModeRequested: boolean;
  /** Orchard: the registered worktrees whose directory is gone (what the prune acts on). */
  missing?: string[];
  error?: OrchardErrorView;
}

export interface PruneResult {
  ok: boolean;
  action: string;
  reason: string;
  timedOut?: boolean;
  /** The admin entries pruned (GSD's own prune always returns []). */
  pruned: string[];
  /** Orchard: entries it kept, each with its reasons (e.g. locked, unknown). */
  skipped?: { path: string; reasons: string[] }[];
  error?: OrchardErrorView;
}

export interface LinkedPaths {
  ok: boolean;
  reason: "ok" | ListFailure;
  paths: string[];
  error?: OrchardErrorView;
}

export interface InventoryEntry {
  path: string;
  exists: boolean;
  isStale: boolean;
  ageMinutes: number | null;
  /** Orchard, with `{assess: true}`: what hygiene makes of it (live, reclaimable, needs_salvage, missing, unknown, …) and why. */
  disposition?: string;
  reasons?: string[];
}

export interface Inventory {
  ok: boolean;
  reason: "ok" | ListFailure;
  entries: InventoryEntry[];
  error?: OrchardErrorView;
}

export type HealthFinding =
  | { kind: "orphan"; path: string; disposition?: string; reasons?: string[] }
  | { kind: "stale"; path: string; ageMinutes: number | null; disposition?: string; reasons?: string[] };

export interface Health {
  ok: boolean;
  reason: "ok" | ListFailure;
  findings: HealthFinding[];
  error?: OrchardErrorView;
}

export interface ManifestEntry {
  agent_id: string | null;
  worktree_path: string;
  branch: string;
  expected_base: string;
}

/** An entry the manifest rules refuse (Orchard never drops one silently). */
export interface InvalidManifestEntry {
  index: number;
  reason: string;
  message: string;
}

export interface NormalizedManifest {
  ok: boolean;
  reason: "ok" | "invalid_manifest_json" | "empty_manifest" | "invalid_manifest";
  entries: ManifestEntry[];
  invalid?: InvalidManifestEntry[];
}

export interface WavePlan {
  ok: boolean;
  repoRoot: string;
  action: "cleanup_wave" | "skip";
  discovery: "manifest";
  reason: string;
  entries: ManifestEntry[];
  invalid?: InvalidManifestEntry[];
}

export interface WaveEntryResult extends ManifestEntry {
  /** `planned` never comes from a real run (Orchard's dry run only). */
  status: "pending" | "blocked" | "warning" | "merged_removed" | "planned";
  reason: string | null;
  stderr: string;
  /** Orchard: the conflicting paths of a merge it did not start (merge_conflict). */
  conflicts?: string[];
  files?: string[];
  /** Orchard: the agent harness that keeps the worktree (harness_tracked, harness_unverified) and its own way to drop it. */
  harness?: { name: string; session: string | null; drop: string };
}

export interface WaveRunResult {
  ok: boolean;
  action: string;
  reason: string;
  entries: WaveEntryResult[];
  pending: ManifestEntry[];
  /** Orchard: why the wave was refused before any entry (the target's checks), with `next`. */
  reasons?: { code: string; message: string }[];
  notes?: { code: string; message: string }[];
  invalid?: InvalidManifestEntry[];
  error?: OrchardErrorView;
}

export interface ReapResultEntry {
  path: string;
  status: "reaped" | "skipped";
  reason: string;
  /** Orchard: the branch, the lock's owner, the evidence, and the salvage ref when work was saved first. */
  branch?: string | null;
  owner?: unknown;
  detail?: string;
  salvageRef?: string;
}

/** What the worker answers: a result, or an error the main side turns into GSD's failure shape. */
export type Answer<T> = { ok: true; value: T } | { ok: false; error: OrchardErrorView };
