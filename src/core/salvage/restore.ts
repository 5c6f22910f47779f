// `orchard salvage list|restore` (SPEC §3.10). Restore makes a NEW managed worktree (through
// admission) on a branch at the salvage commit's parent — the HEAD the worktree had when it was
// salvaged — and then lays the salvaged tree over it as uncommitted changes (tracked edits,
// deletions, and formerly untracked files showing as untracked). So the restored worktree looks
// like the one that was salvaged, commits and all, and nothing is committed on the user's behalf.
import { readRefsWithBody, readWorktrees, resolveCommit } from "../../git/read.js";
import { checkoutTreeAsChanges } from "../../git/write.js";
import type { AddAction, AddFields, AddResult } from "../admission/index.js";
import { withMutationLock } from "../ownership/index.js";
import { handleForBranch } from "../shared/naming/handle.js";
import { requireBranch } from "../shared/input/validate.js";
import { failure, usageError } from "../shared/errors.js";
import { faultPoint } from "../shared/fault.js";
import { parseSalvageBody, SALVAGE_PREFIX } from "./salvage.js";
import { finishInterruptedRestore, removeRestoreJournal, writeRestoreJournal } from "./resume.js";
import type { Ctx } from "../shared/context.js";

export interface SalvageEntry {
  ref: string;
  commit: string;
  handle: string | null;
  path: string | null;
  branch: string | null;
  head: string | null;
  reason: string | null;
  at: string | null;
}

export interface SalvageListResult {
  ok: true;
  salvages: SalvageEntry[];
}

export async function salvageList(ctx: Ctx): Promise<SalvageListResult> {
  const records = await readRefsWithBody(ctx.repo.primary, SALVAGE_PREFIX);
  const salvages = records.map(({ ref, commit, body }): SalvageEntry => {
    const meta = parseSalvageBody(body);
    return {
      ref,
      commit,
      handle: meta?.handle ?? null,
      path: meta?.path ?? null,
      branch: meta?.branch ?? null,
      head: meta?.head ?? null,
      reason: meta?.reason ?? null,
      at: meta?.time ?? null,
    };
  });
  salvages.sort((a, b) => (a.at ?? "").localeCompare(b.at ?? "") || a.ref.localeCompare(b.ref));
  return { ok: true, salvages };
}

export interface RestoreOptions {
  ref: string;
  branch?: string;
}

/**
 * `add`'s result (a refusal, a failed bootstrap, or the worktree created with the salvaged state
 * laid over it), or `ok: false` with the action of an existing worktree `add` took instead: nothing
 * was laid over it.
 */
export type RestoreResult = (AddResult | RestoreNotCreated) & { restoredFrom: { ref: string; commit: string } };
export type RestoreNotCreated = AddFields & { ok: false; action: Exclude<AddAction, "created" | "refused"> };

/** `refs/orchard/salvage/<key>/<stamp>` or its short form `<key>/<stamp>`. */
function fullRef(ref: string): string {
  if (!ref || ref.startsWith("-")) throw usageError("invalid_argument", `${JSON.stringify(ref)} is not a salvage ref`);
  return ref.startsWith("refs/") ? ref : `${SALVAGE_PREFIX}${ref}`;
}

export async function salvageRestore(ctx: Ctx, options: RestoreOptions): Promise<RestoreResult> {
  const ref = fullRef(options.ref);
  if (!ref.startsWith(SALVAGE_PREFIX)) throw usageError("invalid_argument", `${ref} is not under ${SALVAGE_PREFIX}`);
  const cwd = ctx.repo.primary;
  const commit = await resolveCommit(cwd, ref);
  if (!commit) throw usageError("invalid_argument", `no salvage ref ${ref}`);
  const parent = await resolveCommit(cwd, `${commit}^`);
  const meta = (await salvageList(ctx)).salvages.find((s) => s.ref === ref);
  const restoredFrom = { ref, commit };
  const requested = options.branch === undefined ? undefined : await requireBranch(ctx.repo.primary, options.branch);
  const own = requested !== undefined ? [requested] : [meta?.branch, fallbackBranch(ref)].filter((b): b is string => !!b);
  const resumed = await finishInterruptedRestore(ctx, { commit, parent, branches: own });
  if (resumed) return { ...resumed, restoredFrom };
  const branch = await chooseBranch(ctx, { requested, recorded: meta?.branch ?? null, ref, parent });
  // admission loads here, not with the salvage door: cleanup, reap and remove salvage and never add
  const { add } = await import("../admission/index.js");
  const created = await add(ctx, { branch, ...(parent ? { base: parent } : {}) });
  if (!created.ok) return { ...created, restoredFrom };
  if (created.action !== "created") return { ...created, ok: false, restoredFrom }; // `ok` stays the first key
  await withMutationLock(ctx.repo.commonDir, async () => {
    // a fresh worktree at the parent: nothing of anyone's can be overwritten here
    if ((await resolveCommit(created.path, "HEAD")) !== (parent ?? created.head))
      throw failure("restore_raced", `${created.path} moved before the salvaged state was laid over it`);
    // the journal says whose half-done state a kill from here on leaves (resume.ts finishes it)
    const admin = writeRestoreJournal(ctx, created.path, commit);
    faultPoint("restore.created");
    await checkoutTreeAsChanges(created.path, commit, () => faultPoint("restore.staged")); // a kill here: resume.ts
    removeRestoreJournal(admin);
  });
  return { ...created, restoredFrom };
}

const fallbackBranch = (ref: string): string => `salvage/${ref.slice(SALVAGE_PREFIX.length)}`;

/**
 * --branch, else the branch the salvage recorded, else `salvage/<key>/<stamp>`. An existing branch
 * is used only when it still points at the salvage's parent (then the restore continues it).
 */
async function chooseBranch(ctx: Ctx, o: { requested: string | undefined; recorded: string | null; ref: string; parent: string | null }): Promise<string> {
  const checkedOut = new Set((await readWorktrees(ctx.repo.primary)).map((e) => e.branch));
  const usable = async (branch: string): Promise<boolean> => {
    const tip = await resolveCommit(ctx.repo.primary, `refs/heads/${branch}`);
    if (checkedOut.has(`refs/heads/${branch}`) || (await ctx.registry.worktrees.byHandle(await handleForBranch(ctx, branch)))) return false;
    return tip === null || tip === o.parent;
  };
  if (o.requested !== undefined) {
    const branch = await requireBranch(ctx.repo.primary, o.requested);
    if (!(await usable(branch))) throw usageError("invalid_argument", `--branch ${branch} exists at another commit or is checked out; name a new branch`);
    return branch;
  }
  const fallback = fallbackBranch(o.ref);
  for (const candidate of [o.recorded, fallback]) if (candidate && (await usable(candidate))) return candidate;
  throw usageError("invalid_argument", `the branches ${o.recorded ?? "(none recorded)"} and ${fallback} are taken; pass --branch <new>`);
}
