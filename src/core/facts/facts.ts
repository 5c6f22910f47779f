// Gathering facts (I/O) into Facts values. A snapshot costs a fixed number of git processes
// whatever the number of worktrees (worktree list, for-each-ref, two batched rev-lists); the
// per-worktree facts (status, patch-level merge proofs) are gathered only when `full` is asked.
import { reachable } from "./graph.js";
import { startSnapshotReads, type SnapshotReads } from "../../git/early.js";
import { existsSync } from "node:fs";
import { resolve } from "node:path";
import { StatusUnknownError, readReflogOnly, readWorktrees, resolveCommit } from "../../git/read.js";
import type { WorktreeEntry } from "../../git/parse/worktrees.js";
import { branchRefOf, type Registry, type WorktreeRow } from "../../registry/index.js";
import { harnessReader, readHarness, type HarnessFact, type HarnessReader } from "../harness/index.js";
import { findAdminDir, readAdminActivity, readAdminCreated, readAdminDirs } from "../shared/repo/admin.js";
import { readDirty, readDirtyState, readDirtyStates, type DirtyState } from "./dirty.js";
import type { StatusSummary } from "../../git/parse/status.js";
import { NO_IGNORED } from "./ignored.js";
import {
  parseLockOwner,
  assessLiveness,
  type PidProbe,
  HOST,
  compareStartTime,
  readPidState,
  processesInside,
  readProcessCwds,
  readStartTime,
  unseenDescription,
  unseenProcesses,
} from "../ownership/index.js";
import type { RepoContext } from "../shared/repo/repo.js";
import { readMerged } from "./merged.js";
import { worktreeTargets } from "./merge-target.js";
import { mergedFrom, readMergedByTarget, type MergedBatch, type MergedFact } from "./merged-batch.js";
import { mapLimit, STATUS_PARALLELISM } from "../shared/pool.js";
import { readFingerprintFacts } from "../bootstrap/index.js";
import type { Facts, LockOwnerFacts } from "../shared/types.js";
import { realOrAbsolute, realOrNull } from "../shared/repo/paths.js";
import { takeEarlyStatuses } from "../shared/early-statuses.js";
import { progressCounter } from "../shared/progress.js";
import { isRecovered, ownershipOf } from "../workspace/index.js";
import { readSnapshot, type Snapshot } from "./snapshot.js";
import { readBlock } from "./boundary.js";

export function countInGraph(graph: ReadonlyMap<string, readonly string[]>, tip: string): number {
  return reachable(graph, [tip]).size;
}

async function probePid(pid: number, host: string | null, startTime: string | null): Promise<PidProbe> {
  if (host && host !== HOST) return { pid, host, state: "other_host" };
  const state = await readPidState(pid);
  if (state !== "alive") return { pid, host, state };
  if (!startTime) return { pid, host, state: "alive" };
  const current = await readStartTime(pid);
  if (current === null) return { pid, host, state: "unknown" };
  const comparison = compareStartTime(startTime, current);
  return { pid, host, state: comparison === "same" ? "alive" : comparison === "different" ? "reused" : "unknown" };
}

export async function readLiveness(options: {
  row: WorktreeRow | null;
  lockReason: string | null;
  path: string;
  cwds: Map<number, string> | null;
  now: number;
  /** Whether the directory exists, when the caller has just looked. */
  present?: boolean;
  /** Its realpath, when the caller has just resolved it (what the process scan's cwds are compared with). */
  real?: string;
  /** The worktree's identity came from its identity file (no registry row): an orchard lock naming nobody is no lease. */
  identityOnly?: boolean;
}): Promise<Facts["liveness"]> {
  const { row } = options;
  const hasLease = !!row && (row.owner !== null || row.pid !== null);
  const owner = options.lockReason === null ? null : parseLockOwner(options.lockReason);
  const probes: PidProbe[] = [];
  if (hasLease && row.pid !== null) probes.push(await probePid(row.pid, row.host, row.pidStart));
  if (owner && owner.kind !== "unknown" && owner.pid !== undefined && !probes.some((p) => p.pid === owner.pid)) {
    const start = "startTime" in owner ? (owner.startTime ?? null) : null;
    const host = owner.kind === "orchard" ? (owner.host ?? null) : null;
    probes.push(await probePid(owner.pid, host, start));
  }
  const present = options.present ?? existsSync(options.path);
  const inside =
    options.cwds === null || !present ? (options.cwds === null ? null : []) : processesInside(options.cwds, options.real ?? realOrAbsolute(options.path));
  return assessLiveness({
    lease: hasLease ? { heartbeatAt: row.heartbeatAt, ttlMs: row.ttlMs, pid: row.pid } : null,
    pids: probes,
    lockOwnerUnknown: owner?.kind === "unknown",
    // the lock text is a lease (§4.10): without its registry row, a pid in it decides; with none, nothing can
    orphanLease:
      !row && owner?.kind === "orchard" && owner.pid === undefined && !(options.identityOnly && owner.owner === null)
        ? { owner: owner.owner, handle: owner.handle, ...(owner.expires !== undefined ? { expires: owner.expires } : {}) }
        : null,
    inside,
    unseen: options.cwds && present ? unseenProcesses(options.cwds) : 0,
    unseenNames: options.cwds && present ? unseenDescription(options.cwds) : "",
    now: options.now,
  });
}

function lockFacts(entry: WorktreeEntry | null): Facts["lock"] {
  if (!entry?.locked) return { locked: false, reason: null, owner: null };
  const parsed = parseLockOwner(entry.lockReason);
  const owner: LockOwnerFacts = { kind: parsed.kind };
  if (parsed.kind !== "unknown") owner.pid = parsed.pid as number;
  if ((parsed.kind === "orchard" || parsed.kind === "claude-code") && parsed.startTime) owner.startTime = parsed.startTime;
  if (parsed.kind === "orchard" && parsed.host) owner.host = parsed.host;
  if (owner.pid === undefined) delete owner.pid;
  return { locked: true, reason: entry.lockReason, owner };
}

function iso(ms: number | null): string | null {
  return ms === null ? null : new Date(ms).toISOString();
}

async function baseFacts(snapshot: Snapshot, row: WorktreeRow | null): Promise<Facts["base"]> {
  if (!row?.baseRef || !row.baseCommit) return null;
  const current = snapshot.refs.get(row.baseRef)?.oid ?? (await resolveCommit(snapshot.repo.primary, row.baseRef));
  return { ref: row.baseRef, commit: row.baseCommit, current, drifted: current === null ? null : current !== row.baseCommit };
}

/** The dirty fact of a worktree whose directory is gone: nothing left to lose there. */
export const MISSING_DIRTY: NonNullable<Facts["dirty"]> = { tracked: 0, untracked: 0, conflicted: 0, operation: null, ignored: NO_IGNORED };

export interface FactsOptions {
  full: boolean;
  /** The worktree's dirty facts already under way (readOneFacts), instead of reading them now. */
  dirty?: Promise<NonNullable<Facts["dirty"]> | null> | null;
  /** Merged facts of every head, batched (listFacts), instead of proving this head alone. */
  merged?: Promise<MergedBatch | null>;
  /** No merge proof (`merged` left unset): the caller judges without it. */
  withoutMerged?: boolean;
}

/** Facts of one worktree (a git entry, a registry row, or both). */
export async function factsOf(snapshot: Snapshot, entry: WorktreeEntry | null, row: WorktreeRow | null, options: FactsOptions): Promise<Facts> {
  const facts = await factsBesideStatus(snapshot, entry, row, options.full);
  if (options.full) await addFullFacts(snapshot, facts, options);
  return facts;
}

/** One harness reader per snapshot: a file every worktree shares (a repository's marker, a harness's state file) is read once. */
const harnessReaders = new WeakMap<Snapshot, HarnessReader>();

/** Which harness made the worktree (core/harness): its shape, then the marker files that shape names. */
function harnessOf(
  snapshot: Snapshot,
  w: { path: string; branch: string | null; admin: string | null; missing: boolean; managed: boolean },
): HarnessFact | null {
  let reader = harnessReaders.get(snapshot);
  if (!reader) harnessReaders.set(snapshot, (reader = harnessReader(process.env, snapshot.repo.workspace.home)));
  return readHarness({ ...w, primary: snapshot.repo.primary, commonDir: snapshot.repo.commonDir }, reader);
}

/** Every fact but `dirty` and `merged` (what needs no status); `full`: the runtime fingerprint too. */
async function factsBesideStatus(snapshot: Snapshot, entry: WorktreeEntry | null, row: WorktreeRow | null, full: boolean): Promise<Facts> {
  const path = entry?.path ?? (row as WorktreeRow).path;
  const admin = snapshot.admins.get(path) ?? null;
  // resolved once: there (a realpath proves it, and the liveness compares it with the process scan's cwds), or looked at
  const real = realOrNull(path);
  const missing = real === null && !existsSync(path);
  const branchRef = entry ? entry.branch : row ? branchRefOf(row) : null;
  const head = entry ? entry.head : branchRef ? (snapshot.refs.get(branchRef)?.oid ?? null) : null;
  const upstreamRecord = branchRef ? snapshot.refs.get(branchRef) : undefined;
  const facts: Facts = {
    path,
    handle: row?.handle ?? null,
    managed: !!row,
    branch: branchRef?.replace(/^refs\/heads\//, "") ?? null,
    head,
    detached: entry?.detached ?? false,
    lifecycle: row?.lifecycle ?? null,
    task: row?.task ?? null,
    owner: row?.owner ?? null,
    ...(row && row.owner === null && row.lastOwner !== null ? { lastOwner: row.lastOwner } : {}), // who held the lease a release ended
    base: await baseFacts(snapshot, row),
    lock: lockFacts(entry),
    // a `creating` row git does not list is never a live holder (SPEC v3 §5): its lease is not one
    // yet; a row read from an identity file has no lease: its lock text decides, as without a row
    liveness: await readLiveness({
      // a row restored from an identity file (v4) carries the lease the registry held: its heartbeat decides
      row: (row?.lifecycle === "creating" && !entry) || (isRecovered(row) && !row?.heartbeatAt) ? null : row,
      identityOnly: isRecovered(row),
      lockReason: entry?.locked ? entry.lockReason : null,
      path,
      cwds: snapshot.cwds,
      now: snapshot.now,
      present: !missing,
      real: real ?? resolve(path), // unresolved but there: its absolute form (realOrAbsolute)
    }),
    upstream:
      upstreamRecord?.upstream && upstreamRecord.track && !upstreamRecord.track.gone
        ? { ref: upstreamRecord.upstream, ahead: upstreamRecord.track.ahead, behind: upstreamRecord.track.behind }
        : null,
    unpushed: snapshot.unpushedGraph && head ? countInGraph(snapshot.unpushedGraph, head) : null,
    fingerprints: row ? await readFingerprintFacts(snapshot.fingerprints, row, head, full) : { bootstrap: null, context: null, runtime: null, drift: [] },
    createdAt: row?.createdAt ?? iso(admin ? readAdminCreated(admin) : null),
    lastActivity: latest(row?.lastActivityAt ?? null, iso(admin ? activityOf(snapshot, admin) : null)),
    missing,
    prunable: entry?.prunable ?? null,
    // managed (a registry row, or an identity file of this workspace): only a marker naming a live session holds it for a harness
    harness: harnessOf(snapshot, { path, branch: branchRef?.replace(/^refs\/heads\//, "") ?? null, admin, missing, managed: !!row }),
  };
  // a worktree another workspace made (its identity file or its lock says so): never ours to act on (SPEC v4 §4.11)
  if (!row && entry) {
    const owned = ownershipOf(snapshot.repo, path, { admin: admin ?? undefined, lockReason: entry.locked ? entry.lockReason : null });
    if (owned.kind === "foreign") facts.foreignWorkspace = owned.workspace;
  }
  return facts;
}

/** An admin dir's newest sign of work: as the snapshot's caller read it with the admin dirs, else now. */
function activityOf(snapshot: Snapshot, admin: string): number | null {
  const read = snapshot.activity?.get(admin);
  return read !== undefined ? read : readAdminActivity(admin);
}

/** `dirty` and `merged`, the facts of `full`, added to the others. */
async function addFullFacts(snapshot: Snapshot, facts: Facts, options: FactsOptions): Promise<void> {
  const { path, head, missing } = facts;
  const admin = snapshot.admins.get(path) ?? null;
  const block = missing ? null : readBlock(path);
  if (block) {
    facts.blocked = block;
    facts.dirty = null;
  } else facts.dirty = missing || !admin ? (missing ? MISSING_DIRTY : null) : await (options.dirty ?? readDirty(snapshot.repo, path, admin));
  await addReflogFact(snapshot.repo, facts, admin);
  if (options.withoutMerged) return;
  // one target for every command (SPEC v4 §3.8): the recorded base branch while it exists, else the default branch
  const targets = factsTargets(snapshot, facts);
  facts.merged = head ? (options.merged ? fromBatch(await options.merged, head, targets) : await readMerged(snapshot, head, targets)) : null;
}

/** A detached HEAD moved away from its commits keeps them in its reflog alone, which goes with the worktree: `reflogOnly` (SPEC v5 §3.11). */
export async function addReflogFact(repo: RepoContext, facts: Facts, admin: string | null | undefined): Promise<void> {
  if (!facts.detached || !admin || facts.missing) return;
  const only = await readReflogOnly(repo.primary, admin, facts.head);
  if (only === null || only.count > 0) facts.reflogOnly = only && only.count;
}

/** The refs a worktree's work is proven merged into (merge-target.ts), from its facts. */
export function factsTargets(snapshot: Snapshot, facts: Pick<Facts, "base" | "branch">): string[] {
  return worktreeTargets(snapshot, { baseRef: facts.base?.ref ?? null, branch: facts.branch });
}

/** A worktree's dirty facts, started now (null when it is not a registered, present worktree); `path` as git lists it. */
export function startDirty(repo: RepoContext, path: string, reads?: SnapshotReads): EarlyFacts | null {
  const admin = findAdminDir(repo.commonDir, path);
  if (!admin || !existsSync(path)) return null;
  // what the focused snapshot will read (`reads`), started with the status by one shell (git/early.ts)
  const listing = reads ? startSnapshotReads(repo.primary, { ...reads, status: path }).listing : undefined;
  const state = readDirtyState(repo, path, admin);
  const dirty = state.then(
    (s) => s.dirty,
    (error: unknown) => {
      if (error instanceof StatusUnknownError) return null; // unknown (readDirty)
      throw error;
    },
  );
  dirty.catch(() => undefined); // awaited by readOneFacts, or dropped when the target resolved elsewhere
  const status = state.then(
    (s) => s.status,
    () => null,
  );
  const scan = (): Promise<Map<number, string> | null> => readProcessCwds();
  // with the listing and the status both running, the process scan waits for the first of them to be
  // done: a core is free then while the other runs (the scan after both adds its time to the call,
  // one beside both slows them); with the status alone (a focused snapshot without the listing,
  // `reads`), it scans now, beside it; the batch's gits are ours to it (git/run.ts)
  const cwds = listing ? Promise.race([dirty, listing]).then(scan, scan) : reads ? Promise.resolve().then(scan) : undefined;
  if (!cwds) return { path, dirty, status }; // the snapshot scans while the status runs
  cwds.catch(() => undefined); // taken by readOneFacts, or dropped with the rest
  return { path, dirty, status, cwds };
}

/** A worktree's facts under way: its status and, where a focused snapshot follows, the process scan. */
export interface EarlyFacts {
  path: string;
  dirty: Promise<NonNullable<Facts["dirty"]> | null>;
  /** git's status there (null when it could not be read), for its HEAD and branch. */
  status: Promise<StatusSummary | null>;
  cwds?: Promise<Map<number, string> | null>;
}

/**
 * Full facts of one worktree (status, adoption): its `git status`, the costly part, runs beside
 * the snapshot's processes instead of after them (or was started even earlier by the caller,
 * `early`, and is used when it is about the same path). `listing`: as for readSnapshot; `focused`:
 * `entry` is git's entry read without the listing (focused-entry.ts), and none is read. `merged:
 * false`: no merge proof (admission's verdict does not look at it), so neither its history walk.
 */
export async function readOneFacts(
  repo: RepoContext,
  registry: Registry,
  target: { entry: WorktreeEntry | null; row: WorktreeRow | null; listing?: WorktreeEntry[] | undefined; focused?: boolean },
  early?: ReturnType<typeof startDirty>,
  options: { merged?: boolean } = {},
): Promise<{ facts: Facts; snapshot: Snapshot }> {
  const path = target.entry?.path ?? target.row?.path ?? null;
  const started = path === null ? null : early?.path === path ? early : startDirty(repo, path);
  const merged = options.merged ?? true;
  const snapshot = await readSnapshot(repo, registry, target.listing, {
    focus: { entry: target.entry, row: target.row },
    mergeGraph: merged,
    ...(started?.cwds ? { cwds: started.cwds } : {}),
    ...(target.focused && target.entry ? { linked: [target.entry] } : {}),
  });
  const facts = await factsOf(snapshot, target.entry, target.row, { full: true, dirty: started?.dirty ?? null, withoutMerged: !merged });
  return { facts, snapshot };
}

function latest(a: string | null, b: string | null): string | null {
  if (!a) return b;
  if (!b) return a;
  return a > b ? a : b;
}

function fromBatch(batch: MergedBatch | null, head: string, targets: readonly string[]): MergedFact | null {
  const fact = mergedFrom(batch, head, targets);
  if (fact instanceof Error) throw fact;
  return fact;
}

/**
 * The statuses of every listed, present worktree, started now through a few shells
 * (readDirtyStates), after one process scan: the shells' git processes are not this process's
 * children, so a scan while they run would count them as someone working inside. Pass `cwds`,
 * `admins` and `states` on to readSnapshot and listFacts.
 */
export async function startStatuses(
  repo: RepoContext,
  listing?: WorktreeEntry[],
): Promise<{ listing: WorktreeEntry[]; cwds: Map<number, string> | null; admins: Map<string, string>; states: Promise<Map<string, DirtyState | Error>> }> {
  const early = await takeEarlyStatuses(repo.commonDir); // started by the command line (early-statuses.ts)
  if (early) {
    const checkouts = early.worktrees.map((path) => ({ path, admin: early.admins.get(path) as string }));
    const states = readDirtyStates(repo, checkouts, early.statuses);
    states.catch(() => undefined); // awaited per worktree by the caller
    return { listing: listing ?? (await readWorktrees(repo.primary)), cwds: early.cwds, admins: early.admins, states };
  }
  const cwds = await readProcessCwds();
  const all = listing ?? (await readWorktrees(repo.primary));
  const admins = readAdminDirs(repo.commonDir);
  const checkouts = all.slice(1).flatMap((e) => {
    const admin = admins.get(e.path);
    return !e.bare && admin && existsSync(e.path) ? [{ path: e.path, admin }] : [];
  });
  const states = readDirtyStates(repo, checkouts);
  states.catch(() => undefined); // awaited per worktree by the caller
  return { listing: all, cwds, admins, states };
}

/** Facts of every linked worktree of the repo, plus registry rows git no longer lists. `full`: with
 * status a few at a time (`states`: started by startStatuses) and the merge proofs of all heads
 * batched beside them, while the other facts are gathered. */
export async function listFacts(snapshot: Snapshot, options: FactsOptions & { states?: Promise<Map<string, DirtyState | Error>> }): Promise<Facts[]> {
  const rowsByPath = new Map(snapshot.rows.map((r) => [r.path, r]));
  const listed = new Set(snapshot.entries.map((e) => e.path));
  const pairs: [WorktreeEntry | null, WorktreeRow | null][] = snapshot.entries.map((e) => [e, rowsByPath.get(e.path) ?? null]);
  for (const row of snapshot.rows) if (!listed.has(row.path) && row.lifecycle !== "creating") pairs.push([null, row]);
  const tick = progressCounter("reading worktrees", pairs.length);
  const counted = (f: Facts): Facts => (tick(f), f);
  if (!options.full) return mapLimit(pairs, 16, async ([entry, row]) => counted(await factsOf(snapshot, entry, row, options)));
  const heads = pairs.flatMap(([entry, row]) => {
    const rowRef = row && branchRefOf(row);
    const head = entry ? entry.head : rowRef ? snapshot.refs.get(rowRef)?.oid : null;
    const branch = entry ? (entry.branch?.replace(/^refs\/heads\//, "") ?? null) : (row?.branch ?? null);
    const baseRef = row?.baseRef && row.baseCommit ? row.baseRef : null; // as baseFacts reads it
    return head ? [{ head, targets: worktreeTargets(snapshot, { baseRef, branch }) }] : [];
  });
  const merged = readMergedByTarget(snapshot, heads);
  merged.catch(() => undefined); // awaited per worktree; a failed status must not leave it unhandled
  const states =
    options.states ??
    readDirtyStates(
      snapshot.repo,
      pairs.flatMap(([entry]) => {
        const admin = entry ? snapshot.admins.get(entry.path) : undefined;
        return entry && admin && existsSync(entry.path) ? [{ path: entry.path, admin }] : [];
      }),
    );
  states.catch(() => undefined); // awaited per worktree, like the merge proofs
  const dirtyOf = async (path: string): Promise<NonNullable<Facts["dirty"]> | undefined> => {
    const state = (await states).get(path);
    if (state instanceof StatusUnknownError) return undefined; // read alone: unknown (readDirty)
    if (state instanceof Error) throw state;
    return state?.dirty;
  };
  const facts = await mapLimit(pairs, 16, ([entry, row]) => factsBesideStatus(snapshot, entry, row, true)); // beside the statuses
  return mapLimit(facts, STATUS_PARALLELISM, async (f, i) => {
    const entry = (pairs[i] as [WorktreeEntry | null, WorktreeRow | null])[0];
    const batched = entry ? await dirtyOf(entry.path) : undefined;
    await addFullFacts(snapshot, f, { ...options, merged, ...(batched ? { dirty: Promise.resolve(batched) } : {}) });
    return counted(f);
  });
}
