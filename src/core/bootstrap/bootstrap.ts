// Bootstrap (SPEC §6): copy → context → run → runtime, then record the three fingerprints on the
// row. Repository commands (run, probes) run only when trusted; otherwise their steps are
// `skipped` with `config_untrusted` and the fingerprint they decide stays null (never
// compatible). The first failing step ends the bootstrap: the worktree is kept and its bootstrap
// fingerprint becomes `failed`. A recycled worktree whose preserved paths are still valid
// (`reuse`) keeps its bootstrap fingerprint and does not re-run the commands. The fingerprints are
// recorded in one write after the last step; the bootstrap journal (journal.ts) stands from before
// the first step until that write, so a crash in between is re-run by the next `add`.
import { recordBootstrapOutput } from "./output.js";
import { findAdminDir } from "../shared/repo/admin.js";
import { readConfig, resolveCommit } from "../../git/read.js";
import { disableSparse, setSparseCone } from "../../git/write.js";
import { runShell } from "../../git/spawn.js";
import type { ProcessResult } from "../../git/run.js";
import type { WorktreeRow } from "../../registry/index.js";
import type { Ctx } from "../shared/context.js";
import type { BootstrapReport, BootstrapStep, ShareReport } from "../shared/bootstrap-report.js";
import { runEntryOf } from "../shared/config.js";
import { keepStep, materialiseStep, modifiedStep, planShare } from "./share-step.js";
import { skipAll, step } from "./step.js";
import { copyIncluded } from "./copy.js";
import { linkDirectories } from "./link.js";
import { injectContext } from "./inject.js";
import { readBootstrapFingerprintAt, readRuntimeFingerprint } from "./fingerprint-read.js";
import { FAILED_FINGERPRINT, runtimeFingerprint } from "./fingerprints.js";
import { isTrusted } from "./trust.js";
import { parseDuration } from "../shared/input/duration.js";
import { faultPoint } from "../shared/fault.js";
import { beginBootstrapJournal, endBootstrapJournal, markBootstrapInterrupted, markBootstrapUntrusted } from "./journal.js";
import { writeRowIdentity } from "../shared/rows.js";

/** Each command of `bootstrap.run` gets `bootstrap.timeout` (default 10m); its process group is killed after. */
export const DEFAULT_BOOTSTRAP_TIMEOUT_MS = 10 * 60_000;
const TAIL_CHARS = 2000;

export interface BootstrapOptions {
  enabled: boolean;
  /** The still-valid bootstrap fingerprint of a recycled worktree whose preserved paths were kept. */
  reuse?: string;
  /** A re-run of an interrupted bootstrap: copying never overwrites a file that differs from the primary's. */
  rerun?: boolean;
}

export interface BootstrapOutcome {
  row: WorktreeRow;
  report: BootstrapReport;
  message?: string;
  /** The worktree's HEAD commit as read after the last step (absent when no step read it): callers answer with it. */
  head?: string | null;
}

function tail(r: ProcessResult): string {
  const text = [r.stdout, r.stderr].filter(Boolean).join(r.stdout.endsWith("\n") ? "" : "\n");
  return text.length > TAIL_CHARS ? text.slice(-TAIL_CHARS) : text;
}

function commandEnv(row: WorktreeRow, primary: string): Record<string, string> {
  return {
    ORCHARD_HANDLE: row.handle,
    ORCHARD_BRANCH: row.branch ?? "",
    ORCHARD_TASK: row.taskRaw ?? row.task ?? "",
    ORCHARD_WORKTREE: row.path,
    ORCHARD_PRIMARY: primary,
  };
}

/** Runs `bootstrap.run` in order; with `shared`, an install (an entry without `always`) is skipped: its directories were materialised. */
async function runCommands(ctx: Ctx, row: WorktreeRow, steps: BootstrapStep[], shared = false): Promise<boolean> {
  const timeout = ctx.repo.config.config.bootstrap?.timeout;
  const timeoutMs = timeout ? parseDuration(timeout) : DEFAULT_BOOTSTRAP_TIMEOUT_MS;
  for (const { command, always } of (ctx.repo.config.config.bootstrap?.run ?? []).map(runEntryOf)) {
    if (shared && !always) {
      skipAll(steps, [`run: ${command}`], "bootstrap_shared");
      continue;
    }
    let r: ProcessResult;
    try {
      r = await runShell(command, { cwd: row.path, timeoutMs, env: commandEnv(row, ctx.repo.primary), signal: ctx.signal });
    } catch (error) {
      steps.push({ name: `run: ${command}`, status: "failed", ms: 0, reason: `could not start: ${(error as Error).message}` });
      return false;
    }
    const failed = r.timedOut || r.exitCode !== 0;
    steps.push({
      name: `run: ${command}`,
      status: failed ? "failed" : "ran",
      ms: r.durationMs,
      exitCode: r.exitCode,
      output: tail(r),
      ...(r.timedOut ? { reason: ctx.signal?.aborted ? `stopped: ${String(ctx.signal.reason)}` : `timed out after ${timeout ?? "10m"}` } : {}),
    });
    if (failed) return false;
  }
  return true;
}

interface Recorded {
  bootstrap: string | null;
  context: string | null;
  runtime: string | null;
  /** HEAD after the steps, once read. */
  head?: string | null;
  /** What bootstrap.share did. */
  share?: ShareReport;
}

/** A recycle that keeps its fingerprint: the shared directories it no longer has, from the kept copy (none kept: nothing to do). */
async function reshareStep(ctx: Ctx, row: WorktreeRow, steps: BootstrapStep[], fp: Recorded): Promise<boolean> {
  const plan = await planShare(ctx, row);
  if (plan) modifiedStep(plan, steps);
  if (!plan?.copy) return true;
  const made = await materialiseStep({ ...plan, copy: plan.copy }, steps);
  if (made && "share" in made) fp.share = made.share;
  return made !== undefined;
}

/** The repository's commands: with bootstrap.share, from a kept copy or followed by keeping one (share-step.ts). */
async function commandsStep(ctx: Ctx, row: WorktreeRow, steps: BootstrapStep[], fp: Recorded): Promise<boolean> {
  const plan = await planShare(ctx, row);
  if (plan?.copy) {
    const made = await materialiseStep({ ...plan, copy: plan.copy }, steps);
    if (!made) return false;
    if ("share" in made) {
      fp.share = made.share;
      return await runCommands(ctx, row, steps, true);
    }
    Object.assign(plan, { copy: null, modified: made.modified }); // changed since kept: install, and the fresh copy takes its key
  } else if (plan) modifiedStep(plan, steps);
  if (!(await runCommands(ctx, row, steps))) return false;
  if (!plan) return true;
  const kept = await keepStep(plan, steps);
  if (kept.share) fp.share = kept.share;
  return kept.ok;
}

/**
 * Step `sparse` (`bootstrap.sparse`, Claude Code's `worktree.sparsePaths`): cone-mode sparse
 * checkout of exactly those directories (plus the root's files); a worktree that is sparse while
 * the configuration names none (recycled) gets its whole tree back. No step when neither.
 */
async function sparseStep(ctx: Ctx, row: WorktreeRow, steps: BootstrapStep[]): Promise<boolean> {
  const paths = (ctx.repo.config.config.bootstrap?.sparse ?? []).map((p) => p.replace(/\/+$/, ""));
  const sparseNow = (await readConfig(row.path, "core.sparseCheckout")) === "true";
  if (paths.length === 0 && !sparseNow) return true;
  const done = await step(
    steps,
    "sparse",
    async () => {
      if (paths.length > 0) await setSparseCone(row.path, paths);
      else await disableSparse(row.path);
      return paths.length;
    },
    (n) => ({ files: n }),
  );
  return done !== undefined;
}

/** The steps in order; false at the first failure. Fills `fp` with what it established. */
async function runSteps(ctx: Ctx, row: WorktreeRow, admin: string, options: BootstrapOptions, steps: BootstrapStep[], fp: Recorded): Promise<boolean> {
  const { repo } = ctx;
  const trusted = await isTrusted(repo, ctx.registry);
  const run = (repo.config.config.bootstrap?.run ?? []).map((c) => `run: ${runEntryOf(c).command}`);
  if (!(await sparseStep(ctx, row, steps))) return false;
  const copied = await step(
    steps,
    "copy",
    () => copyIncluded(repo, row.path, { overwrite: !options.rerun }),
    (c) => ({ files: c.files, ...(c.notCopied.length ? { notCopied: c.notCopied } : {}) }),
  );
  if (!copied) return false;
  faultPoint("bootstrap.copy");
  const links = repo.config.config.bootstrap?.link ?? [];
  if (links.length > 0) {
    const linked = await step(
      steps,
      "link",
      () => Promise.resolve(linkDirectories(repo.primary, row.path, links)),
      (l) => ({ files: l.files, ...(l.notCopied.length ? { notCopied: l.notCopied } : {}) }),
    );
    if (!linked) return false;
  }
  const context = await step(
    steps,
    "context",
    () => injectContext(repo, row, admin),
    (c) => ({ files: c.files }),
  );
  if (!context) return false;
  faultPoint("bootstrap.context");
  fp.context = context.fingerprint;
  if (options.reuse !== undefined) {
    // a recycle keeps `preserve` paths only: shared directories it cleaned come from the kept copy
    if (trusted && !(await reshareStep(ctx, row, steps, fp))) return false;
    skipAll(steps, run, "bootstrap_reused");
  } else if (!trusted) skipAll(steps, run, "config_untrusted");
  else if (!(await commandsStep(ctx, row, steps, fp))) return false;
  faultPoint("bootstrap.run");
  if ((repo.config.config.runtime?.probe ?? []).length === 0) fp.runtime = runtimeFingerprint([]);
  else if (!trusted) skipAll(steps, ["runtime"], "config_untrusted");
  else {
    const runtime = await step(steps, "runtime", () => readRuntimeFingerprint(repo));
    if (runtime === undefined) return false;
    fp.runtime = runtime; // null: a probe timed out, the runtime stays unknown
  }
  const head = await resolveCommit(row.path, "HEAD");
  fp.head = head;
  if (options.reuse !== undefined) fp.bootstrap = options.reuse;
  else if ((trusted || run.length === 0) && head) fp.bootstrap = await readBootstrapFingerprintAt(repo, head);
  return true;
}

/**
 * Bootstraps a worktree and records its fingerprints. Disabled (`--no-bootstrap`), it only ends
 * an interrupted bootstrap's journal: the requester takes the worktree as it is.
 */
export async function runBootstrap(ctx: Ctx, row: WorktreeRow, options: BootstrapOptions): Promise<BootstrapOutcome> {
  const admin = findAdminDir(ctx.repo.commonDir, row.path);
  if (!options.enabled) {
    if (admin) endBootstrapJournal(admin);
    return { row, report: { status: "skipped", fingerprint: null, steps: [] } };
  }
  const steps: BootstrapStep[] = [];
  const fp: Recorded = { bootstrap: null, context: null, runtime: null };
  let ok = false;
  let updated: WorktreeRow;
  if (!admin) steps.push({ name: "copy", status: "failed", ms: 0, reason: "git does not list the worktree" });
  else await beginBootstrapJournal(admin);
  try {
    ok = admin !== undefined && (await runSteps(ctx, row, admin, options, steps, fp));
    if (!ok && admin && ctx.signal?.aborted) {
      // stopped because whoever waited for it is gone (a Claude Code hook's Claude died): interrupted,
      // not failed — the next add that takes the worktree back runs the bootstrap again
      markBootstrapInterrupted(admin);
      const message = `bootstrap stopped (${String(ctx.signal.reason)}); the worktree is kept, and the next add of it runs the bootstrap again`;
      return { row, report: { status: "failed", fingerprint: null, steps }, message };
    }
    if (!ok) fp.bootstrap = FAILED_FINGERPRINT;
    faultPoint("bootstrap.fingerprint");
    updated = await ctx.registry.write(
      async () => await ctx.registry.worktrees.update(row.id, { fpBootstrap: fp.bootstrap, fpContext: fp.context, fpRuntime: fp.runtime }),
    );
  } catch (error) {
    if (admin) markBootstrapInterrupted(admin); // unfinished, and this process no longer runs it
    throw error;
  }
  // on a fresh checkout (not a re-run over someone's work), what the bootstrap left is its own, not work
  // only after a command or a share ran (what a copy brings is the primary's already): this status runs inside
  // the worktree after the repo's lock is let go, and a concurrent identical add must not meet it for no reason
  const wrote = steps.some((s) => s.status === "ran" && (s.name.startsWith("run") || s.name.startsWith("share")));
  if (admin && ok && !options.rerun && wrote) await recordBootstrapOutput(admin, row.path);
  // the fingerprints on disk too (orchard.json): which kept copy a worktree uses survives the registry
  if (admin) writeRowIdentity(admin, updated, ctx.workspace.id);
  // a command skipped as untrusted leaves the bootstrap owed: the next adoption or `orchard bootstrap` runs it once trusted
  const untrusted = ok && steps.some((s) => s.status === "skipped" && s.reason === "config_untrusted");
  if (admin && untrusted) markBootstrapUntrusted(admin);
  else if (admin) endBootstrapJournal(admin);
  const status = !ok ? "failed" : untrusted ? "skipped" : fp.share?.action === "materialised" ? "shared" : options.reuse !== undefined ? "reused" : "ran";
  const report: BootstrapReport = { status, fingerprint: fp.bootstrap, steps, ...(fp.share ? { share: fp.share } : {}) };
  const head = fp.head !== undefined ? { head: fp.head } : {};
  const failedStep = steps.find((s) => s.status === "failed");
  if (!failedStep) return { row: updated, report, ...head };
  const why = failedStep.reason ?? `exit ${failedStep.exitCode ?? "?"}`;
  return {
    row: updated,
    report,
    ...head,
    message: `bootstrap step "${failedStep.name}" failed (${why}); the worktree is kept and its bootstrap fingerprint is "failed"`,
  };
}
