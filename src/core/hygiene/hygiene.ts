// `orchard hygiene` (SPEC §3.6): one truthful report. Gather (hygiene-gather, husk), decide with
// the pure verdict (hygiene-assess), measure disk if asked (disk), then the fleet views
// (hygiene-groups). `assessFleet` is shared with `cleanup plan`, which plans from the same
// verdicts, so a plan never lists a worktree the report would not.
import { harnessRoots, sweptRootReason } from "../harness/index.js";
import { statSync } from "node:fs";
import { writeFileAtomic } from "../shared/files.js";
import { dirname, resolve } from "node:path";
import { gatherRepo, type RepoGather } from "./gather.js";
import { assessDisposition } from "./assess.js";
import { suggest } from "./suggest.js";
import { cleanupBacklog, duplicateTaskGroups, patchEquivalentGroups, summarize, taskGroups } from "./groups.js";
import { countRevs } from "../../git/read.js";
import { listRootEntries, readHuskFacts, type KnownRepo } from "./husk.js";
import { measureFleet, measureKept } from "./disk.js";
import { assessFloor, wouldFree } from "./free.js";
import { formatBytes } from "../shared/format.js";
import { gatherKept, judgeKept, needsKeptBytes, type KeptAssessment } from "./kept.js";
import { trashReport } from "./trash.js";
import { publishSummaries } from "./publish.js";
import { readLiveness } from "../facts/index.js";
import { readProcessCwds } from "../ownership/index.js";
import { requireDuration } from "../shared/input/validate.js";
import { failure, usageError } from "../shared/errors.js";
import { reason, type Reason } from "../shared/reasons/reasons.js";
import type { Ctx } from "../shared/context.js";
import type { Facts } from "../shared/types.js";
import type { DiskSummary, HygieneReport, HygieneWorktree, PreventableSuggestion, Subject, Verdict } from "./types.js";

export interface HygieneOptions {
  allRepos?: boolean | undefined;
  disk?: boolean | undefined;
  diskBudget?: string | undefined;
  html?: string | undefined;
  /** Judge worktrees whose Claude Code session can still be resumed like any other (cleanup --include-resumable). */
  includeResumable?: boolean | undefined;
  /**
   * Publish this host's summary for `hygiene --fleet` (SPEC v5 §3.12: its own step). The CLI's
   * `hygiene` and `hygiene --fleet` do; the report alone (orchard_hygiene) writes nothing.
   */
  publish?: boolean | undefined;
}

export interface FleetMember {
  subject: Subject;
  verdict: Verdict;
  view: HygieneWorktree;
  /** Digest of the uncommitted state when it was read (worktrees), else null. */
  digest: string | null;
}

export interface Fleet {
  generatedAt: string;
  gathers: RepoGather[];
  members: FleetMember[];
  notes: Reason[];
  disk?: DiskSummary;
  /** The kept copies of bootstrap.share of the repos in scope. */
  kept: KeptAssessment[];
}

export const DEFAULT_DISK_BUDGET_MS = 5 * 60_000;

async function knownRepos(ctx: Ctx): Promise<KnownRepo[]> {
  return (await ctx.registry.repos.all()).map((r) => ({ identity: r.identity, name: r.name, commonDir: r.commonDir }));
}

/** A husk's Facts: nothing git knows, liveness from processes inside (and a registry lease, if any). */
async function huskFacts(path: string, cwds: Map<number, string> | null, now: number): Promise<Facts> {
  const mtime = statOrNull(path);
  return {
    path,
    handle: null,
    managed: false,
    branch: null,
    head: null,
    detached: false,
    lifecycle: null,
    task: null,
    owner: null,
    base: null,
    lock: { locked: false, reason: null, owner: null },
    liveness: await readLiveness({ row: null, lockReason: null, path, cwds, now }),
    dirty: null,
    upstream: null,
    unpushed: null,
    merged: null,
    fingerprints: { bootstrap: null, context: null, runtime: null, drift: [] },
    createdAt: null,
    lastActivity: mtime,
    missing: false,
    prunable: null,
    harness: null,
  };
}

function statOrNull(path: string): string | null {
  const st = statSync(path, { throwIfNoEntry: false });
  return st ? st.mtime.toISOString() : null;
}

/** Husks found by scanning the managed root: in scope when attributed to a repo in scope, or to none. */
async function scanHusks(ctxs: Ctx[], gathers: RepoGather[], repos: KnownRepo[]): Promise<Subject[]> {
  const first = ctxs[0] as Ctx;
  const known = new Set(gathers.flatMap((g) => g.subjects.map((s) => s.facts.path)));
  const inScope = new Set(ctxs.map((c) => c.repo.identity));
  const cwds = await readProcessCwds();
  const out: Subject[] = [];
  for (const path of listRootEntries(first.workspace.root, known)) {
    const husk = await readHuskFacts(path, repos);
    if (!husk || (husk.repo !== null && !inScope.has(husk.repo))) continue;
    out.push({ facts: await huskFacts(path, cwds, Date.now()), repo: husk.repo, listed: false, underRoot: true, husk, createdBranch: false, errors: {} });
  }
  return out;
}

function viewOf(subject: Subject, verdict: Verdict, repoPrimary: string | null): HygieneWorktree {
  const { path, handle, ...facts } = subject.facts;
  const view: HygieneWorktree = {
    path,
    handle,
    repo: subject.repo,
    disposition: verdict.disposition,
    reasons: verdict.reasons,
    suggestion: suggest(subject.facts, verdict, { repoPrimary }),
    ...facts,
  };
  if (subject.husk) view.husk = subject.husk;
  if (verdict.reapableAt) view.reapableAt = verdict.reapableAt;
  return view;
}

/**
 * `focus`: the one worktree path a one-worktree verb (`remove`) judges: only it is gathered (its
 * listing entry, row, status and history; gather.ts readFocused), no husk is scanned and no kept
 * copy weighed. Its verdict is the one the whole fleet's assessment gives it.
 */
export async function assessFleet(ctxs: Ctx[], options: HygieneOptions & { verifyShare?: boolean }, focus?: string): Promise<Fleet> {
  const generatedAt = new Date().toISOString();
  const budgetMs = requireDuration(options.diskBudget, "disk-budget", DEFAULT_DISK_BUDGET_MS); // invalid input fails before any work
  const repos = await knownRepos(ctxs[0] as Ctx);
  const gathers: RepoGather[] = [];
  for (const ctx of ctxs) gathers.push(await gatherRepo(ctx, repos, { includeResumable: options.includeResumable ?? false, focus }));
  const primaries = new Map(ctxs.map((c) => [c.repo.identity, c.repo.primary]));
  const several = ctxs.length > 1;
  const subjects = [...gathers.flatMap((g) => g.subjects), ...(focus === undefined ? await scanHusks(ctxs, gathers, repos) : [])];
  const digests = new Map(gathers.flatMap((g) => [...g.digests]));
  const members = subjects.map((subject): FleetMember => {
    const verdict = assessDisposition(subject);
    const primary = several && subject.repo ? (primaries.get(subject.repo) ?? null) : null;
    return { subject, verdict, view: viewOf(subject, verdict, primary), digest: digests.get(subject.facts.path) ?? null };
  });
  const fleet: Fleet = { generatedAt, gathers, members, notes: [], kept: [] };
  const others = [...new Set(subjects.flatMap((s) => (s.otherPrimary ? [s.otherPrimary] : [])))];
  if (others.length > 0) fleet.notes.push(reason("duplicate_primary", { primaries: [...ctxs.map((c) => c.repo.primary), ...others] }));
  if (focus !== undefined) return fleet; // one worktree's verdict: no kept copy, no disk measured
  fleet.kept = gatherKept(
    ctxs,
    members.map((m) => m.view),
    { verify: options.disk === true || options.verifyShare === true },
  );
  if (options.disk) {
    const admins = new Map(gathers.flatMap((g) => [...g.snapshot.admins]));
    const measured = await measureFleet(
      members.map((m) => ({ view: m.view, admin: admins.get(m.view.path) ?? null })),
      budgetMs,
      fleet.kept,
    );
    fleet.disk = measured.summary;
    fleet.notes.push(...measured.notes);
  } else if (needsKeptBytes(fleet.kept)) await measureKept(fleet.kept);
  judgeKept(fleet.kept); // again, with the bytes: the share budget
  return fleet;
}

export async function hygiene(ctxs: Ctx[], options: HygieneOptions, scopeNotes: Reason[] = []): Promise<HygieneReport> {
  if (options.html !== undefined) requireHtmlPath(options.html); // invalid input fails before any work
  const fleet = await assessFleet(ctxs, options);
  const trash = await trashReport((ctxs[0] as Ctx).workspace.home, {
    disk: fleet.disk !== undefined,
    deadline: Date.now() + requireDuration(options.diskBudget, "disk-budget", DEFAULT_DISK_BUDGET_MS),
  });
  fleet.notes.push(...trash.notes, ...floorNotes(ctxs, fleet));
  // a managed worktree under a root a harness sweeps by count (Cursor's): that harness may delete it
  const roots = harnessRoots();
  for (const m of fleet.members) if (m.view.managed) fleet.notes.push(...[sweptRootReason(m.view.path, roots)].filter((r) => r !== null));
  if (fleet.disk && trash.trashBytes !== undefined) fleet.disk.trashBytes = trash.trashBytes;
  const worktrees = fleet.members.map((m) => m.view);
  const summary = summarize(worktrees);
  if (fleet.disk) summary.disk = fleet.disk;
  const patchMembers = fleet.gathers.flatMap((g) =>
    g.subjects.flatMap((s) => {
      const patchId = g.patchIds.get(s.facts.path);
      return patchId ? [{ repo: g.ctx.repo.identity, path: s.facts.path, handle: s.facts.handle, patchId }] : [];
    }),
  );
  const report: HygieneReport = {
    ok: true,
    generatedAt: fleet.generatedAt,
    repos: fleet.gathers.map((g) => g.summary),
    summary,
    worktrees,
    duplicateTaskGroups: duplicateTaskGroups(worktrees, await commitsAhead(ctxs, worktrees)),
    patchEquivalentGroups: patchEquivalentGroups(patchMembers),
    preventableDuplicates: await preventableDuplicates(ctxs),
    cleanupBacklog: cleanupBacklog(worktrees, fleet.disk ? fleet.disk.backlogBytes : null),
    keptCopies: fleet.kept.map((k) => k.view),
    notes: [...scopeNotes, ...fleet.notes],
  };
  if (options.publish) await publishSummaries(ctxs, report);
  if (options.html) {
    const { renderHygieneHtml } = await import("./html.js"); // the renderer loads for --html only
    report.html = writeHtml(options.html, (path) => renderHygieneHtml({ ...report, html: path }));
  }
  return report;
}

/** `disk_low` for each repo whose `disk.minFree` the workspace's filesystem is below (hygiene warns; add refuses). */
function floorNotes(ctxs: Ctx[], fleet: Fleet): Reason[] {
  const notes: Reason[] = [];
  for (const ctx of ctxs) {
    const minFree = ctx.repo.config.config.disk?.minFree;
    const floor = assessFloor(ctx.workspace.home, minFree);
    if (!floor?.below || minFree === undefined) continue;
    const would = fleet.disk ? { wouldFree: wouldFree(fleet) } : {};
    notes.push(
      reason(
        "disk_low",
        { free: floor.free, floor: floor.floor, minFree, ...would },
        `${ctx.repo.name}: ${formatBytes(floor.free)} free, the floor is ${minFree}`,
      ),
    );
  }
  return notes;
}

/** Commits ahead of the recorded base, for members of duplicate-task groups only (one rev-list each; null when unknown). */
async function commitsAhead(ctxs: Ctx[], worktrees: readonly HygieneWorktree[]): Promise<Map<string, number | null>> {
  const primaries = new Map(ctxs.map((c) => [c.repo.identity, c.repo.primary]));
  const ahead = new Map<string, number | null>();
  for (const w of taskGroups(worktrees).flat()) {
    const primary = w.repo ? primaries.get(w.repo) : undefined;
    ahead.set(
      w.path,
      primary && w.head && w.base
        ? await countRevs(primary, w.head, [w.base.commit]).catch(() => null) /* an unreadable count is unknown, never a guess */
        : null,
    );
  }
  return ahead;
}

/** The hint of a preventable duplicate: the policy admission recorded as the one that would have reused a worktree. */
export function preventableSuggestion(data: Record<string, unknown>): PreventableSuggestion | null {
  const would = data.wouldReuse as { policy?: unknown; handle?: unknown } | undefined;
  if (typeof would?.handle !== "string" || (would.policy !== "reuse-compatible" && would.policy !== "recycle-terminal")) return null;
  const verb = would.policy === "reuse-compatible" ? "reused" : "recycled";
  return { policy: would.policy, handle: would.handle, action: `pass --policy ${would.policy} for this task: it would have ${verb} ${would.handle}` };
}

async function preventableDuplicates(ctxs: Ctx[]): Promise<HygieneReport["preventableDuplicates"]> {
  const registry = (ctxs[0] as Ctx).registry;
  let count = 0;
  const recent: HygieneReport["preventableDuplicates"]["recent"] = [];
  for (const ctx of ctxs) {
    count += await registry.events.count(ctx.repo.identity, "preventable_duplicate");
    for (const e of await registry.events.ofKind(ctx.repo.identity, "preventable_duplicate", 20))
      recent.push({ at: e.at, repo: e.repo, handle: e.handle, task: e.task, owner: e.owner, data: e.data, suggestion: preventableSuggestion(e.data) });
  }
  recent.sort((a, b) => b.at.localeCompare(a.at));
  return { count, recent: recent.slice(0, 20) };
}

/** `--html <file>` names a file to write: a directory, or a path whose parent is no directory, is invalid input (exit 2). */
export function requireHtmlPath(file: string): void {
  const path = resolve(file);
  if (statSync(path, { throwIfNoEntry: false })?.isDirectory()) throw usageError("invalid_argument", `--html ${path} is a directory; name the file to write`);
  if (!statSync(dirname(path), { throwIfNoEntry: false })?.isDirectory())
    throw usageError("invalid_argument", `--html ${path}: ${dirname(path)} is not a directory`);
}

/** Writes an HTML page atomically (a fresh temporary file, then rename); `render` gets its absolute path, which is returned. */
export function writeHtml(file: string, render: (path: string) => string): string {
  const path = resolve(file);
  const html = render(path);
  try {
    writeFileAtomic(path, html);
  } catch (error) {
    throw failure("html_write_failed", `could not write ${path}: ${(error as Error).message}`, error);
  }
  return path;
}

/** The repos a command covers: the current one, or every repo of the registry (those that open). */
export async function resolveScope(main: Ctx, allRepos: boolean, open: (primary: string) => Promise<Ctx>): Promise<{ ctxs: Ctx[]; notes: Reason[] }> {
  const ctxs = [main];
  const notes: Reason[] = [];
  if (!allRepos) return { ctxs, notes };
  for (const known of await main.registry.repos.all()) {
    if (known.identity === main.repo.identity) continue;
    try {
      ctxs.push(await open(known.primaryPath));
    } catch (error) {
      notes.push(
        reason(
          "fact_unknown",
          { fact: "repo", repo: known.identity, primary: known.primaryPath, error: (error as Error).message },
          `the repo at ${known.primaryPath} could not be opened`,
        ),
      );
    }
  }
  return { ctxs, notes };
}
