// `orchard hygiene --fleet` (SPEC §5): the report across the hosts of one shared registry. It runs
// this host's hygiene first (which publishes this host's summary), then reads what the registry
// knows of every host: current rows grouped by canonical task, preventable duplicates, and each
// host's last published summary. Another host's rows are described, never judged beyond their
// heartbeat: their directories, processes and work are facts only that host can read.
import type { WorktreeRow } from "../../registry/index.js";
import { hygiene, preventableSuggestion, requireHtmlPath, writeHtml, type HygieneOptions } from "./hygiene.js";
import { assessRemoteLease, leaseExpiresAt } from "../ownership/index.js";
import type { Ctx } from "../shared/context.js";
import { reason, type Reason } from "../shared/reasons/reasons.js";
import type { CrossHostGroup, CrossHostMember, FleetHygieneReport, HostBacklog, HygieneWorktree, PublishedSummary } from "./types.js";

/** A member from its row: this host's from this run's facts (by path), another host's from its heartbeat. */
function memberOf(row: WorktreeRow, local: ReadonlyMap<string, HygieneWorktree>, host: string, now: number): CrossHostMember | null {
  const mine = row.host === host ? local.get(row.path) : undefined;
  if (mine?.disposition === "missing") return null; // not an allocation (as in hygiene's own groups)
  const expires = leaseExpiresAt(row);
  const liveness = mine ? { ...mine.liveness, from: "facts" as const } : { ...assessRemoteLease(row, now), from: "heartbeat" as const };
  return {
    host: row.host ?? host,
    handle: row.handle,
    path: row.path,
    branch: row.branch,
    owner: row.owner,
    lifecycle: row.lifecycle,
    heartbeatAt: row.heartbeatAt,
    expiresAt: expires === null ? null : new Date(expires).toISOString(),
    liveness,
    disposition: mine?.disposition ?? null,
  };
}

/** Current rows sharing a task, two or more, on any hosts (pure). */
export function crossHostGroups(rows: readonly WorktreeRow[], local: readonly HygieneWorktree[], context: { host: string; now: number }): CrossHostGroup[] {
  const byPath = new Map(local.map((w) => [w.path, w]));
  const groups = new Map<string, CrossHostMember[]>();
  const repoOf = new Map<string, { repo: string; task: string }>();
  for (const row of rows) {
    if (!row.task) continue;
    const member = memberOf(row, byPath, context.host, context.now);
    if (!member) continue;
    const key = JSON.stringify([row.repo, row.task]);
    repoOf.set(key, { repo: row.repo, task: row.task });
    groups.set(key, [...(groups.get(key) ?? []), member]);
  }
  const out: CrossHostGroup[] = [];
  for (const [key, members] of groups) {
    if (members.length < 2) continue;
    const { repo, task } = repoOf.get(key) as { repo: string; task: string };
    members.sort((a, b) => a.host.localeCompare(b.host) || a.handle.localeCompare(b.handle));
    const hosts = [...new Set(members.map((m) => m.host))].sort();
    out.push({ repo, task, hosts, crossHost: hosts.length > 1, live: members.filter((m) => m.liveness.state === "live").length, members });
  }
  return out.sort((a, b) => a.repo.localeCompare(b.repo) || a.task.localeCompare(b.task));
}

/** Summaries as published; one whose shape this orchard does not know is left out (and named in a note). */
function backlogOf(
  published: { host: string; repo: string; publishedAt: string; summary: Record<string, unknown> }[],
  now: number,
  notes: Reason[],
): HostBacklog[] {
  const out: HostBacklog[] = [];
  for (const p of published) {
    const backlog = p.summary.backlog as { count?: unknown } | undefined;
    if (typeof backlog?.count !== "number") {
      notes.push(reason("fact_unknown", { fact: "summary", host: p.host, repo: p.repo }, `the summary host ${p.host} published is not one this orchard reads`));
      continue;
    }
    out.push({
      host: p.host,
      repo: p.repo,
      publishedAt: p.publishedAt,
      ageMs: Math.max(0, now - Date.parse(p.publishedAt)),
      summary: p.summary as unknown as PublishedSummary,
    });
  }
  return out;
}

export async function hygieneFleet(ctxs: Ctx[], options: HygieneOptions, scopeNotes: Reason[] = []): Promise<FleetHygieneReport> {
  const { html, ...rest } = options;
  if (html !== undefined) requireHtmlPath(html); // invalid input fails before any work
  const local = await hygiene(ctxs, { ...rest, publish: true }, scopeNotes); // the fleet view publishes this host's summary first
  const registry = (ctxs[0] as Ctx).registry;
  const host = registry.host;
  const now = Date.now();
  const notes = [...local.notes];
  const rows: WorktreeRow[] = [];
  const byHost: Record<string, number> = {};
  const recent: FleetHygieneReport["preventableDuplicates"]["recent"] = [];
  const published: HostBacklog[] = [];
  for (const ctx of ctxs) {
    const repo = ctx.repo.identity;
    rows.push(...(await registry.worktrees.fleet(repo)));
    for (const [h, n] of Object.entries(await registry.events.countByHost(repo, "preventable_duplicate"))) byHost[h] = (byHost[h] ?? 0) + n;
    for (const e of await registry.events.ofKind(repo, "preventable_duplicate", 20, "fleet"))
      recent.push({
        at: e.at,
        host: e.host,
        repo: e.repo,
        handle: e.handle,
        task: e.task,
        owner: e.owner,
        data: e.data,
        suggestion: preventableSuggestion(e.data),
      });
    published.push(...backlogOf(await registry.summaries.load(repo), now, notes));
  }
  recent.sort((a, b) => b.at.localeCompare(a.at));
  const groups = crossHostGroups(rows, local.worktrees, { host, now });
  const hosts = new Set<string>([
    host,
    ...rows.flatMap((r) => (r.host ? [r.host] : [])),
    ...Object.keys(byHost).filter(Boolean),
    ...published.map((p) => p.host),
  ]);
  const report: FleetHygieneReport = {
    ok: true,
    generatedAt: local.generatedAt,
    host,
    repos: ctxs.map((c) => ({ identity: c.repo.identity, name: c.repo.name })),
    hosts: [...hosts].sort(),
    duplicateTaskGroups: groups,
    preventableDuplicates: { count: Object.values(byHost).reduce((a, b) => a + b, 0), byHost, recent: recent.slice(0, 20) },
    backlog: {
      count: published.reduce((n, p) => n + p.summary.backlog.count, 0),
      bytes: published.every((p) => typeof p.summary.backlog.bytes === "number") ? published.reduce((n, p) => n + (p.summary.backlog.bytes ?? 0), 0) : null,
      byHost: published,
    },
    keptCopies: local.keptCopies ?? [],
    notes,
  };
  if (html) {
    const { renderFleetHtml } = await import("./fleet-html.js"); // the renderer loads for --html only
    report.html = writeHtml(html, (path) => renderFleetHtml({ ...report, html: path }));
  }
  return report;
}
