// The admission request and result (SPEC §3.1), shared by `add`, `recycle` and `salvage restore`:
// validation of the options, the default base, and the one result shape every path returns.
import { isAncestor, readFullRefName, readRefCommits, resolveCommit } from "../../git/read.js";
import type { Lifecycle, WorktreeRow } from "../../registry/index.js";
import { canonicalTask } from "./naming/task.js";
import { handleForBranch } from "./naming/handle.js";
import { requireBranch, requireTtl, requireOneOf, requirePid, requireText } from "./input/validate.js";
import { managedPath, type Ctx } from "./context.js";
import { readDefaultBranch } from "./repo/repo.js";
import { focusedPatterns, missingDefault } from "./repo/default-refs.js";
import { DEFAULT_TTL_MS, leaseView } from "../ownership/index.js";
import { reason, type Reason } from "./reasons/reasons.js";
import { usageError } from "./errors.js";
import { parseDuration } from "./input/duration.js";
import type { Lease } from "./types.js";
import type { BootstrapReport } from "./bootstrap-report.js";

/** The commit a new worktree starts from, with the ref it was named by. */
export type Base = { ref: string; commit: string };

import { POLICIES, type Policy } from "./input/inputs.js";
export { POLICIES, type Policy };

export type CandidateKind = "same_task" | "patch_equivalent";

export interface Candidate {
  handle: string;
  path: string;
  /** null: a detached worktree (never eligible). */
  branch: string | null;
  kind: CandidateKind;
  lifecycle: Lifecycle;
  eligible: boolean;
  reasons: Reason[];
  lastActivity: string | null;
  /** Only on a candidate of another host of the fleet (never eligible: its directory is elsewhere). */
  host?: string;
}

export interface AddOptions {
  /** The branch; without it, derived from the task (admission/branch-from-task.ts). */
  branch?: string;
  base?: string;
  task?: string;
  owner?: string;
  pid?: number | string;
  /** The pid's start time as read when its caller identified it (a hook that outlives its host); else read at lease time. */
  pidStart?: string;
  ttl?: string;
  policy?: Policy;
  resume?: boolean;
  /** false = --no-bootstrap */
  bootstrap?: boolean;
  dryRun?: boolean;
}

import { ADD_ACTIONS, type AddAction } from "./actions.js";
export { ADD_ACTIONS, type AddAction };

/** The actions that hand out a worktree, whose bootstrap may fail. */
export type BootstrappedAction = Exclude<AddAction, "refused" | "planned">;

/** The fields of every admission result, whatever its action. */
export interface AddFields {
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
    from: { handle: string; branch: string | null; head: string | null; task: string | null; owner: string | null };
    to: { handle: string; branch: string; base: { ref: string; commit: string } | null; task: string | null };
  };
  bootstrap: BootstrapReport;
}

/** The result of one action; `ok` follows from it (false exactly for `refused`). */
export type AddResultOf<A extends AddAction> = A extends "refused" ? AddFields & { ok: false; action: A } : AddFields & { ok: true; action: A };

/**
 * What `add`, `recycle` (and `salvage restore`, see RestoreResult) resolve to, discriminated on `ok`
 * and `action`: a worktree taken or planned (`ok: true`); a refusal (`ok: false`, `action`
 * "refused", its `reasons`); or a worktree taken whose bootstrap failed (`ok: false`, `error.code`
 * "bootstrap_failed": kept, exit 1).
 */
export type AddResult = { [A in AddAction]: AddResultOf<A> }[AddAction] | AddBootstrapFailed;

/** A worktree was taken but a bootstrap step failed: the worktree is kept (exit 1). */
export type AddBootstrapFailed = AddFields & { ok: false; action: BootstrappedAction; error: { code: "bootstrap_failed"; message: string } };

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
  pidStart?: string | null;
  ttlMs: number;
  policy: Policy;
  resume: boolean;
  bootstrap: boolean;
  dryRun: boolean;
}

export const SKIPPED_BOOTSTRAP: BootstrapReport = { status: "skipped", fingerprint: null, steps: [] };

export async function validateAdd(ctx: Ctx, options: AddOptions & { branch: string }): Promise<AddRequest> {
  const branch = await requireBranch(ctx.repo.primary, options.branch);
  const taskRaw = requireText(options.task ?? process.env.ORCHARD_TASK, "task");
  const owner = requireText(options.owner ?? process.env.ORCHARD_OWNER, "owner");
  const configTtl = ctx.repo.config.config.lease?.ttl;
  const ttlMs = requireTtl(options.ttl, "ttl", configTtl ? parseDuration(configTtl) : DEFAULT_TTL_MS);
  const policy = requireOneOf(options.policy, POLICIES, "policy", "isolated");
  let explicitBase: string | null = null;
  if (options.base !== undefined) {
    if (options.base.startsWith("-") || options.base.length === 0) throw usageError("invalid_argument", `--base ${JSON.stringify(options.base)} is not a ref`);
    if (!(await resolveCommit(ctx.repo.primary, options.base))) throw usageError("invalid_argument", `--base ${JSON.stringify(options.base)} names no commit`);
    explicitBase = (await readFullRefName(ctx.repo.primary, options.base)) ?? options.base;
  }
  const handle = await handleForBranch(ctx, branch);
  return {
    branch,
    handle,
    path: managedPath(ctx.workspace, handle),
    explicitBase,
    baseText: options.base ?? null,
    task: taskRaw === null ? null : canonicalTask(taskRaw, ctx.repo.identity),
    taskRaw,
    owner,
    pid: requirePid(options.pid),
    ...(options.pidStart !== undefined && options.pid !== undefined ? { pidStart: options.pidStart } : {}),
    ttlMs,
    policy,
    resume: options.resume ?? false,
    bootstrap: options.bootstrap ?? true,
    dryRun: options.dryRun ?? false,
  };
}

/** The branches and remote-tracking refs, each with the commit it names: read once per decision (readRefCommits). */
export type BranchRefs = ReadonlyMap<string, { commit: string | null; symref: string | null }>;

/** `branch`: only the refs a decision on that branch reads (its tip, resolveBase's: default-refs.ts), not every branch of a fleet. */
export async function readBranchRefs(ctx: Ctx, branch?: string): Promise<BranchRefs> {
  const patterns = branch === undefined ? null : focusedPatterns(ctx.repo, [`refs/heads/${branch}`], "refs/remotes/origin");
  if (patterns === null) return readRefCommits(ctx.repo.primary, ["refs/heads", "refs/remotes"]);
  const refs = await readRefCommits(ctx.repo.primary, patterns);
  const missing = missingDefault(ctx.repo, patterns, refs.get("refs/remotes/origin/HEAD"));
  return missing === null ? refs : new Map([...refs, ...(await readRefCommits(ctx.repo.primary, missing))]);
}

/** What readDefaultBranch looks at: the refs that name a commit (`rev-parse <ref>^{commit}` succeeds), and symbolic refs. */
function defaultBranchRefs(refs: BranchRefs): Map<string, { oid: string; symref: string | null }> {
  const named = new Map<string, { oid: string; symref: string | null }>();
  for (const [ref, { commit, symref }] of refs) if (commit !== null) named.set(ref, { oid: commit, symref });
  return named;
}

/**
 * The base a new worktree starts from (SPEC §4.4): --base, else the newer of the local default
 * branch and origin's copy when one contains the other (what a `git fetch` brought in), else — they
 * diverged — the local one with note `base_diverged`. Never a network call.
 */
export async function resolveBase(ctx: Ctx, request: AddRequest, branchRefs?: BranchRefs): Promise<{ base: Base; notes: Reason[] }> {
  if (request.explicitBase)
    return { base: { ref: request.explicitBase, commit: (await resolveCommit(ctx.repo.primary, request.explicitBase)) as string }, notes: [] };
  const refs = branchRefs ?? (await readBranchRefs(ctx));
  const def = await readDefaultBranch(ctx.repo, defaultBranchRefs(refs));
  if (!def)
    throw usageError(
      "default_branch_unknown",
      "the default branch is unknown (a remote exists without origin/HEAD); pass --base or set defaultBranch in .orchard.json",
    );
  const local = { ref: `refs/heads/${def.name}`, commit: refs.get(`refs/heads/${def.name}`)?.commit ?? null };
  const remoteRef = `refs/remotes/origin/${def.name}`;
  const remote = { ref: remoteRef, commit: ctx.repo.remotes.includes("origin") ? (refs.get(remoteRef)?.commit ?? null) : null };
  if (local.commit === null && remote.commit === null)
    throw usageError("default_branch_unknown", `the default branch ${def.name} has no commit here; pass --base`);
  if (local.commit === null || remote.commit === null || local.commit === remote.commit) {
    const chosen = local.commit !== null ? local : remote;
    return { base: { ref: chosen.ref, commit: chosen.commit as string }, notes: [] };
  }
  const cwd = ctx.repo.primary;
  if (await isAncestor(cwd, local.commit, remote.commit)) return { base: { ref: remote.ref, commit: remote.commit }, notes: [] };
  if (await isAncestor(cwd, remote.commit, local.commit)) return { base: { ref: local.ref, commit: local.commit }, notes: [] };
  return { base: { ref: local.ref, commit: local.commit }, notes: [reason("base_diverged", { local: local.commit, remote: remote.commit, ref: remote.ref })] };
}

export function resultFor<A extends AddAction>(request: AddRequest, action: A, extra: Partial<AddFields> & { row?: WorktreeRow | undefined }): AddResultOf<A> {
  const { row, ...rest } = extra;
  return {
    ok: (action !== "refused") as AddResultOf<A>["ok"], // the one place `ok` is derived from the action
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
  } as AddResultOf<A>;
}
