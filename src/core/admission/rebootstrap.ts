// `orchard bootstrap <handle|path|task>` (SPEC v5 §3): runs the bootstrap of an existing managed
// worktree — one whose commands were skipped as untrusted, or whose installed directories went —
// never over work, and only once the repository is trusted (config_untrusted). The proofs are the
// exact handle's (verdict.ts) for the requester: nobody else live in it, its liveness known, no
// operation in progress, clean (no tracked or untracked change, no unique ignored file); a drifted
// fingerprint does not block, since the bootstrap records the fingerprints anew. Decided under the repo's mutation lock; the bootstrap runs outside it, its
// journal written first, so a concurrent `add` of the handle waits for it as for any bootstrap.
import { existsSync } from "node:fs";
import { findAdminDir } from "../shared/repo/admin.js";
import { requireManaged } from "../shared/repo/target.js";
import { reason, type Reason } from "../shared/reasons/reasons.js";
import { requireText } from "../shared/input/validate.js";
import type { BootstrapReport } from "../shared/bootstrap-report.js";
import type { Ctx } from "../shared/context.js";
import type { WorktreeRow } from "../../registry/index.js";
import { readAncestors, releaseMutationLockEarly, withMutationLock } from "../ownership/index.js";
import { readOneFacts } from "../facts/index.js";
import { resolveTargetOrTask } from "../navigate/index.js";
import { beginBootstrapJournal, isTrusted, readBootstrapJournal, runBootstrap } from "../bootstrap/index.js";
import { assessExact } from "./verdict.js";

export interface BootstrapOptions {
  /** A handle, a worktree path, the branch of a managed worktree, or a task. */
  target: string;
  /** Who asks (env ORCHARD_OWNER): its own lease does not block. */
  owner?: string;
  dryRun?: boolean;
}

interface Fields {
  handle: string;
  path: string;
  branch: string | null;
  reasons: Reason[];
  notes: Reason[];
  /** What ran; null when nothing did (refused, planned). */
  bootstrap: BootstrapReport | null;
}

export type BootstrapResult =
  | (Fields & { ok: true; action: "bootstrapped" | "planned" })
  | (Fields & { ok: false; action: "refused" })
  | (Fields & { ok: false; action: "failed"; error: { code: "bootstrap_failed"; message: string } });

const DRIFT = new Set(["bootstrap_drift", "context_drift", "runtime_drift", "fingerprint_failed"]);

export async function bootstrapWorktree(ctx: Ctx, options: BootstrapOptions): Promise<BootstrapResult> {
  const owner = requireText(options.owner ?? process.env.ORCHARD_OWNER, "owner");
  const decided = await withMutationLock(ctx.repo.commonDir, async () => {
    const target = await resolveTargetOrTask(ctx, options.target);
    const row = requireManaged(target, "bootstrap");
    const fields: Fields = { handle: row.handle, path: row.path, branch: row.branch, reasons: [], notes: [], bootstrap: null };
    if (!existsSync(row.path) || !target.entry) return { ...fields, reasons: [reason("missing_directory", { registeredWithGit: target.entry !== null })] };
    const { facts } = await readOneFacts(ctx.repo, ctx.registry, { entry: target.entry, row, listing: target.listing }, null, { merged: false });
    const inside = facts.liveness.signals.some((s) => s.code === "process_in_worktree");
    const exact = { branch: row.branch, task: null, baseRef: null, owner, resume: false, ancestors: inside ? await readAncestors() : [] };
    const verdict = assessExact(facts, exact, { strict: false });
    const admin = findAdminDir(ctx.repo.commonDir, row.path);
    const reasons = verdict.reasons.filter((r) => !DRIFT.has(r.code));
    if (!admin) reasons.push(reason("fact_unknown", { fact: "admin" }, "git's admin dir of the worktree could not be found"));
    if (admin && (await readBootstrapJournal(admin)).state === "running") reasons.push(reason("bootstrap_running"));
    const { bootstrap, runtime } = ctx.repo.config.config;
    const commands = (bootstrap?.run ?? []).length + (runtime?.probe ?? []).length > 0;
    if (commands && !(await isTrusted(ctx.repo, ctx.registry))) reasons.push(reason("config_untrusted"));
    const notes = verdict.notes.filter((r) => r.code !== "unpushed_commits" && r.code !== "base_drift");
    if (reasons.length > 0 || !admin || options.dryRun) return { ...fields, reasons, notes, row, admin };
    await beginBootstrapJournal(admin); // before the lock is let go: an add of the handle now waits for this bootstrap
    releaseMutationLockEarly(ctx.repo.commonDir);
    return { ...fields, notes, row, admin };
  });
  const { row, admin: _admin, ...fields } = decided as Fields & { row?: WorktreeRow; admin?: string };
  if (fields.reasons.length > 0) return { ok: false, action: "refused", ...fields };
  if (!row || options.dryRun) return { ok: true, action: "planned", ...fields };
  // the proofs found no work in it (clean, no unique ignored file): what the bootstrap leaves is its own, recorded as such
  const outcome = await runBootstrap(ctx, row, { enabled: true });
  const done = { ...fields, bootstrap: outcome.report };
  if (outcome.report.status === "failed")
    return { ok: false, action: "failed", ...done, error: { code: "bootstrap_failed", message: outcome.message ?? "the bootstrap failed" } };
  return { ok: true, action: "bootstrapped", ...done };
}
