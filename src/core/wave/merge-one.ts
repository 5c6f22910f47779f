// `orchard merge <handle>` (SPEC v4 §3): cleanup-wave's one-entry form. The worktree is named by
// the caller (a handle, a path, or its branch), so the wave's branch allowlist does not apply; the
// expected base is the merge-base the branch has with the target now (the caller names no other),
// and every other proof of §3.9 holds as in a wave: clean, nobody inside, no deletions unless
// allowed, a conflict touches nothing, the removal is verified, the branch deleted compare-and-swap.
// A rerun after a partial run finishes it (an entry already merged goes on to removal). Its commit
// carries git's words (messages.ts), and its result is about this one worktree (SPEC v5 §3.9).
import { readMergeBase, resolveCommit } from "../../git/read.js";
import { resolveTarget } from "../shared/repo/target.js";
import { peekListing } from "../shared/repo/repo.js";
import { OrchardError, usageError } from "../shared/errors.js";
import type { Ctx } from "../shared/context.js";
import { REASON_TEXT, type Reason } from "../shared/reasons/reasons.js";
import type { Strategy } from "../shared/input/inputs.js";
import { resolveWaveTarget, runWave, type WaveOptions, type WaveResult, type WaveResultEntry } from "./wave.js";

export interface MergeOptions extends Omit<WaveOptions, "manifest" | "continueOnBlock"> {
  /** The worktree to merge back and remove: a handle, a path, or its branch. */
  target: string;
  /** The commit message (default git's: `Merge branch '<b>'`, or a squash's list of its commits). */
  message?: string;
}

/** What `orchard merge` did to its one worktree. */
export interface MergeResult {
  /** false when something blocks (`reasons`, each with its `next`); nothing landed then. */
  ok: boolean;
  /**
   * merged (landed, the worktree removed, the branch deleted), already_merged (nothing to land:
   * removed and deleted), already_done (a rerun: nothing left), planned (--dry-run: `steps`),
   * blocked, or branch_kept (merged and removed, the branch delete failed: `reasons`).
   */
  action: "merged" | "already_merged" | "already_done" | "planned" | "blocked" | "branch_kept";
  handle: string | null;
  path: string;
  branch: string;
  /** The checkout merged into and its branch. */
  into: { path: string; branch: string | null };
  strategy: Strategy;
  steps?: string[];
  reasons: Reason[];
  notes?: Reason[];
  dryRun?: true;
}

/** A wave outcome's code and evidence as a reason of this one worktree. */
function asReason(e: WaveResultEntry, into: string | null): Reason {
  const code = e.reason as Reason["code"];
  const evidence: Record<string, unknown> = {};
  let detail: string | undefined;
  if ("conflicts" in e && e.conflicts) {
    evidence.conflicts = e.conflicts;
    evidence.into = into;
  }
  if ("files" in e && e.files) evidence.files = e.files;
  if ("harness" in e && e.harness) Object.assign(evidence, { harness: e.harness.name, session: e.harness.session, drop: e.harness.drop });
  if ("stderr" in e && e.stderr) detail = e.stderr;
  return { code, message: detail ? `${REASON_TEXT[code]}: ${detail}` : REASON_TEXT[code], next: null, ...evidence } as Reason;
}

function oneWorktree(r: WaveResult, handle: string | null, into: { path: string; branch: string | null }): MergeResult {
  const e = r.result.entries[0];
  const base = { handle, path: e?.worktree_path ?? r.plan.entries[0]?.worktree_path ?? "", branch: e?.branch ?? "", into, strategy: r.strategy };
  const tail = { ...(r.notes ? { notes: r.notes } : {}), ...(r.dryRun ? { dryRun: true as const } : {}) };
  if (!e) return { ok: false, action: "blocked", ...base, reasons: r.reasons ?? [], ...tail };
  if (e.status === "blocked") return { ok: false, action: "blocked", ...base, reasons: [asReason(e, into.branch)], ...tail };
  if (e.status === "warning") return { ok: true, action: "branch_kept", ...base, reasons: [asReason(e, into.branch)], ...tail };
  if (e.status === "planned") return { ok: true, action: "planned", ...base, steps: e.steps, reasons: [], ...tail };
  const action = e.reason === "ok" ? "merged" : e.reason;
  return { ok: true, action, ...base, reasons: [], ...tail };
}

/**
 * The worktree `named` names now; or, once a merge of it finished (its row retired, a `removed`
 * event by cleanup-wave), where it was: a rerun then finds it done (already_done) or finishes it.
 */
async function locate(ctx: Ctx, named: string): Promise<{ path: string; branch: string | null; handle: string | null }> {
  try {
    const t = await resolveTarget(ctx, named, peekListing(ctx.repo)); // the listing read while resolving the repo: input, not a proof
    const branch = t.entry?.branch?.replace(/^refs\/heads\//, "") ?? (t.entry ? null : (t.row?.branch ?? null));
    return { path: t.path, branch, handle: t.row?.handle ?? null };
  } catch (error) {
    if (!(error instanceof OrchardError && error.code === "not_a_worktree") || !named.includes("@")) throw error;
    const events = await ctx.registry.events.for({ handle: named });
    const last = events.filter((e) => e.kind === "removed" && e.handle === named && e.repo === ctx.repo.identity).at(-1);
    const data = (last?.data ?? {}) as { by?: string; path?: string; branch?: string };
    if (data.by !== "cleanup-wave" || !data.path || !data.branch) throw error;
    return { path: data.path, branch: data.branch, handle: named };
  }
}

const escapeRegExp = (text: string): string => text.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&");

export async function mergeOne(ctx: Ctx, options: MergeOptions): Promise<MergeResult> {
  const { target: named, message, ...rest } = options;
  const worktree = await locate(ctx, named);
  const branch = worktree.branch;
  if (!branch) throw usageError("invalid_argument", `${named} is not on a branch: check one out, or remove it with orchard remove`);
  const into = await resolveWaveTarget(ctx, options.into);
  const branchRef = `refs/heads/${branch}`;
  const tip = await resolveCommit(ctx.repo.primary, branchRef);
  // the branch gone too (a finished merge): any commit does, the wave proves the entry done
  const base = tip
    ? ((into.branch ? await readMergeBase(ctx.repo.primary, `refs/heads/${into.branch}`, tip) : null) ?? tip)
    : await resolveCommit(ctx.repo.primary, "HEAD");
  if (!base) throw usageError("invalid_argument", `${branch} has no commits`);
  const entry = { worktree_path: worktree.path, branch, expected_base: base };
  const wording = { style: "git" as const, message };
  const run = await runWave(ctx, [entry], into, { ...rest, wording, progress: `merging ${branch}` }, `^${escapeRegExp(branch)}$`);
  return oneWorktree(run, worktree.handle, into);
}
