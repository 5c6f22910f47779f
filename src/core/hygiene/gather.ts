// Gathering what hygiene decides on, for one repo, without a process storm. The snapshot costs a
// fixed number of git processes; per worktree there is exactly one `git status --ignored=matching`
// (dirty state, unique ignored files, and the digest cleanup preconditions compare). Merged proofs come from the snapshot's graph where
// it can answer (same commit, ancestor of the only target: no process); only heads with commits
// of their own run the patch-level proofs. Patch-ids for patchEquivalentGroups are batched (three
// processes for the repo), their merge-bases read off the graph when it has a single boundary.
import { basename, dirname } from "node:path";
import { readMergeBase, readPatchIds } from "../../git/read.js";
import {
  readSnapshot,
  listFacts,
  factsOf,
  proveMerged,
  dirtyDigest,
  readDirtyState,
  MISSING_DIGEST,
  MISSING_DIRTY,
  type Snapshot,
  type MergeTarget,
} from "../facts/index.js";
import { mapLimit, DEFAULT_PARALLELISM } from "../shared/pool.js";
import { isInside, type Ctx } from "../shared/context.js";
import { readGitPointer, readHuskFacts, type KnownRepo } from "./husk.js";
import type { RepoSummary } from "../inspect/index.js";
import type { Facts } from "../shared/types.js";
import type { Subject } from "./types.js";
import { realOrAbsolute } from "../shared/paths.js";
import { parseDuration } from "../shared/duration.js";

export interface RepoGather {
  ctx: Ctx;
  summary: RepoSummary;
  snapshot: Snapshot;
  subjects: Subject[];
  /** path → digest of its uncommitted state ("clean", "missing", or a sha256). */
  digests: Map<string, string>;
  /** path → stable patch-id of its own commits since the merge-base with the default branch. */
  patchIds: Map<string, string>;
}

/** Target refs, one per distinct commit (local main and origin/main usually agree: prove once). */
export function distinctTargets(targets: readonly string[], refs: ReadonlyMap<string, { oid: string }>): MergeTarget[] {
  const seen = new Set<string>();
  const out: MergeTarget[] = [];
  for (const ref of targets) {
    const oid = refs.get(ref)?.oid;
    if (oid && !seen.has(oid)) {
      seen.add(oid);
      out.push({ ref, oid });
    }
  }
  return out;
}

/** Merged facts (§4.5) with the graph's answer first; null when there is no known target. */
async function readMergedFast(snapshot: Snapshot, tips: ReadonlySet<string>, head: string): Promise<NonNullable<Facts["merged"]> | null> {
  const targets = distinctTargets(snapshot.targets, snapshot.refs);
  if (targets.length === 0) return null;
  const same = targets.find((t) => t.oid === head);
  if (same) return { target: same.ref, how: "same_commit" };
  const graph = snapshot.unmergedGraph;
  const known = graph !== null && tips.has(head); // the graph was walked from this head
  if (known && !graph.has(head) && targets.length === 1) return { target: (targets[0] as MergeTarget).ref, how: "ancestor" };
  return proveMerged(snapshot.repo.primary, head, targets, { knownUnmerged: known && graph.has(head) });
}

/** The merge-base of `head` with the only target, read off the graph when it has one boundary commit. */
async function mergeBaseOf(snapshot: Snapshot, head: string, target: MergeTarget, single: boolean): Promise<string | null> {
  const graph = snapshot.unmergedGraph as Map<string, string[]>;
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

export async function gatherRepo(ctx: Ctx, repos: readonly KnownRepo[]): Promise<RepoGather> {
  const snapshot = await readSnapshot(ctx.repo, ctx.registry);
  const facts = await listFacts(snapshot, { full: false });
  const listed = new Set(snapshot.entries.map((e) => e.path));
  // rows left `creating` that git does not list: listFacts leaves them out, hygiene reports them
  for (const row of snapshot.rows) if (row.lifecycle === "creating" && !listed.has(row.path)) facts.push(await factsOf(snapshot, null, row, { full: false }));
  const tips = new Set(snapshot.entries.map((e) => e.head).filter((h): h is string => !!h));
  const rows = new Map(snapshot.rows.map((r) => [r.path, r]));
  const digests = new Map<string, string>();
  const subjects = await mapLimit(facts, DEFAULT_PARALLELISM, async (f): Promise<Subject> => {
    const subject: Subject = {
      facts: f,
      repo: ctx.repo.identity,
      listed: listed.has(f.path),
      underRoot: isInside(ctx.workspace.root, realOrAbsolute(f.path)),
      createdBranch: rows.get(f.path)?.createdBranch ?? false,
      errors: {},
      idle: { afterMs: idleAfterMs(ctx), now: snapshot.now },
    };
    const admin = snapshot.admins.get(f.path);
    if (f.missing) {
      f.dirty = MISSING_DIRTY;
      digests.set(f.path, MISSING_DIGEST);
    } else if (subject.listed && admin) {
      try {
        const state = await readDirtyState(ctx.repo, f.path, admin);
        f.dirty = state.dirty;
        digests.set(f.path, dirtyDigest(f.path, state.status, state.operation, state.ignored));
      } catch (error) {
        f.dirty = null;
        subject.errors.dirty = (error as Error).message;
      }
    } else f.dirty = null;
    try {
      f.merged = f.head ? await readMergedFast(snapshot, tips, f.head) : null;
    } catch (error) {
      f.merged = null;
      subject.errors.merged = (error as Error).message;
    }
    if (!subject.listed && !f.missing) await describeUnlisted(ctx, subject, repos);
    return subject;
  });
  const patchIds = await readPatchGroupsInput(snapshot, facts);
  return {
    ctx,
    snapshot,
    subjects,
    digests,
    patchIds,
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
