// Candidates (SPEC §3.1 step 4): existing managed worktrees that could serve the request, looked
// for before anything is allocated — only with a task, or when the requested branch already has
// commits beyond the base.
// - same_task: same canonical task, lifecycle active or terminal;
// - patch_equivalent: the cumulative patch since the merge-base with the base
//   (`git diff <merge-base> HEAD | git patch-id --stable`) equals the requested branch's.
// Eligible = the exact-handle rules with unpushed commits and base drift blocking, judged against
// the candidate's own branch, plus every fingerprint established. A terminal candidate is only ever
// taken by recycle, which starts it afresh at the new base: its old base does not matter, and its
// own commits need no remote once they are merged (a departure: docs/ARCHITECTURE.md). Order:
// eligible first, same_task before patch_equivalent, newest activity, then handle — deterministic.
import { harnessHold } from "../harness/index.js";
import { countRevs, readMergeBase, readPatchId } from "../../git/read.js";
import type { Ctx } from "../shared/context.js";
import type { AddRequest, Candidate, CandidateKind } from "../shared/request.js";
import { reason, type Reason } from "../shared/reasons/reasons.js";
import type { WorktreeRow } from "../../registry/index.js";
import { readSnapshot, factsOf, type Snapshot } from "../facts/index.js";
import { assessExact } from "./verdict.js";
import { allEstablished } from "../bootstrap/index.js";
import { mapLimit, DEFAULT_PARALLELISM } from "../shared/pool.js";
import type { Facts } from "../shared/types.js";
import { leaseLive } from "./exclusive.js";
import { readAncestors, readCallerHolds } from "../ownership/index.js";

type Request = Pick<AddRequest, "branch" | "task" | "explicitBase" | "owner"> & { pid?: number | null; ancestors?: readonly number[] };

/** The requested branch's cumulative patch-id, when it exists (at `tip`) with commits beyond the base. */
async function requestedPatchId(ctx: Ctx, tip: string | null, base: string): Promise<string | null> {
  if (tip === null || tip === base || (await countRevs(ctx.repo.primary, tip, [base])) === 0) return null;
  const mergeBase = await readMergeBase(ctx.repo.primary, base, tip);
  return mergeBase ? readPatchId(ctx.repo.primary, mergeBase, tip) : null;
}

function headOf(snapshot: Snapshot, row: WorktreeRow): string | null {
  return (
    snapshot.entries.find((e) => e.path === row.path)?.head ?? (row.branch !== null ? snapshot.refs.get(`refs/heads/${row.branch}`)?.oid : undefined) ?? null
  );
}

async function patchIdOf(ctx: Ctx, head: string, base: string): Promise<string | null> {
  const mergeBase = await readMergeBase(ctx.repo.primary, base, head);
  return mergeBase && mergeBase !== head ? readPatchId(ctx.repo.primary, mergeBase, head) : null;
}

/** Eligibility of one candidate (pure over its facts). */
export function assessCandidate(facts: Facts, row: WorktreeRow, request: Request): Reason[] {
  const own = {
    branch: facts.branch ?? row.branch,
    task: request.task,
    baseRef: request.explicitBase,
    owner: request.owner,
    resume: false,
    ...(request.ancestors ? { ancestors: request.ancestors } : {}),
  };
  const reasons = assessExact(facts, own, { strict: true }).reasons.filter((r) => !(row.lifecycle === "terminal" && mootForRecycle(r, facts)));
  if (facts.missing) reasons.push(reason("missing_directory", { path: facts.path }));
  if (own.branch === null) reasons.push(reason("detached", { path: facts.path })); // no branch to hand out or recycle from
  const held = harnessHold(facts.harness); // its harness drops it: never handed out or recycled
  if (held) reasons.push(held);
  const fp = facts.fingerprints;
  if (!allEstablished(fp) && !fp.drift.includes("fingerprint_failed"))
    reasons.push(reason("fingerprint_unknown", { bootstrap: fp.bootstrap, context: fp.context, runtime: fp.runtime }));
  return reasons;
}

/**
 * A reason that cannot stop a recycle (§3.4), the only way a terminal candidate is taken: the base
 * it was made from, moved or another ref (recycle starts it afresh at the requested base — and once
 * a wave merged its work, its base has always moved), and commits on no remote once they are
 * merged into the default branch (work preserved, as the recycle proof judges it).
 */
function mootForRecycle(r: Reason, facts: Facts): boolean {
  if (r.code === "base_drift" || r.code === "base_mismatch") return true;
  return r.code === "unpushed_commits" && (facts.merged?.how ?? null) !== null;
}

const RANK: Record<CandidateKind, number> = { same_task: 0, patch_equivalent: 1 };
/** Plain code-unit order (not locale order), so the result never depends on the machine. */
export const compareText = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

export function orderCandidates(candidates: Candidate[]): Candidate[] {
  return [...candidates].sort(
    (a, b) =>
      Number(b.eligible) - Number(a.eligible) ||
      RANK[a.kind] - RANK[b.kind] ||
      compareText(b.lastActivity ?? "", a.lastActivity ?? "") ||
      compareText(a.handle, b.handle),
  );
}

/** `tip`: the requested branch's commit, read by the caller (null: no such branch). */
export async function findCandidates(ctx: Ctx, request: Request, base: { ref: string; commit: string }, tip: string | null): Promise<Candidate[]> {
  const wanted = await requestedPatchId(ctx, tip, base.commit);
  if (request.task === null && wanted === null) return [];
  const snapshot = await readSnapshot(ctx.repo, ctx.registry);
  const rows = snapshot.rows.filter((r) => r.lifecycle === "active" || r.lifecycle === "terminal");
  const kinds = new Map<number, CandidateKind>();
  for (const row of rows) if (request.task !== null && row.task === request.task) kinds.set(row.id, "same_task");
  if (wanted !== null) {
    const others = rows.filter((r) => !kinds.has(r.id));
    const ids = await mapLimit(others, DEFAULT_PARALLELISM, async (row) => {
      const head = headOf(snapshot, row);
      return head ? patchIdOf(ctx, head, base.commit) : null;
    });
    others.forEach((row, i) => ids[i] === wanted && kinds.set(row.id, "patch_equivalent"));
  }
  const found = rows.filter((r) => kinds.has(r.id));
  const ancestors = found.length > 0 ? await readAncestors() : [];
  const candidates = await mapLimit(found, DEFAULT_PARALLELISM, async (row): Promise<Candidate> => {
    const entry = snapshot.entries.find((e) => e.path === row.path) ?? null;
    const facts = await factsOf(snapshot, entry, row, { full: true });
    const reasons = assessCandidate(facts, row, { ...request, ancestors });
    // the owner's name with another pid would take a live lease over: only its holder may (SPEC v5)
    const repoints = request.pid !== undefined && request.pid !== null && row.pid !== null && request.pid !== row.pid && row.lifecycle === "active";
    if (reasons.length === 0 && repoints && !(await readCallerHolds(row)))
      reasons.push(reason("live_owner", { owner: row.owner, signals: facts.liveness.signals, holderPid: row.pid }, `the lease is held by pid ${row.pid}`));
    return {
      handle: row.handle,
      path: row.path,
      branch: facts.branch ?? row.branch,
      kind: kinds.get(row.id) as CandidateKind,
      lifecycle: row.lifecycle,
      eligible: reasons.length === 0,
      reasons,
      lastActivity: facts.lastActivity,
    };
  });
  return orderCandidates([...candidates, ...(await otherHosts(ctx, request))]);
}

/**
 * Same-task worktrees of other hosts of the fleet (§5): shown with their host and `other_host`,
 * never eligible (the directory is on another machine); a live lease there (by its heartbeat
 * alone) adds `live_owner`, which exclusive-task refuses on. Patch equivalence is not looked for
 * there: another host's branch need not exist here.
 */
async function otherHosts(ctx: Ctx, request: Request): Promise<Candidate[]> {
  if (request.task === null) return [];
  const host = ctx.registry.host;
  const rows = (await ctx.registry.worktrees.fleet(ctx.repo.identity, request.task)).filter(
    (r) => r.host !== host && (r.lifecycle === "active" || r.lifecycle === "terminal"),
  );
  const now = Date.now();
  return rows.map((row) => {
    const reasons: Reason[] = [reason("other_host", { host: row.host })];
    if (leaseLive(row, host, now) && (request.owner === null || row.owner !== request.owner)) reasons.push(reason("live_owner", { owner: row.owner }));
    return {
      handle: row.handle,
      path: row.path,
      branch: row.branch,
      kind: "same_task" as const,
      lifecycle: row.lifecycle,
      eligible: false,
      reasons,
      lastActivity: row.lastActivityAt,
      host: row.host ?? "",
    };
  });
}
