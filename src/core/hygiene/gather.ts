// Gathering what hygiene decides on, for one repo, without a process storm. The snapshot costs a
// fixed number of git processes; per worktree there is exactly one `git status --ignored=matching`
// (dirty state, unique ignored files, and the digest cleanup preconditions compare), a few at a
// time. Merged proofs for every head are batched (proveMergedMany: the snapshot's graph answers
// same commit and ancestor; one patch-id pass and one `merge-tree --stdin` run the patch-level
// proofs) and run beside the statuses. Patch-ids for patchEquivalentGroups are batched (three
// processes for the repo), their merge-bases read off the graph when it has a single boundary.
import { basename, dirname } from "node:path";
import { existsSync } from "node:fs";
import { readMergeBase, readPatchIds, readWorktrees, WorktreeBlockedError } from "../../git/read.js";
import type { WorktreeEntry } from "../../git/parse/worktrees.js";
import type { WorktreeRow } from "../../registry/index.js";
import {
  readSnapshot,
  listFacts,
  addReflogFact,
  factsOf,
  readMergedByTarget,
  mergedFrom,
  factsTargets,
  distinctTargets,
  dirtyDigest,
  readDirtyState,
  readDirtyStates,
  startStatuses,
  focusedEntry,
  registeredAdmin,
  MISSING_DIGEST,
  MISSING_DIRTY,
  type Snapshot,
  type MergeTarget,
  type DirtyState,
} from "../facts/index.js";
import { mapLimit, DEFAULT_PARALLELISM, STATUS_PARALLELISM } from "../shared/pool.js";
import { isInside, type Ctx } from "../shared/context.js";
import { readGitPointer, readHuskFacts, type KnownRepo } from "./husk.js";
import type { RepoSummary } from "../inspect/index.js";
import type { Facts } from "../shared/types.js";
import type { Subject } from "./types.js";
import { readResumable } from "../shared/claude/resumable.js";
import { realOrAbsolute } from "../shared/repo/paths.js";
import { takeListing } from "../shared/repo/repo.js";
import { parseDuration } from "../shared/input/duration.js";
import { findAdminDir, readLockMtime } from "../shared/repo/admin.js";
import { readProcessCwds } from "../ownership/index.js";

export interface RepoGather {
  ctx: Ctx;
  summary: RepoSummary;
  snapshot: Snapshot;
  subjects: Subject[];
  /** path → digest of its uncommitted state ("clean", "missing", or a sha256). */
  digests: Map<string, string>;
  /** path → stable patch-id of its own commits since the merge-base with the default branch. */
  patchIds: Map<string, string>;
  /** A focused gather: git's whole listing, read under the caller's lock (which branch each worktree has checked out). */
  listing?: WorktreeEntry[];
}

/** The merge-base of `head` with the only target, read off the graph when it has one boundary commit. */
async function mergeBaseOf(snapshot: Snapshot, head: string, target: MergeTarget, single: boolean): Promise<string | null> {
  const graph = snapshot.unmergedGraph as ReadonlyMap<string, readonly string[]>;
  if (single) {
    const boundary = new Set<string>();
    const seen = new Set<string>();
    const stack = [head];
    while (stack.length) {
      const commit = stack.pop() as string;
      if (seen.has(commit)) continue;
      seen.add(commit);
      for (const parent of graph.get(commit) ?? []) graph.has(parent) ? stack.push(parent) : boundary.add(parent);
    }
    if (boundary.size === 1) return [...boundary][0] as string;
    if (boundary.size === 0) return null; // unrelated history: no common base
  }
  return readMergeBase(snapshot.repo.primary, head, target.oid);
}

async function readPatchGroupsInput(snapshot: Snapshot, facts: Facts[]): Promise<Map<string, string>> {
  const targets = distinctTargets(snapshot.targets, snapshot.refs);
  const graph = snapshot.unmergedGraph;
  const byPath = new Map<string, string>();
  if (!graph || targets.length === 0) return byPath;
  const own = facts.filter((f) => f.head && !f.missing && graph.has(f.head));
  const pairs = (
    await mapLimit(own, DEFAULT_PARALLELISM, async (f) => {
      const base = await mergeBaseOf(snapshot, f.head as string, targets[0] as MergeTarget, targets.length === 1);
      return base ? { path: f.path, from: base, to: f.head as string } : null;
    })
  ).filter((p): p is { path: string; from: string; to: string } => p !== null);
  const ids = await readPatchIds(snapshot.repo.primary, pairs);
  for (const p of pairs) {
    const id = ids.get(p.to);
    if (id) byPath.set(p.path, id);
  }
  return byPath;
}

export const DEFAULT_IDLE_AFTER_MS = 24 * 60 * 60 * 1000;

function idleAfterMs(ctx: Ctx): number {
  const configured = ctx.repo.config.config.idleAfter;
  return configured ? parseDuration(configured) : DEFAULT_IDLE_AFTER_MS;
}

const DEFAULT_REAP_GUARD_MS = 5 * 60_000;

/** reap-orphans' default guard (config `reap.guard`, else 5 min); an invalid one was refused when the config was read. */
function reapGuardMs(ctx: Ctx): number {
  const configured = ctx.repo.config.config.reap?.guard;
  return configured ? parseDuration(configured) : DEFAULT_REAP_GUARD_MS;
}

/** What a gather decides on: the snapshot, each worktree's facts, and their statuses under way. */
interface Read {
  snapshot: Snapshot;
  facts: Facts[];
  states: Promise<Map<string, DirtyState | Error>>;
  listing?: WorktreeEntry[];
}

/** Every worktree of the repo: one status per listed, present worktree, by a few shells. */
async function readWhole(ctx: Ctx): Promise<Read> {
  // started before the rest of the snapshot so that its processes and the per-worktree facts run beside them
  const { listing, cwds, admins, states } = await startStatuses(ctx.repo, takeListing(ctx.repo));
  const snapshot = await readSnapshot(ctx.repo, ctx.registry, listing, { cwds, admins });
  return { snapshot, facts: await listFacts(snapshot, { full: false }), states };
}

/**
 * The one worktree at `path` (SPEC v5 §3: a one-worktree verb costs one worktree): git's entry for
 * it, its own admin dir, row and status, and a snapshot focused on it (its branch, its merge targets'
 * refs, the walks from its head alone). Nothing of another worktree is read; a worktree nested inside
 * it shows in its own status, as in the whole gather. With no listing in hand, a worktree git
 * registers is read on git's entry for it alone (core/facts/focused-entry.ts: its admin files and
 * its status), as an exact add and a status do; where that entry cannot be told, git lists them.
 */
async function readFocused(ctx: Ctx, path: string): Promise<Read> {
  const given = takeListing(ctx.repo);
  const registered = given === undefined && existsSync(path) ? registeredAdmin(ctx.repo.commonDir, path) : null;
  const row = (await ctx.registry.worktrees.atPath(ctx.repo.identity, path)) ?? null;
  const cwds = await readProcessCwds(); // before the status starts: its git is not this process's child
  let early: { admin: string; states: Promise<Map<string, DirtyState | Error>> } | null = null;
  if (registered !== null) {
    early = { admin: registered, states: readDirtyStates(ctx.repo, [{ path, admin: registered }]) };
    early.states.catch(() => undefined); // awaited per worktree by the caller
    const state = (await early.states).get(path);
    const entry = state && !(state instanceof Error) ? focusedEntry(path, registered, state.status) : null;
    if (entry) return await focusedRead(ctx, path, { entry, row, cwds, admin: registered, states: early.states });
  }
  const listing = given ?? (await readWorktrees(ctx.repo.primary));
  const entry = listing.slice(1).find((e) => !e.bare && e.path === path) ?? null;
  const admin = entry ? findAdminDir(ctx.repo.commonDir, entry.path) : undefined;
  const states =
    early !== null && early.admin === admin ? early.states : readDirtyStates(ctx.repo, admin !== undefined && existsSync(path) ? [{ path, admin }] : []);
  states.catch(() => undefined); // awaited per worktree by the caller
  return { ...(await focusedRead(ctx, path, { entry, row, cwds, admin, states }, listing)), listing };
}

type SnapshotCwds = Awaited<ReturnType<typeof readProcessCwds>>;

/** The snapshot focused on `path`'s entry and row: on the listing when there is one, else on that entry alone. */
async function focusedRead(
  ctx: Ctx,
  path: string,
  read: { entry: WorktreeEntry | null; row: WorktreeRow | null; cwds: SnapshotCwds; admin: string | undefined; states: Read["states"] },
  listing?: WorktreeEntry[],
): Promise<Read> {
  const { entry, row, cwds, admin, states } = read;
  const admins = new Map(admin === undefined ? [] : [[path, admin]]);
  const snap = await readSnapshot(ctx.repo, ctx.registry, listing, { cwds, admins, focus: { entry, row }, linked: entry ? [entry] : [] });
  // (without a row of its own the snapshot holds every row of the repo: only the one at this path is in focus)
  const snapshot = { ...snap, rows: snap.rows.filter((r) => r.path === path) };
  return { snapshot, facts: await listFacts(snapshot, { full: false }), states };
}

export async function gatherRepo(
  ctx: Ctx,
  repos: readonly KnownRepo[],
  options: { includeResumable: boolean; focus?: string | undefined } = { includeResumable: false },
): Promise<RepoGather> {
  const { snapshot, facts, states, listing } = options.focus === undefined ? await readWhole(ctx) : await readFocused(ctx, options.focus);
  const listed = new Set(snapshot.entries.map((e) => e.path));
  // rows left `creating` that git does not list: listFacts leaves them out, hygiene reports them
  for (const row of snapshot.rows) if (row.lifecycle === "creating" && !listed.has(row.path)) facts.push(await factsOf(snapshot, null, row, { full: false }));
  const rows = new Map(snapshot.rows.map((r) => [r.path, r]));
  // the merge proofs of every head run beside the statuses
  // each against its own target (SPEC v4 §3.8: the recorded base branch while it exists, else the default branch)
  const merged = readMergedByTarget(
    snapshot,
    facts.flatMap((f) => (f.head ? [{ head: f.head, targets: factsTargets(snapshot, f) }] : [])),
  );
  merged.catch(() => undefined); // awaited per subject; a failed status loop must not leave it unhandled
  const digests = new Map<string, string>();
  const subjects = await mapLimit(facts, STATUS_PARALLELISM, async (f): Promise<Subject> => {
    const subject: Subject = {
      facts: f,
      repo: ctx.repo.identity,
      listed: listed.has(f.path),
      underRoot: isInside(ctx.workspace.root, realOrAbsolute(f.path)),
      createdBranch: rows.get(f.path)?.createdBranch ?? false,
      errors: {},
      idle: { afterMs: idleAfterMs(ctx), now: snapshot.now },
    };
    // an ended Claude Code session that `claude --resume` can take up again in this worktree (issue 22 item 4)
    const resumable =
      options.includeResumable || f.liveness.state !== "dead" || f.lifecycle !== "active"
        ? null
        : readResumable(f.owner, { primary: ctx.repo.primary, worktree: f.path, branch: f.branch, admin: snapshot.admins.get(f.path), now: snapshot.now });
    if (resumable) subject.resumable = { sessionId: resumable.sessionId, until: new Date(resumable.until).toISOString(), transcript: resumable.transcript };
    const admin = snapshot.admins.get(f.path);
    const lockMtime = admin && f.lock.locked && !f.managed ? readLockMtime(admin) : null;
    if (lockMtime !== null) subject.lockAge = { ms: snapshot.now - lockMtime, guardMs: reapGuardMs(ctx), now: snapshot.now };
    if (f.missing) {
      f.dirty = MISSING_DIRTY;
      digests.set(f.path, MISSING_DIGEST);
    } else if (subject.listed && admin) {
      try {
        const state = (await states).get(f.path) ?? (await readDirtyState(ctx.repo, f.path, admin));
        if (state instanceof Error) throw state;
        f.dirty = state.dirty;
        digests.set(f.path, dirtyDigest(f.path, state.status, state.operation, state.ignored));
      } catch (error) {
        f.dirty = null;
        if (error instanceof WorktreeBlockedError) f.blocked = error.block;
        else subject.errors.dirty = (error as Error).message;
      }
    } else f.dirty = null;
    await addReflogFact(ctx.repo, f, admin);
    try {
      const proof = f.head ? mergedFrom(await merged, f.head, factsTargets(snapshot, f)) : null;
      if (proof instanceof Error) throw proof;
      f.merged = proof;
    } catch (error) {
      f.merged = null;
      subject.errors.merged = (error as Error).message;
    }
    if (!subject.listed && !f.missing) await describeUnlisted(ctx, subject, repos);
    return subject;
  });
  const patchIds = options.focus === undefined ? await readPatchGroupsInput(snapshot, facts) : new Map<string, string>(); // hygiene's groups only
  return {
    ctx,
    snapshot,
    subjects,
    digests,
    patchIds,
    ...(listing ? { listing } : {}),
    summary: { identity: ctx.repo.identity, name: ctx.repo.name, primary: ctx.repo.primary, defaultBranch: snapshot.defaultBranch?.name ?? null },
  };
}

/** A registry row whose directory exists but git does not list it: a husk, or another primary's worktree. */
async function describeUnlisted(ctx: Ctx, subject: Subject, repos: readonly KnownRepo[]): Promise<void> {
  const pointer = readGitPointer(subject.facts.path);
  if (pointer?.registered && pointer.commonDir && pointer.commonDir !== realOrAbsolute(ctx.repo.commonDir)) {
    subject.otherPrimary = basename(pointer.commonDir) === ".git" ? dirname(pointer.commonDir) : pointer.commonDir;
    return;
  }
  const husk = subject.underRoot ? await readHuskFacts(subject.facts.path, repos) : null;
  if (husk) subject.husk = husk;
}
