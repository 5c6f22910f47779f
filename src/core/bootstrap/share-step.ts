// bootstrap.share inside the bootstrap (SPEC v4 §6). Before the install: the key of the worktree
// (bootstrap fingerprint at its HEAD, runtime fingerprint, shared directories) and the copy kept
// for it. With a whole copy, and none of the directories in the worktree yet, step `share`
// materialises them and the install is not run; without one, the install runs and step
// `share: keep` keeps a pristine copy at once, before the add answers. A worktree that already
// has one of the directories (tracked, preserved, left by a crash) installs as before.
import { resolveCommit } from "../../git/read.js";
import type { WorktreeRow } from "../../registry/index.js";
import type { Ctx } from "../shared/context.js";
import type { BootstrapStep, ShareReport } from "../shared/bootstrap-report.js";
import {
  CloneUnsupported,
  findReady,
  sharedDirsOf,
  keepCopy,
  materialise,
  presentDirs,
  removeKept,
  shareKey,
  sweepStore,
  unprovable,
  type KeptCopy,
  type ShareRequest,
} from "../share/index.js";
import { readBootstrapFingerprintAt, readRuntimeFingerprint } from "./fingerprint-read.js";
import { step } from "./step.js";
import { msNow } from "../../git/result.js";

export interface SharePlan {
  request: ShareRequest;
  key: string;
  /** The whole copy to materialise from; null: install, then keep. */
  copy: KeptCopy | null;
  /** Shared directories the worktree already has (then nothing is materialised). */
  present: string[];
  /** The copy kept for the key changed since it was kept (share_modified): never materialised; the keep replaces it. */
  modified: { copy: KeptCopy; why: string } | null;
}

/** The share plan of a trusted bootstrap; null when bootstrap.share is not set or a fingerprint cannot be established. */
export async function planShare(ctx: Ctx, row: WorktreeRow): Promise<SharePlan | null> {
  const dirs = sharedDirsOf(ctx.repo.config.config);
  if (dirs.length === 0) return null;
  const { home } = ctx.workspace;
  sweepStore(home);
  const head = await resolveCommit(row.path, "HEAD");
  const runtime = await readRuntimeFingerprint(ctx.repo);
  if (!head || runtime === null) return null;
  const bootstrap = await readBootstrapFingerprintAt(ctx.repo, head);
  const method = ctx.repo.config.config.bootstrap?.shareMethod ?? "auto";
  const request: ShareRequest = { home, repo: ctx.repo.name, worktree: row.path, method, bootstrap, runtime, dirs };
  const key = shareKey(request);
  const present = presentDirs(row.path, dirs);
  const copy = present.length ? null : findReady(home, ctx.repo.name, key);
  // a copy without a digest is never materialised; the digest itself is checked while materialising (keep.ts)
  const why = copy ? unprovable(copy) : null;
  return { request, key, present, copy: why === null ? copy : null, modified: copy && why !== null ? { copy, why } : null };
}

/** Step `share` skipped: the kept copy changed since it was kept, so the install runs instead. */
export function modifiedStep(plan: SharePlan, steps: BootstrapStep[], ms = 0): void {
  if (!plan.modified) return;
  steps.push({ name: "share", status: "skipped", ms, reason: "share_modified", notCopied: [{ path: plan.modified.copy.path, why: plan.modified.why }] });
}

const cloneProblem = (error: unknown): never => {
  if (error instanceof CloneUnsupported) throw new Error(`share_clone_unsupported: ${error.message}`);
  throw error;
};

/**
 * Step `share`: the directories from the kept copy. `modified`: the copy's digest differed while
 * materialising (nothing was left in the worktree); the step is then `skipped`, `share_modified`,
 * and the caller installs instead. undefined: the step failed.
 */
export async function materialiseStep(
  plan: SharePlan & { copy: KeptCopy },
  steps: BootstrapStep[],
): Promise<{ share: ShareReport } | { modified: NonNullable<SharePlan["modified"]> } | undefined> {
  const started = msNow();
  const made = await step(
    steps,
    "share",
    async () => {
      try {
        return await materialise(plan.copy, plan.request.worktree, plan.request.method);
      } catch (error) {
        return cloneProblem(error);
      }
    },
    (m) => (m.modified === null ? { files: m.files, method: m.method } : {}),
  );
  if (!made) return undefined;
  if (made.modified !== null) {
    steps.pop(); // the step did not run: skipped, as for a change seen before it
    const modified = { copy: plan.copy, why: made.modified };
    modifiedStep({ ...plan, modified }, steps, Math.round(msNow() - started));
    return { modified };
  }
  return { share: { action: "materialised", method: made.method, key: plan.key, dirs: [...plan.request.dirs] } };
}

/** Step `share: keep`, after the install: a pristine copy for the next worktree of this key. */
export async function keepStep(plan: SharePlan, steps: BootstrapStep[]): Promise<{ ok: boolean; share?: ShareReport }> {
  if (plan.present.length > 0) {
    steps.push({
      name: "share: keep",
      status: "skipped",
      ms: 0,
      reason: "share_target_present",
      notCopied: plan.present.map((path) => ({ path, why: "already in the worktree before the install" })),
    });
    return { ok: true };
  }
  const started = msNow();
  const kept = await step(steps, "share: keep", async () => {
    try {
      if (plan.modified) removeKept(plan.modified.copy.path); // the fresh copy takes its key; worktrees keep their own links
      return await keepCopy(plan.request);
    } catch (error) {
      return cloneProblem(error);
    }
  });
  if (!kept) return { ok: false };
  const last = steps[steps.length - 1] as BootstrapStep;
  if (!kept.kept) {
    steps[steps.length - 1] = {
      name: last.name,
      status: "skipped",
      ms: Math.round(msNow() - started),
      reason: `share_${kept.problem === "missing" ? "dir_missing" : "not_relocatable"}`,
      notCopied: [{ path: plan.request.dirs.join(", "), why: kept.why }],
    };
    return { ok: true };
  }
  Object.assign(last, { files: kept.files, method: kept.method });
  return { ok: true, share: { action: "kept", method: kept.method, key: kept.key, dirs: [...plan.request.dirs] } };
}
