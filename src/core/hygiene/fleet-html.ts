// The `hygiene --fleet` report as one self-contained HTML page (pure: report → string), in the
// style of the hygiene page (html.ts): no network, a Content-Security-Policy that fetches nothing,
// every value escaped through `text()`.
import { COLORS, STYLE, TIME_SCRIPT, badge, card, keptCopiesSection, text, timeHtml } from "./html.js";
import { formatBytes } from "../shared/format.js";
import { formatDuration } from "../shared/input/duration.js";
import type { CrossHostGroup, FleetHygieneReport, HostBacklog } from "./types.js";

const LIVENESS: Record<string, string> = { live: "#2e7d32", dead: "#757575", none: "#9e9e9e", unknown: "#b28704" };

const age = (ms: number): string => formatDuration(Math.floor(ms / 1000) * 1000);

function backlogChart(rows: readonly HostBacklog[]): string {
  if (rows.length === 0) return `<p class="muted">No host has published a summary yet: run <code>orchard hygiene</code> on each.</p>`;
  const max = Math.max(1, ...rows.map((r) => r.summary.backlog.count));
  const rowH = 26;
  const bars = rows
    .map((r, i) => {
      const y = i * rowH;
      const reclaimable = Math.round((r.summary.backlog.reclaimable / max) * 360);
      const needs = Math.round((r.summary.backlog.needsAction / max) * 360);
      return `<g><title>${text(`${r.host} · ${r.repo}: ${r.summary.backlog.reclaimable} reclaimable, ${r.summary.backlog.needsAction} need action (published ${age(r.ageMs)} ago)`)}</title><text x="0" y="${y + 17}">${text(r.host.length > 24 ? `${r.host.slice(0, 23)}…` : r.host)}</text><rect x="180" y="${y + 4}" width="${reclaimable}" height="18" rx="3" fill="${COLORS.reclaimable}"/><rect x="${180 + reclaimable}" y="${y + 4}" width="${needs}" height="18" rx="3" fill="${COLORS.needs_salvage}"/><text x="${186 + reclaimable + needs}" y="${y + 17}" class="num">${r.summary.backlog.count}</text></g>`;
    })
    .join("");
  return `<svg role="img" aria-label="backlog by host" width="600" height="${rows.length * rowH}" viewBox="0 0 600 ${rows.length * rowH}">${bars}</svg><p class="muted">Blue: reclaimable (cleanup converges it). Red: needs action (work nobody else has).</p>`;
}

function backlogTable(rows: readonly HostBacklog[], name: (repo: string) => string): string {
  const head = ["host", "repo", "published", "age", "worktrees", "backlog", "reclaimable", "needs action", "disk"].map((h) => `<th>${h}</th>`).join("");
  const body = rows
    .map(
      (r) =>
        `<tr><td class="name">${text(r.host)}</td><td>${text(name(r.repo))}</td><td>${timeHtml(r.publishedAt)}</td><td>${text(age(r.ageMs))}</td><td class="num">${r.summary.worktrees}</td><td class="num">${r.summary.backlog.count}</td><td class="num">${r.summary.backlog.reclaimable}</td><td class="num">${r.summary.backlog.needsAction}</td><td class="num">${r.summary.disk ? formatBytes(r.summary.disk.bytes) : "–"}</td></tr>`,
    )
    .join("");
  return `<table><thead><tr>${head}</tr></thead><tbody>${body}</tbody></table>`;
}

function group(g: CrossHostGroup, name: (repo: string) => string): string {
  const head = ["host", "worktree", "owner", "lifecycle", "liveness", "lease until", "disposition"].map((h) => `<th>${h}</th>`).join("");
  const rows = g.members
    .map(
      (m) =>
        `<tr><td class="name">${text(m.host)}</td><td><div class="name">${text(m.handle)}</div><div class="path">${text(m.path)}</div></td><td class="owner">${text(m.owner ?? "–")}</td><td>${text(m.lifecycle)}</td><td><span class="badge" style="background:${LIVENESS[m.liveness.state] ?? "#757575"}">${text(m.liveness.state)}</span> <span class="muted">${text(m.liveness.from === "facts" ? "facts" : "heartbeat")}</span></td><td>${m.expiresAt ? timeHtml(m.expiresAt) : "–"}</td><td>${m.disposition ? badge(m.disposition) : `<span class="muted">another host's</span>`}</td></tr>`,
    )
    .join("");
  const title = `${text(g.task)} <span class="muted">${text(name(g.repo))} · ${g.crossHost ? `across ${g.hosts.map(text).join(", ")}` : `on ${text(g.hosts[0])}`} · ${g.live} live</span>`;
  return `<h3>${title}</h3><table><thead><tr>${head}</tr></thead><tbody>${rows}</tbody></table>`;
}

export function renderFleetHtml(r: FleetHygieneReport): string {
  const repoNames = r.repos.map((x) => x.name).join(", ");
  const name = (repo: string): string => r.repos.find((x) => x.identity === repo)?.name ?? repo;
  const crossHost = r.duplicateTaskGroups.filter((g) => g.crossHost).length;
  const cards = [
    card("hosts", String(r.hosts.length), r.hosts.join(", ")),
    card("fleet backlog", String(r.backlog.count), r.backlog.bytes === null ? "sum of each host's last summary" : `${formatBytes(r.backlog.bytes)} to reclaim`),
    card("duplicate tasks", String(r.duplicateTaskGroups.length), `${crossHost} across hosts`),
    card("preventable duplicates", String(r.preventableDuplicates.count), "admission could have reused"),
  ].join("");
  const byHost = Object.entries(r.preventableDuplicates.byHost)
    .map(([h, n]) => `<li><b>${text(h || "(before hosts)")}</b>: ${n}</li>`)
    .join("");
  const recent = r.preventableDuplicates.recent
    .map(
      (e) =>
        `<li>${timeHtml(e.at)} <b>${text(e.host ?? "?")}</b> <code>${text(e.handle ?? "?")}</code>${e.task ? ` task ${text(e.task)}` : ""}${e.suggestion ? ` — ${text(e.suggestion.action)}` : ""}</li>`,
    )
    .join("");
  const notes = r.notes.map((n) => `<li><code>${text(n.code)}</code> ${text(n.message)}</li>`).join("");
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'; img-src data:">
<title>Orchard fleet hygiene — ${text(repoNames)} — ${r.hosts.length} hosts</title><style>${STYLE}h3{font-size:14px;margin:14px 0 6px}</style></head>
<body><header><h1>Orchard fleet hygiene</h1><p>${text(repoNames)} · hosts ${text(r.hosts.join(", "))} · generated ${timeHtml(r.generatedAt)} on ${text(r.host)}</p></header><main>
<div class="cards">${cards}</div>
<section><h2>Backlog by host</h2><p class="muted">Each host's last published <code>orchard hygiene</code>; the age says how old it is.</p>${backlogChart(r.backlog.byHost)}${backlogTable(r.backlog.byHost, name)}</section>
<section><h2>Duplicate tasks (${r.duplicateTaskGroups.length})</h2><p class="muted">Current worktrees sharing a task. Another host's liveness is its lease's heartbeat alone; its work is a fact only that host can read.</p>${r.duplicateTaskGroups.map((g) => group(g, name)).join("") || `<p class="muted">none</p>`}</section>
${keptCopiesSection(r.keptCopies)}
<section class="grid2"><div><h2>Preventable duplicates (${r.preventableDuplicates.count})</h2><ul>${byHost || "<li class=muted>none</li>"}</ul></div><div><h2>Recent</h2><ul>${recent || "<li class=muted>none</li>"}</ul>${notes ? `<h2>Notes</h2><ul>${notes}</ul>` : ""}</div></section>
</main><script>(function(){${TIME_SCRIPT}})();</script></body></html>
`;
}
