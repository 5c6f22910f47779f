// Admission policies (SPEC §3.1 step 5). Returns a finished result, or null to let admission create.
// - isolated: create; an eligible candidate means the new worktree was a preventable duplicate,
//   which is recorded as an event (the measure of waste a fleet can act on).
// - reuse-compatible: the first eligible candidate that is still active → `reused`.
// - recycle-terminal: the first terminal worktree passing the recycle proof — same task first,
//   then any with the bootstrap fingerprint the new worktree would get, oldest release first.
// - exclusive-task: refuse `task_held_elsewhere` while another owner's live lease holds the same
//   canonical task (a same_task candidate blocked by `live_owner`), else as reuse-compatible.
// A dry run decides the same way and changes nothing (`planned`).
import { resolveCommit } from "../../git/read.js";
import type { WorktreeRow } from "../../registry/index.js";
import type { Ctx } from "../shared/context.js";
import { resultFor, type AddRequest, type AddResult, type Base, type Policy } from "../shared/request.js";
import { compareText } from "./candidates.js";
import type { Candidate } from "../shared/request.js";
import { renewLease } from "./create.js";
import { leaseLockText, newLease } from "../ownership/index.js";
import { readSnapshot } from "../facts/index.js";
import { readBootstrapFingerprintAt } from "../bootstrap/index.js";
import { proveRecyclable, recycleWith, type RecycleProof } from "../recycle/index.js";
import { reason } from "../shared/reasons/reasons.js";

export async function applyPolicy(ctx: Ctx, request: AddRequest, base: Base, candidates: Candidate[]): Promise<AddResult | null> {
  switch (request.policy) {
    case "isolated":
      await recordPreventableDuplicate(ctx, request, base, candidates);
      return null;
    case "reuse-compatible":
      return reuseCompatible(ctx, request, candidates);
    case "recycle-terminal":
      return recycleTerminal(ctx, request, base);
    case "exclusive-task":
      return heldElsewhere(request, candidates) ?? reuseCompatible(ctx, request, candidates);
    default: {
      const never: never = request.policy;
      throw new Error(`unhandled policy ${String(never)}`);
    }
  }
}

/**
 * reuse-compatible's pick: the first eligible candidate that is still active. (Candidates are
 * ordered eligible first, then newest activity, so a just-released terminal one may come first;
 * it is recycle-terminal's to take, and must not hide an eligible active one.)
 */
function firstReusable(candidates: readonly Candidate[]): Candidate | undefined {
  return candidates.find((c) => c.eligible && c.lifecycle === "active");
}

/**
 * The policy that would really have reused an existing worktree for this request, and which one:
 * reuse-compatible takes only an eligible *active* candidate; a terminal one only
 * recycle-terminal can take, and only when it passes the recycle proof. Null: no policy would have.
 */
async function policyThatReuses(ctx: Ctx, request: AddRequest, base: Base, candidates: Candidate[]): Promise<{ policy: Policy; handle: string } | null> {
  const first = firstReusable(candidates);
  if (first) return { policy: "reuse-compatible", handle: first.handle };
  const recyclable = await firstRecyclable(ctx, request, base);
  return recyclable ? { policy: "recycle-terminal", handle: recyclable.row.handle } : null;
}

/** isolated: an allocation an eligible candidate could have spared is recorded, with the policy that would have spared it. */
async function recordPreventableDuplicate(ctx: Ctx, request: AddRequest, base: Base, candidates: Candidate[]): Promise<void> {
  const eligible = candidates.filter((c) => c.eligible).map((c) => c.handle);
  if (eligible.length === 0 || request.dryRun) return;
  const reuse = await policyThatReuses(ctx, request, base, candidates);
  if (!reuse) return; // eligible, yet no policy could have taken it (e.g. terminal and failing the recycle proof): not preventable
  await ctx.registry.write(
    async () =>
      await ctx.registry.events.append({
        kind: "preventable_duplicate",
        repo: ctx.repo.identity,
        handle: request.handle,
        task: request.task,
        owner: request.owner,
        data: { candidates: eligible, handle: request.handle, branch: request.branch, policy: request.policy, wouldReuse: reuse },
      }),
  );
}

function heldElsewhere(request: AddRequest, candidates: Candidate[]): AddResult | null {
  const holders = candidates.filter((c) => c.kind === "same_task" && c.reasons.some((r) => r.code === "live_owner"));
  if (holders.length === 0) return null;
  const reasons = holders.map((c) =>
    reason("task_held_elsewhere", {
      handle: c.handle,
      path: c.path,
      owner: c.reasons.find((r) => r.code === "live_owner")?.owner ?? null,
      ...(c.host ? { host: c.host } : {}),
    }),
  );
  return resultFor(request, "refused", { reasons, candidates });
}

async function reuseCompatible(ctx: Ctx, request: AddRequest, candidates: Candidate[]): Promise<AddResult | null> {
  const first = firstReusable(candidates);
  if (!first) return null;
  const row = await ctx.registry.worktrees.byHandle(first.handle);
  if (!row) return null;
  const head = await resolveCommit(row.path, "HEAD");
  const bootstrap = { status: "reused" as const, fingerprint: row.fpBootstrap, steps: [] };
  if (request.dryRun)
    return resultFor(request, "planned", { row, head, bootstrap, notes: [reason("reuse_planned", { handle: row.handle, requested: request.handle })] });
  const lease = await newLease(request);
  const renewed = await renewLease(ctx, row, lease, leaseLockText(row.handle, lease, ctx.workspace.id), "reused");
  return resultFor(request, "reused", { row: renewed, head, bootstrap });
}

/** Terminal rows in the order the policy tries them. */
export function recycleOrder(rows: readonly WorktreeRow[], task: string | null, fingerprint: string): WorktreeRow[] {
  const byRelease = (a: WorktreeRow, b: WorktreeRow): number => compareText(a.releasedAt ?? "", b.releasedAt ?? "") || a.id - b.id;
  const terminal = rows.filter((r) => r.lifecycle === "terminal");
  const sameTask = task === null ? [] : terminal.filter((r) => r.task === task).sort(byRelease);
  const compatible = terminal.filter((r) => !sameTask.includes(r) && r.fpBootstrap === fingerprint).sort(byRelease);
  return [...sameTask, ...compatible];
}

/** The terminal worktree recycle-terminal would take: the first in recycleOrder that passes the recycle proof. */
async function firstRecyclable(ctx: Ctx, request: AddRequest, base: Base): Promise<(RecycleProof & { row: WorktreeRow }) | null> {
  const tip = await resolveCommit(ctx.repo.primary, `refs/heads/${request.branch}`);
  const fingerprint = await readBootstrapFingerprintAt(ctx.repo, tip ?? base.commit);
  const snapshot = await readSnapshot(ctx.repo, ctx.registry);
  for (const row of recycleOrder(snapshot.rows, request.task, fingerprint)) {
    const entry = snapshot.entries.find((e) => e.path === row.path) ?? null;
    const proof = await proveRecyclable(ctx, snapshot, { entry, row }, request);
    if (proof.reasons.length === 0) return { ...proof, row };
  }
  return null;
}

async function recycleTerminal(ctx: Ctx, request: AddRequest, base: Base): Promise<AddResult | null> {
  const proof = await firstRecyclable(ctx, request, base);
  return proof ? recycleWith(ctx, request, base, proof) : null;
}
