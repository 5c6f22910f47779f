// `status` and `list` (SPEC §3.3): read-only, no lock taken.
import {
  focusRefPatterns,
  focusedEntry,
  readSnapshot,
  readOneFacts,
  listFacts,
  registeredAdmin,
  startDirty,
  startStatuses,
  type Snapshot,
} from "../facts/index.js";
import { resolveTarget } from "../shared/repo/target.js";
import { takeListing } from "../shared/repo/repo.js";
import type { Ctx } from "../shared/context.js";
import type { Facts } from "../shared/types.js";
import { dropEarly } from "../../git/run.js";
import { readAdminActivity, readAdminDirs } from "../shared/repo/admin.js";
import { readProcessCwds } from "../ownership/index.js";
import { commonDirOf } from "../../git/programs/policy.js";
import { resolve } from "node:path";
import { branchRefOf } from "../../registry/index.js";

export interface StatusResult {
  ok: true;
  worktree: Facts;
}

export async function status(ctx: Ctx, options: { target: string }): Promise<StatusResult> {
  // a handle's recorded path: its `git status` starts while git lists the worktrees (used only if the target resolves there)
  const row = options.target.includes("@") ? await ctx.registry.worktrees.byHandle(options.target) : undefined;
  const listing = takeListing(ctx.repo);
  const own = row && row.repo === ctx.repo.identity ? row : undefined;
  // with no listing in hand, a handle's worktree that git registers is read on git's entry for it
  // alone (focused-entry.ts: its admin files and its status); every other worktree is not listed
  const focus = own && listing === undefined ? registeredAdmin(ctx.repo.commonDir, own.path) : null;
  // with what its snapshot reads: the listing (when there is none yet, nor a focused entry) and the refs
  const reads = row
    ? { listing: listing === undefined && focus === null, refs: focusRefPatterns(ctx.repo, [branchRefOf(row)], row), commonDir: ctx.repo.commonDir }
    : undefined;
  const early = own ? startDirty(ctx.repo, own.path, reads) : null;
  try {
    const status = focus !== null && early ? await early.status : null;
    const entry = own && focus !== null && status ? focusedEntry(own.path, focus, status) : null;
    // (where no focused entry could be told: the handle resolved on the listing, read now)
    const target = own && entry ? { entry, row: own, focused: true } : await resolveTarget(ctx, options.target, listing);
    const { facts } = await readOneFacts(ctx.repo, ctx.registry, target, early);
    return { ok: true, worktree: facts };
  } finally {
    if (early) dropEarly(); // a target that failed to resolve leaves no early answer for a later call
  }
}

export interface RepoSummary {
  identity: string;
  name: string;
  primary: string;
  defaultBranch: string | null;
}

export interface ListResult {
  ok: true;
  repo: RepoSummary;
  worktrees: Facts[];
  repos?: { repo: RepoSummary; worktrees: Facts[] }[];
}

/**
 * What plain `list` reads without git, read while git lists the worktrees (the command line started
 * the listing before the library loaded; the context waits for it): the admin dirs' records, each
 * one's newest sign of work and the process scan, which its snapshot and facts would read after the
 * listing, on the path to the answer. Used only for the repository whose common dir it is
 * (`commonDir`: as git would find it from the command's directory); the snapshot reads them itself
 * otherwise, and where these could not be read (the snapshot then says why, as before).
 */
export interface BesideListing {
  commonDir: string;
  admins: Map<string, string>;
  /** Each admin dir's newest sign of work (readAdminActivity). */
  activity: Map<string, number | null>;
  cwds: Promise<Map<number, string> | null>;
}

export function readBesideListing(options: { full?: boolean | undefined }, path: string): BesideListing | undefined {
  try {
    const commonDir = options.full ? null : commonDirOf(resolve(path)); // --full reads its admin dirs with its statuses (startStatuses)
    return commonDir === null ? undefined : readBeside(commonDir);
  } catch {
    return undefined;
  }
}

function readBeside(commonDir: string): BesideListing {
  const cwds = readProcessCwds(); // our gits running now are ours to it (as in the snapshot, while its refs are read)
  cwds.catch(() => undefined); // awaited by the snapshot, or dropped with the repo it was not
  const admins = readAdminDirs(commonDir);
  const activity = new Map<string, number | null>();
  for (const admin of admins.values()) activity.set(admin, readAdminActivity(admin));
  return { commonDir, admins, activity, cwds };
}

export async function listRepo(ctx: Ctx, options: { full?: boolean | undefined }, beside?: BesideListing): Promise<{ repo: RepoSummary; worktrees: Facts[] }> {
  if (!options.full) {
    const read = beside?.commonDir === ctx.repo.commonDir ? { admins: beside.admins, activity: beside.activity, cwds: beside.cwds } : {};
    const snapshot = await readSnapshot(ctx.repo, ctx.registry, takeListing(ctx.repo), { mergeGraph: false, ...read }); // no merge proof asked
    return { repo: repoSummary(ctx, snapshot), worktrees: await listFacts(snapshot, { full: false }) };
  }
  // the statuses start first and run beside the snapshot's processes
  const { listing, cwds, admins, states } = await startStatuses(ctx.repo, takeListing(ctx.repo));
  const snapshot = await readSnapshot(ctx.repo, ctx.registry, listing, { cwds, admins });
  return { repo: repoSummary(ctx, snapshot), worktrees: await listFacts(snapshot, { full: true, states }) };
}

function repoSummary(ctx: Ctx, snapshot: Snapshot): RepoSummary {
  return { identity: ctx.repo.identity, name: ctx.repo.name, primary: ctx.repo.primary, defaultBranch: snapshot.defaultBranch?.name ?? null };
}
