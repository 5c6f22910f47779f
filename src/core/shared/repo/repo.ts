// Finding the repo a command is about: the primary (through the common dir, so every linked
// worktree leads back to it), its identity, its name in this workspace, and its default branch.
import { existsSync, realpathSync, statSync } from "node:fs";
import { join } from "node:path";
import { basename, dirname } from "node:path";
import { readConfig, readGitDirs, readRemoteConfig, readSymbolicRef, readWorktrees, resolveCommit } from "../../../git/read.js";
import { GitError } from "../../../git/errors.js";
import { refuseWedgedConfig } from "../../../git/programs/read.js";
import { canonicalRemote, disambiguateRepoName, localIdentity, repoNameFrom } from "../naming/identity.js";
import { loadConfig, type LoadedConfig } from "../config.js";
import { usageError } from "../errors.js";
import type { Registry } from "../../../registry/index.js";
import type { Workspace } from "../../workspace/index.js";
import type { WorktreeEntry } from "../../../git/parse/worktrees.js";
import { heldMutationLock, mutationEpoch, type MutationLock } from "../../ownership/index.js";

export interface RepoContext {
  identity: string;
  /** The workspace this context serves: whose worktrees it may recover, adopt and remove (SPEC v4 §4.11). */
  workspace: Workspace;
  name: string;
  /** The main worktree's path (or the bare repository). */
  primary: string;
  commonDir: string;
  bare: boolean;
  remotes: string[];
  config: LoadedConfig;
  /** The worktree listing read while resolving the repo: one read-only command may use it once
   * (takeListing) instead of listing again, unless this process entered the mutation lock since.
   * A mutation lists anew under its lock, unless this listing was read under that same hold of
   * the lock and taken before the mutation entered it again (takeLockedListing). */
  listing?: WorktreeEntry[] | undefined;
  /** mutationEpoch() when the listing was read: a change made since (a release before a cleanup) voids it. */
  listingEpoch?: number;
  /** The mutation lock this chain held while git listed (takeLockedListing), if any. */
  listingLock?: MutationLock | undefined;
  /** repoStamp taken before the remotes were read: a cached context is reused while it holds. */
  stamp?: string;
}

/** The listing read while resolving the repo, once (a cached context of the MCP server lists anew). */
export function takeListing(repo: RepoContext): WorktreeEntry[] | undefined {
  const listing = repo.listing;
  repo.listing = undefined;
  return repo.listingEpoch === mutationEpoch() ? listing : undefined;
}

/** The listing read while resolving the repo, looked at without taking it (the command's snapshot takes it next). */
export function peekListing(repo: RepoContext): WorktreeEntry[] | undefined {
  return repo.listingEpoch === mutationEpoch() ? repo.listing : undefined;
}

/** Where a path's repository keeps its git dirs (one `rev-parse`): the first step of resolveRepo. */
export interface RepoLocation {
  commonDir: string;
  bare: boolean;
  /** The path is in the main worktree (or the bare repository itself): its git dir is the common dir. */
  inPrimary: boolean;
}

export async function locateRepo(repoPath: string): Promise<RepoLocation> {
  if (!existsSync(repoPath)) throw usageError("not_a_repository", `${repoPath} does not exist`);
  await refuseWedgedConfig(repoPath); // an include every git would wait on: said now, not after a git's timeout
  let dirs;
  try {
    dirs = await readGitDirs(repoPath);
  } catch (error) {
    if (error instanceof GitError) throw usageError("not_a_repository", `${repoPath} is not inside a git repository`);
    throw error;
  }
  const commonDir = realpathSync(dirs.commonDir);
  return { commonDir, bare: dirs.bare, inPrimary: realpathSync(dirs.gitDir) === commonDir };
}

/**
 * The listing read while resolving the repo, once, if it was read under the mutation lock this
 * chain still holds: a mutation may decide on it instead of listing again (nothing under that
 * lock changed since). Undefined otherwise (taken, read without the lock, or the lock let go).
 */
export function takeLockedListing(repo: RepoContext): WorktreeEntry[] | undefined {
  const lock = repo.listingLock;
  if (lock === undefined || heldMutationLock(repo.commonDir) !== lock) return undefined;
  repo.listingLock = undefined;
  return takeListing(repo);
}

/**
 * The main worktree's path as `git worktree list` names it (git's get_main_worktree: the common dir's
 * real path with its "/.git" dropped), where that is told without listing: from inside a main worktree
 * that is not bare, whose git dir is its `.git` directory. Null anywhere else (the listing tells).
 */
export function mainWorktreeOf(located: RepoLocation): string | null {
  return located.inPrimary && !located.bare && basename(located.commonDir) === ".git" ? dirname(located.commonDir) : null;
}

/**
 * `located`: where the repo is, when the caller knows it already; it has then taken the repo's
 * mutation lock if it could (Orchard's lockedContext), and git lists the worktrees now, under it.
 * Otherwise git lists them while it resolves the dirs.
 */
export async function resolveRepo(
  registry: Registry,
  repoPath: string,
  workspace: Workspace,
  located?: RepoLocation,
  options: { listing?: boolean } = {},
): Promise<RepoContext> {
  if (!existsSync(repoPath)) throw usageError("not_a_repository", `${repoPath} does not exist`);
  // git lists the worktrees while it resolves the dirs (its failure outside a repo is not the answer)
  const listing = located ? null : readWorktrees(repoPath);
  listing?.catch(() => undefined);
  const dirs = located ?? (await locateRepo(repoPath));
  const commonDir = dirs.commonDir;
  const stamp = repoStamp(repoPath, { commonDir });
  const listingLock = located ? heldMutationLock(commonDir) : undefined;
  // the remotes are read in the primary; from inside it (its git dir is the common dir: the same
  // config files, the same includeIf answers) that read need not wait for the listing to name it
  const early = dirs.inPrimary ? readRemoteConfig(repoPath) : null;
  early?.catch(() => undefined); // awaited below; a failed listing must not leave it unhandled
  // `listing: false` (an add, which lists under its lock only when its decision needs it): no listing where
  // the primary is told without it, under the lock this chain holds (without it, the listing is read now, as before)
  const named = located && options.listing === false && listingLock !== undefined ? mainWorktreeOf(located) : null;
  const entries = named === null ? await (listing ?? readWorktrees(repoPath)) : undefined;
  const listingEpoch = mutationEpoch();
  const main = entries?.[0];
  const bare = main?.bare ?? dirs.bare;
  const primary = named ?? main?.path ?? (bare ? commonDir : dirname(commonDir));
  const remotes = await (early ?? readRemoteConfig(primary)); // one process for the names and origin's url
  const url = remotes.urls.get("origin") ?? null;
  const remote = url ? canonicalRemote(url) : null;
  const identity = remote ?? localIdentity(commonDir);
  // the name is recorded once; later calls only read it back (no write transaction for a repo already known as it is)
  const known = await registry.repos.load(identity);
  const name =
    known && known.primaryPath === primary && known.commonDir === commonDir
      ? known.name
      : await registry.write(async () => await recordName(registry, identity, { canonicalRemote: remote, primaryPath: primary }, commonDir));
  const config = loadConfig(bare ? commonDir : primary);
  return { identity, workspace, name, primary, commonDir, bare, remotes: remotes.names, config, listing: entries, listingEpoch, listingLock, stamp };
}

/**
 * What a resolved context depends on that can change under a long-lived process (the MCP server):
 * the path still exists, and the repository's own config file (remotes, so the identity) is the
 * same file — git rewrites it through a lock file and a rename, so any change gives a new inode.
 */
export function repoStamp(path: string, repo: Pick<RepoContext, "commonDir">): string {
  const st = statSync(join(repo.commonDir, "config"), { throwIfNoEntry: false });
  return `${existsSync(path)}:${st ? `${st.ino}:${st.size}:${st.mtimeMs}` : "none"}`;
}

/** A cached context for one more call: no listing of an earlier call, the configuration read again (trust pins its text). */
export function refreshRepo(repo: RepoContext): RepoContext {
  return { ...repo, listing: undefined, listingLock: undefined, config: loadConfig(repo.bare ? repo.commonDir : repo.primary) };
}

async function recordName(
  registry: Registry,
  identity: string,
  source: { canonicalRemote: string | null; primaryPath: string },
  commonDir: string,
): Promise<string> {
  const primaryPath = source.primaryPath;
  // the same common dir under a new identity (its origin URL changed): carry its rows over, so
  // its managed worktrees do not turn foreign (a recorded primary elsewhere is another repo)
  const before = (await registry.repos.load(identity)) ? undefined : await registry.repos.loadByCommonDir(commonDir);
  if (before && before.identity !== identity && before.primaryPath === primaryPath) await registry.repos.moveIdentity(before.identity, identity);
  const known = await registry.repos.load(identity);
  if (known) {
    await registry.repos.save({ ...known, primaryPath, commonDir });
    return known.name;
  }
  let name = repoNameFrom(source);
  if (await registry.repos.loadByName(name)) name = disambiguateRepoName(name, identity);
  await registry.repos.save({ identity, name, primaryPath, commonDir, createdAt: new Date().toISOString() });
  return name;
}

export type DefaultBranch = { name: string; source: "config" | "origin_head" | "init_default" | "main" | "master" } | null;

/**
 * SPEC §4.4. Never the current branch. Null = unknown (a remote exists without origin/HEAD).
 * `refs`: every ref under refs/heads and refs/remotes read just now (for-each-ref with %(symref)),
 * so that origin/HEAD (when listed) and the local branches need no process of their own.
 */
export async function readDefaultBranch(repo: RepoContext, refs?: ReadonlyMap<string, { oid: string; symref: string | null }>): Promise<DefaultBranch> {
  const configured = repo.config.config.defaultBranch;
  if (configured) return { name: configured, source: "config" };
  // for-each-ref leaves out a dangling origin/HEAD, which symbolic-ref still names: ask git then
  const listed = refs?.get("refs/remotes/origin/HEAD");
  const originHead = listed ? listed.symref : await readSymbolicRef(repo.primary, "refs/remotes/origin/HEAD");
  if (originHead?.startsWith("refs/remotes/origin/")) return { name: originHead.slice("refs/remotes/origin/".length), source: "origin_head" };
  if (repo.remotes.length > 0) return null;
  const init = await readConfig(repo.primary, "init.defaultBranch").catch(() => null);
  for (const [name, source] of [
    [init, "init_default"],
    ["main", "main"],
    ["master", "master"],
  ] as const) {
    if (name && (refs ? refs.has(`refs/heads/${name}`) : await resolveCommit(repo.primary, `refs/heads/${name}`))) return { name, source };
  }
  return null;
}

/** The refs that count as "the target" for merged checks: local default branch and origin's copy. */
export function targetRefs(repo: RepoContext, defaultBranch: string, existing: ReadonlySet<string>): string[] {
  const refs = [`refs/heads/${defaultBranch}`];
  if (repo.remotes.includes("origin")) refs.push(`refs/remotes/origin/${defaultBranch}`);
  return refs.filter((ref) => existing.has(ref));
}

export function repoLabel(repo: RepoContext): string {
  return repo.name || basename(repo.primary);
}
