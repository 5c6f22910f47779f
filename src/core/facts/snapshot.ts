// The snapshot a command's facts are read from: git's worktree list, the refs, the registry's rows,
// the process scan and the two history walks (unpushed, unmerged), in a fixed number of git
// processes whatever the number of worktrees, run side by side.
import { readRefs, readWorktrees } from "../../git/read.js";
import { SNAPSHOT_REFS } from "../../git/early.js";
import { dropEarly } from "../../git/run.js";
import type { WorktreeEntry } from "../../git/parse/worktrees.js";
import type { RefRecord } from "../../git/parse/refs.js";
import { branchRefOf, type Registry, type WorktreeRow } from "../../registry/index.js";
import { readAdminDirs } from "../shared/repo/admin.js";
import { readProcessCwds } from "../ownership/index.js";
import { readDefaultBranch, targetRefs, type DefaultBranch, type RepoContext } from "../shared/repo/repo.js";
import { readFingerprintBasis, type FingerprintBasis } from "../bootstrap/index.js";
import { focusAdmin, focusRefPatterns, readFocusRefs } from "./focus-refs.js";
import { recoverRows } from "../workspace/index.js";
import { walkGraph } from "./graphs.js";

export interface Snapshot {
  repo: RepoContext;
  defaultBranch: DefaultBranch;
  targets: string[];
  entries: WorktreeEntry[];
  refs: Map<string, RefRecord>;
  rows: WorktreeRow[];
  admins: Map<string, string>;
  /** Each admin dir's newest sign of work (readAdminActivity), where the caller read them already (plain list, while git listed). */
  activity?: ReadonlyMap<string, number | null>;
  cwds: Map<number, string> | null;
  /** Commits reachable from some worktree HEAD, from no remote-tracking ref and not from the local
   * default branch (its commits are the default branch's, not the worktree's: SPEC §4.6), with parents. */
  unpushedGraph: ReadonlyMap<string, readonly string[]> | null;
  /** Commits reachable from some worktree HEAD and not from any target. */
  unmergedGraph: ReadonlyMap<string, readonly string[]> | null;
  /** What the current fingerprints are computed from (inputs at every head, templates, trust). */
  fingerprints: FingerprintBasis;
  now: number;
}

/** What a caller already read for this snapshot: the process scan (hygiene scans before its status
 * shells start: their git processes are not our children) and the admin dirs; `mergeGraph: false`
 * when no merge proof will be asked (plain `list`): no walk for `unmergedGraph` (null). `focus`:
 * the one worktree the command needs facts of; the history walks and fingerprint inputs then start
 * from its head alone (its facts are the same: each count starts from its own head), only its
 * admin dir is read, and `rows` are its row (when it has one) and those recovered from identity files. */
export interface SnapshotOptions {
  /** A scan already made, or under way (startDirty scans once the first of its gits is done). */
  cwds?: Map<number, string> | null | Promise<Map<number, string> | null>;
  admins?: Map<string, string>;
  /** readAdminActivity of each of `admins`, read with them. */
  activity?: ReadonlyMap<string, number | null>;
  mergeGraph?: boolean;
  focus?: { entry: WorktreeEntry | null; row: WorktreeRow | null };
  /** The linked worktrees' entries, where the caller has them without the listing (a focused snapshot's
   * own entry: core/facts/focused-entry.ts); no listing is read then. */
  linked?: readonly WorktreeEntry[];
}

/**
 * `listing`: the `git worktree list` this command already read (same lock, nothing changed since).
 * The refs, the registry rows and the process scan overlap: git runs while this process scans.
 */
export async function readSnapshot(repo: RepoContext, registry: Registry, listing?: WorktreeEntry[], options: SnapshotOptions = {}): Promise<Snapshot> {
  const focus = options.focus;
  const focused = focus && focusRefPatterns(repo, [focus.entry?.branch, focus.row && branchRefOf(focus.row)], focus.row);
  const refsRead = focus ? readFocusRefs(repo, focused ?? null) : readRefs(repo.primary, SNAPSHOT_REFS);
  const linked = options.linked;
  const listed = Promise.all([linked ? [] : (listing ?? readWorktrees(repo.primary)), refsRead]);
  listed.catch(() => undefined); // awaited below, after the scan
  dropEarly(); // what the command line started early (git/early.ts) and nobody took by now is stale
  // focused on a row: its facts read that row alone; recovering identity files needs every row's path and handle only,
  // and none when the one admin dir read (focusAdmin) is the row's own: nothing else can be recovered (a read per call saved)
  const ownAdminOnly = focus?.row && options.admins === undefined && (!focus.entry || focus.entry.path === focus.row.path);
  const rowsRead = ownAdminOnly
    ? Promise.resolve([focus.row as WorktreeRow])
    : focus?.row
      ? registry.worktrees.currentKeys(repo.identity)
      : registry.worktrees.current(repo.identity);
  rowsRead.catch(() => undefined);
  // our own git children running now are in the scan's `ours`, never "inside"
  const cwds = options.cwds !== undefined ? await options.cwds : await readProcessCwds();
  const admins = options.admins ?? (focus ? focusAdmin(repo.commonDir, focus.entry?.path ?? focus.row?.path ?? null) : readAdminDirs(repo.commonDir));
  const [all, refList] = await listed;
  const entries = linked ? [...linked] : all.slice(1).filter((e) => !e.bare);
  const refs = new Map(refList.map((r) => [r.ref, r]));
  const defaultBranch = await readDefaultBranch(repo, refs);
  const targets = defaultBranch ? targetRefs(repo, defaultBranch.name, new Set(refs.keys())) : [];
  // a listed worktree whose row is gone: its identity file (restored under a write's lock)
  const registered = await rowsRead;
  const recovered = await recoverRows(registry, repo, entries, registered, admins);
  const rows = focus?.row ? [focus.row, ...recovered] : [...(registered as WorktreeRow[]), ...recovered];
  // rows git no longer lists still have a branch tip: walk from it too, or its count would read 0
  const rowHeads = rows.map((r) => (r.branch !== null ? refs.get(`refs/heads/${r.branch}`)?.oid : undefined));
  const focusHead = focus && (focus.entry ? focus.entry.head : focus.row?.branch ? refs.get(`refs/heads/${focus.row.branch}`)?.oid : null);
  const tips = focus ? [focusHead] : [...entries.map((e) => e.head), ...rowHeads];
  const heads = [...new Set(tips.filter((h): h is string => !!h))];
  // by object id: a ref name that is not UTF-8 reads back changed and would name nothing to git
  const remoteRefs = [...new Set(refList.filter((r) => r.ref.startsWith("refs/remotes/") && r.oid).map((r) => r.oid))];
  const localDefault = defaultBranch ? refs.get(`refs/heads/${defaultBranch.name}`)?.oid : undefined;
  const notOwnWork = localDefault ? [...remoteRefs, localDefault] : remoteRefs;
  // the targets by the ids this snapshot read too: each walk is then fixed by ids alone (graphs.ts)
  const targetIds = targets.map((t) => refs.get(t)?.oid ?? t);
  const walk = (excluded: string[]) => walkGraph(repo.primary, repo.commonDir, heads, excluded);
  const [unpushedGraph, unmergedGraph, fingerprints] = await Promise.all([
    repo.remotes.length > 0 ? walk(notOwnWork) : Promise.resolve(null),
    targets.length > 0 && options.mergeGraph !== false ? walk(targetIds) : Promise.resolve(null),
    readFingerprintBasis(repo, registry, heads),
  ]);
  return {
    repo,
    defaultBranch,
    targets,
    entries,
    refs,
    rows,
    admins,
    ...(options.activity ? { activity: options.activity } : {}),
    cwds,
    unpushedGraph,
    unmergedGraph,
    fingerprints,
    now: Date.now(),
  };
}

/** Number of commits reachable from `tip` inside a graph of "commits not excluded". */
