// `orchard add` (SPEC §3.1): validate, adopt the exact handle or say why not, refuse a branch
// checked out elsewhere, look at candidates, then create under the per-repo mutation lock.
// Creation writes the registry row as `creating` first, runs `git worktree add --lock` (no window
// between create and lock), then marks it `active`; a failure rolls back what this call made, and
// a row left `creating` by a crash is repaired by the next add of that handle.
import { existsSync } from "node:fs";
import { readRefs, readWorktrees, readFullRefName, resolveCommit } from "../git/read.js";
import type { WorktreeEntry } from "../git/parse/worktrees.js";
import type { WorktreeRow } from "../registry/index.js";
import { canonicalTask, handleFor } from "./identity.js";
import { requireBranch, requireDuration, requireOneOf, requirePid, requireText } from "./validate.js";
import { managedPath, type Ctx } from "./context.js";
import { readDefaultBranch } from "./repo.js";
import { withMutationLock } from "./mutation-lock.js";
import { DEFAULT_TTL_MS, leaseView, newLease, leaseLockText, type LeaseFields } from "./lease.js";
import { assessExact } from "./admission-verdict.js";
import { readSnapshot, factsOf } from "./facts.js";
import { reason, type Reason } from "./reasons.js";
import { usageError } from "./errors.js";
import { createWorktree, repairCreating, recoverFromIdentityFile, renewLease } from "./admission-create.js";
import { findCandidates, type Candidate } from "./candidates.js";
import { applyPolicy, type Policy, POLICIES } from "./policy.js";
import { parseDuration } from "./duration.js";
import type { Lease } from "./types.js";
import type { BootstrapReport } from "./bootstrap-types.js";

export interface AddOptions {
  branch: string;
  base?: string;
  task?: string;
  owner?: string;
  pid?: number | string;
  ttl?: string;
  policy?: string;
  resume?: boolean;
  /** false = --no-bootstrap */
  bootstrap?: boolean;
  dryRun?: boolean;
}

export type AddAction = "created" | "adopted" | "reused" | "recycled" | "refused" | "planned";

export interface AddResult {
  ok: boolean;
  action: AddAction;
  handle: string;
  path: string;
  branch: string;
  base: { ref: string; commit: string } | null;
  head: string | null;
  task: string | null;
  owner: string | null;
  lease: Lease | null;
  reasons: Reason[];
  notes: Reason[];
  candidates: Candidate[];
  lineage?: {
    from: { handle: string; branch: string; head: string | null; task: string | null; owner: string | null };
    to: { handle: string; branch: string; base: { ref: string; commit: string } | null; task: string | null };
  };
  bootstrap: BootstrapReport;
  error?: { code: string; message: string };
}

export interface AddRequest {
  branch: string;
  handle: string;
  path: string;
  /** Full ref of an explicit --base, else null. */
  explicitBase: string | null;
  baseText: string | null;
  task: string | null;
  taskRaw: string | null;
  owner: string | null;
  pid: number | null;
  ttlMs: number;
  policy: Policy;
  resume: boolean;
  bootstrap: boolean;
  dryRun: boolean;
}

export const SKIPPED_BOOTSTRAP: BootstrapReport = { status: "skipped", fingerprint: null, steps: [] };

export async function validateAdd(ctx: Ctx, options: AddOptions): Promise<AddRequest> {
  const branch = await requireBranch(ctx.repo.primary, options.branch);
  const taskRaw = requireText(options.task ?? process.env.ORCHARD_TASK, "task");
  const owner = requireText(options.owner ?? process.env.ORCHARD_OWNER, "owner");
  const configTtl = ctx.repo.config.config.lease?.ttl;
  const ttlMs = requireDuration(options.ttl, "ttl", configTtl ? parseDuration(configTtl) : DEFAULT_TTL_MS);
  const policy = requireOneOf(options.policy, POLICIES, "policy", "isolated");
  let explicitBase: string | null = null;
  if (options.base !== undefined) {
    if (options.base.startsWith("-") || options.base.length === 0) throw usageError("invalid_argument", `--base ${JSON.stringify(options.base)} is not a ref`);
    if (!(await resolveCommit(ctx.repo.primary, options.base))) throw usageError("invalid_argument", `--base ${JSON.stringify(options.base)} names no commit`);
    explicitBase = (await readFullRefName(ctx.repo.primary, options.base)) ?? options.base;
  }
  const handle = handleFor(ctx.repo.name, branch);
  return {
    branch,
    handle,
    path: managedPath(ctx.workspace, handle),
    explicitBase,
    baseText: options.base ?? null,
    task: taskRaw === null ? null : canonicalTask(taskRaw),
    taskRaw,
    owner,
    pid: requirePid(options.pid),
    ttlMs,
    policy,
    resume: options.resume ?? false,
    bootstrap: options.bootstrap ?? true,
    dryRun: options.dryRun ?? false,
  };
}

/** The base a new worktree starts from: --base, else the default branch (local, else origin's). */
export async function resolveBase(ctx: Ctx, request: AddRequest): Promise<{ ref: string; commit: string }> {
  if (request.explicitBase) return { ref: request.explicitBase, commit: (await resolveCommit(ctx.repo.primary, request.explicitBase)) as string };
  const def = await readDefaultBranch(ctx.repo);
  if (!def)
    throw usageError(
      "default_branch_unknown",
      "the default branch is unknown (a remote exists without origin/HEAD); pass --base or set defaultBranch in .orchard.json",
    );
  for (const ref of [`refs/heads/${def.name}`, `refs/remotes/origin/${def.name}`]) {
    const commit = await resolveCommit(ctx.repo.primary, ref);
    if (commit) return { ref, commit };
  }
  throw usageError("default_branch_unknown", `the default branch ${def.name} has no commit here; pass --base`);
}

export function resultFor(request: AddRequest, action: AddAction, extra: Partial<AddResult> & { row?: WorktreeRow | undefined }): AddResult {
  const { row, ...rest } = extra;
  return {
    ok: action !== "refused",
    action,
    handle: row?.handle ?? request.handle,
    path: row?.path ?? request.path,
    branch: row?.branch ?? request.branch,
    base: row?.baseRef && row.baseCommit ? { ref: row.baseRef, commit: row.baseCommit } : null,
    head: null,
    task: row ? row.task : request.task,
    owner: row ? row.owner : request.owner,
    lease: row ? leaseView(row) : null,
    reasons: [],
    notes: [],
    candidates: [],
    bootstrap: SKIPPED_BOOTSTRAP,
    ...rest,
  };
}

export async function add(ctx: Ctx, options: AddOptions): Promise<AddResult> {
  const request = await validateAdd(ctx, options);
  if (request.dryRun) return decide(ctx, request);
  return withMutationLock(ctx.repo.commonDir, () => decide(ctx, request));
}

async function decide(ctx: Ctx, request: AddRequest): Promise<AddResult> {
  const notes: Reason[] = [];
  let entries = await readWorktrees(ctx.repo.primary);
  let row = ctx.registry.worktrees.byHandle(request.handle);
  if (row?.lifecycle === "creating") {
    if (request.dryRun) return resultFor(request, "planned", { row, notes: [reason("creating_repaired", {}, "an interrupted add would be repaired first")] });
    await repairCreating(ctx, row, entries);
    notes.push(reason("creating_repaired"));
    entries = await readWorktrees(ctx.repo.primary);
    row = ctx.registry.worktrees.byHandle(request.handle);
  }
  const entry = entries.slice(1).find((e) => e.path === request.path);
  if (!row && entry && !request.dryRun) row = recoverFromIdentityFile(ctx, request, entry);
  if (row) return exactHandle(ctx, request, row, entry, notes);
  if (existsSync(request.path))
    return resultFor(request, "refused", {
      reasons: [reason("path_occupied", { path: request.path }, entry ? "registered with git but not with orchard (see `orchard adopt`)" : undefined)],
      notes,
    });
  const holder = entries.find((e) => e.branch === `refs/heads/${request.branch}`);
  if (holder) return resultFor(request, "refused", { reasons: [reason("branch_checked_out", { path: holder.path })], notes });
  const base = await resolveBase(ctx, request);
  const candidates = await findCandidates(ctx, request, base);
  const chosen = await applyPolicy(ctx, request, base, candidates);
  if (chosen) return { ...chosen, notes: [...notes, ...chosen.notes], candidates };
  if (request.dryRun) return resultFor(request, "planned", { base, candidates, notes });
  const created = await createWorktree(ctx, request, base);
  return { ...created, notes: [...notes, ...created.notes], candidates };
}

async function exactHandle(ctx: Ctx, request: AddRequest, row: WorktreeRow, entry: WorktreeEntry | undefined, notes: Reason[]): Promise<AddResult> {
  if (!existsSync(row.path)) {
    if (request.dryRun) return resultFor(request, "planned", { row, notes: [...notes, reason("recreated_missing")] });
    const base = row.baseRef && row.baseCommit ? { ref: row.baseRef, commit: row.baseCommit } : await resolveBase(ctx, request);
    const created = await createWorktree(ctx, request, base, { replacing: row, staleEntry: entry ?? null });
    return { ...created, notes: [...notes, reason("recreated_missing"), ...created.notes] };
  }
  if (!entry) return resultFor(request, "refused", { row, reasons: [reason("path_occupied", { path: row.path })], notes });
  const snapshot = await readSnapshot(ctx.repo, ctx.registry);
  const facts = await factsOf(snapshot, entry, row, { full: true });
  const verdict = assessExact(facts, request2exact(request), { strict: false });
  const allNotes = [...notes, ...verdict.notes];
  if (verdict.reasons.length > 0) return resultFor(request, "refused", { row, head: facts.head, reasons: verdict.reasons, notes: allNotes });
  if (request.dryRun) return resultFor(request, "planned", { row, head: facts.head, notes: allNotes });
  const lease: LeaseFields = await newLease(request);
  const renewed = renewLease(ctx, row, lease, leaseLockText(row.handle, lease), "adopted");
  return resultFor(request, "adopted", {
    row: renewed,
    head: facts.head,
    notes: allNotes,
    bootstrap: { ...SKIPPED_BOOTSTRAP, status: "reused", fingerprint: renewed.fpBootstrap },
  });
}

export function request2exact(request: AddRequest): { branch: string; task: string | null; baseRef: string | null; owner: string | null; resume: boolean } {
  return { branch: request.branch, task: request.task, baseRef: request.explicitBase, owner: request.owner, resume: request.resume };
}

export async function refsOf(ctx: Ctx): Promise<Set<string>> {
  return new Set((await readRefs(ctx.repo.primary, ["refs/heads"])).map((r) => r.ref));
}
