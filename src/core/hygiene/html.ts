// The hygiene report as one self-contained HTML page (pure: report → string). No network: inline
// CSS, SVG and a few lines of JS (filters), and a Content-Security-Policy that forbids fetching
// anything. Every value from the report goes through `text()` or `attr()`: paths may hold `<`,
// quotes, ampersands and newlines (control characters are shown as visible symbols).
import { DISPOSITIONS, type Disposition, type HygieneReport, type HygieneWorktree } from "./types.js";
import { formatBytes } from "../shared/format.js";
import { escapeControl } from "../shared/escape.js";

export { formatBytes };

export const COLORS: Record<Disposition, string> = {
  live: "#2e7d32",
  reclaimable: "#1565c0",
  reapable: "#6a1b9a",
  needs_salvage: "#c62828",
  idle: "#ef6c00",
  missing: "#757575",
  husk: "#8d6e63",
  unknown: "#b28704",
};
const MEANING: Record<Disposition, string> = {
  live: "a live owner works here: keep",
  reclaimable: "not live, clean, work preserved: remove or recycle",
  reapable: "locked by a dead owner, clean, merged: reap",
  needs_salvage: "holds work nobody else has: salvage, then remove",
  idle: "active, nobody owns it, work not preserved or used within idleAfter: the owner decides",
  missing: "registered, directory gone: prune the entry",
  husk: "a directory under the managed root git does not list",
  unknown: "a fact could not be established: keep",
};

/** Control characters become visible symbols (a newline in a path cannot hide), bidi overrides `\u{202e}` (escape.ts). */
export function text(value: unknown): string {
  return escapeControl(String(value ?? ""))
    .replace(/&/g, "&amp;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;")
    .replace(/"/g, "&quot;")
    .replace(/'/g, "&#39;");
}
const attr = text;

export function badge(d: Disposition): string {
  return `<span class="badge" style="background:${COLORS[d]}">${d.replace("_", " ")}</span>`;
}

export function card(label: string, value: string, hint = ""): string {
  return `<div class="card"><div class="value">${value}</div><div class="label">${text(label)}</div>${hint ? `<div class="hint">${text(hint)}</div>` : ""}</div>`;
}

function dispositionChart(r: HygieneReport): string {
  const counts = r.summary.byDisposition;
  const max = Math.max(1, ...DISPOSITIONS.map((d) => counts[d]));
  const rowH = 26;
  const bars = DISPOSITIONS.map((d, i) => {
    const w = Math.round((counts[d] / max) * 420);
    const y = i * rowH;
    return `<g class="bar" data-filter="${d}"><title>${text(`${d}: ${counts[d]} — ${MEANING[d]}`)}</title><text x="0" y="${y + 17}">${d.replace("_", " ")}</text><rect x="120" y="${y + 4}" width="${Math.max(w, counts[d] ? 2 : 0)}" height="18" rx="3" fill="${COLORS[d]}"/><text x="${126 + w}" y="${y + 17}" class="num">${counts[d]}</text></g>`;
  }).join("");
  return `<svg role="img" aria-label="worktrees by disposition" width="600" height="${DISPOSITIONS.length * rowH}" viewBox="0 0 600 ${DISPOSITIONS.length * rowH}">${bars}</svg>`;
}

function diskChart(r: HygieneReport): string {
  const measured = r.worktrees
    .filter((w) => w.disk)
    .sort((a, b) => (b.disk?.bytes ?? 0) - (a.disk?.bytes ?? 0))
    .slice(0, 25);
  if (measured.length === 0) return `<p class="muted">Disk was not measured. Run <code>orchard hygiene --disk --html &lt;file&gt;</code>.</p>`;
  const max = Math.max(1, ...measured.map((w) => w.disk?.bytes ?? 0));
  const rowH = 22;
  const bars = measured
    .map((w, i) => {
      const bytes = w.disk?.bytes ?? 0;
      const unique = w.disk?.uniqueBytes ?? 0;
      const y = i * rowH;
      const label = w.handle ?? w.path.slice(w.path.lastIndexOf("/") + 1);
      return `<g><title>${text(`${w.path}\n${formatBytes(bytes)} apparent, ${formatBytes(unique)} freed by removing it`)}</title><text x="0" y="${y + 15}">${text(label.length > 38 ? `${label.slice(0, 37)}…` : label)}</text><rect x="260" y="${y + 3}" width="${Math.max(2, Math.round((bytes / max) * 300))}" height="16" rx="2" fill="${COLORS[w.disposition]}" opacity="0.35"/><rect x="260" y="${y + 3}" width="${Math.round((unique / max) * 300)}" height="16" rx="2" fill="${COLORS[w.disposition]}"/><text x="${566}" y="${y + 15}" class="num">${formatBytes(bytes)}</text></g>`;
    })
    .join("");
  return `<svg role="img" aria-label="disk by worktree" width="660" height="${measured.length * rowH}" viewBox="0 0 660 ${measured.length * rowH}">${bars}</svg><p class="muted">Solid: bytes removing the worktree frees (hard links elsewhere excluded). Light: apparent size.</p>`;
}

function dirtyCell(w: HygieneWorktree): string {
  if (w.dirty === undefined || w.dirty === null) return w.missing ? "–" : "?";
  const n = w.dirty.tracked + w.dirty.untracked + w.dirty.conflicted;
  const ignored = w.dirty.ignored.count ? `, ${w.dirty.ignored.count} unique ignored` : "";
  return n === 0 && !ignored && !w.dirty.operation ? "clean" : `${n} changed${ignored}${w.dirty.operation ? ` (${w.dirty.operation})` : ""}`;
}

function row(w: HygieneWorktree): string {
  const name = w.handle ?? (w.husk ? "(husk)" : "(foreign)");
  const search = [w.path, w.handle, w.branch, w.owner, w.task, w.disposition, ...w.reasons.map((r) => r.code)].filter(Boolean).join(" ").toLowerCase();
  const reasons = w.reasons.map((r) => `<li title="${attr(r.message)}"><code>${text(r.code)}</code> ${text(r.message)}</li>`).join("");
  const command = w.suggestion.command ? `<code class="cmd">${text(w.suggestion.command)}</code>` : "";
  return `<tr data-disposition="${w.disposition}" data-search="${attr(search)}"><td>${badge(w.disposition)}</td><td><div class="name">${text(name)}</div><div class="path">${text(w.path)}</div></td><td>${text(w.branch ?? (w.head ? `(detached ${w.head.slice(0, 10)})` : "–"))}</td><td class="owner">${text(w.owner ?? "–")}</td><td class="task">${text(w.task ?? "–")}</td><td>${text(w.lifecycle ?? "–")}</td><td>${text(w.liveness.state)}</td><td>${text(dirtyCell(w))}</td><td>${text(w.unpushed ?? "?")}</td><td>${text(w.merged ? (w.merged.how ?? "no") : "?")}</td><td class="num">${w.disk ? `${formatBytes(w.disk.bytes)}<div class="muted">${formatBytes(w.disk.apparentBytes)} apparent</div>` : "–"}</td><td><ul class="reasons">${reasons}</ul></td><td><div>${text(w.suggestion.action)}</div>${command}</td></tr>`;
}

function groups(r: HygieneReport): string {
  const dup = r.duplicateTaskGroups
    .map((g) =>
      g.conflict
        ? `<li><b>${text(g.task)}</b>: conflict — ${g.handles.map((h) => `<code>${text(h)}</code>`).join(", ")}: several hold work nobody else has; remove none</li>`
        : `<li><b>${text(g.task)}</b>: <code>${text(g.canonical)}</code> holds the most work; duplicates ${g.others.map((o) => `<code>${text(o)}</code>`).join(", ")}</li>`,
    )
    .join("");
  const patch = r.patchEquivalentGroups
    .map((g) => `<li><code>${text(g.patchId.slice(0, 12))}</code>: ${g.handles.map((h) => `<code>${text(h)}</code>`).join(", ")}</li>`)
    .join("");
  const prevent = r.preventableDuplicates.recent
    .map((e) => `<li>${text(e.at)} <code>${text(e.handle ?? "?")}</code>${e.task ? ` task ${text(e.task)}` : ""}</li>`)
    .join("");
  const notes = r.notes.map((n) => `<li><code>${text(n.code)}</code> ${text(n.message)}</li>`).join("");
  return `<section class="grid2"><div><h2>Duplicate tasks (${r.duplicateTaskGroups.length})</h2><ul>${dup || "<li class=muted>none</li>"}</ul><h2>Same patch (${r.patchEquivalentGroups.length})</h2><ul>${patch || "<li class=muted>none</li>"}</ul></div><div><h2>Preventable duplicates (${r.preventableDuplicates.count})</h2><p class="muted">Allocations admission could have reused — not part of the backlog.</p><ul>${prevent || "<li class=muted>none</li>"}</ul>${notes ? `<h2>Notes</h2><ul>${notes}</ul>` : ""}</div></section>`;
}

function commands(r: HygieneReport): string {
  const counts = new Map<string, number>();
  for (const w of r.worktrees)
    if (w.suggestion.command && !w.suggestion.command.startsWith("orchard status"))
      counts.set(w.suggestion.command, (counts.get(w.suggestion.command) ?? 0) + 1);
  const top = [...counts].sort((a, b) => b[1] - a[1]).slice(0, 8);
  if (top.length === 0) return "";
  return `<section><h2>What to run</h2><ul class="todo">${top.map(([c, n]) => `<li><code class="cmd">${text(c)}</code> <span class="muted">${n} worktree${n === 1 ? "" : "s"}</span></li>`).join("")}</ul></section>`;
}

export const STYLE = `body{font:14px/1.4 system-ui,-apple-system,Segoe UI,Roboto,sans-serif;margin:0;color:#1d1d1f;background:#f6f7f9}header{background:#1f3a2e;color:#fff;padding:18px 28px}header h1{margin:0;font-size:22px}header p{margin:4px 0 0;opacity:.8}main{padding:20px 28px}.cards{display:flex;flex-wrap:wrap;gap:12px;margin-bottom:18px}.card{background:#fff;border-radius:8px;padding:12px 16px;min-width:130px;box-shadow:0 1px 2px #0002}.card .value{font-size:24px;font-weight:600}.card .label{color:#555}.card .hint{color:#888;font-size:12px}section{background:#fff;border-radius:8px;padding:14px 18px;margin-bottom:18px;box-shadow:0 1px 2px #0002}h2{font-size:16px;margin:4px 0 10px}.grid2{display:grid;grid-template-columns:1fr 1fr;gap:18px}svg text{font-size:12px;fill:#333}svg .num{fill:#555}g.bar{cursor:pointer}.badge{color:#fff;border-radius:10px;padding:1px 8px;font-size:12px;white-space:nowrap}table{border-collapse:collapse;width:100%}th,td{text-align:left;vertical-align:top;padding:6px 8px;border-bottom:1px solid #eee}th{position:sticky;top:0;background:#fafafa}td.num{text-align:right;white-space:nowrap}.path{color:#666;font-size:12px;word-break:break-all}.name{font-weight:600}ul.reasons{margin:0;padding-left:16px;font-size:12px}code{font:12px ui-monospace,Menlo,Consolas,monospace;background:#f0f2f4;border-radius:4px;padding:1px 4px}code.cmd{display:inline-block;word-break:break-all;user-select:all}.muted{color:#888}.filters{display:flex;gap:8px;flex-wrap:wrap;align-items:center;margin-bottom:10px}.filters button{border:1px solid #ccc;background:#fff;border-radius:14px;padding:3px 10px;cursor:pointer}.filters button.on{color:#fff}.filters input{padding:4px 8px;border:1px solid #ccc;border-radius:6px;min-width:240px}tr.hidden{display:none}@media(max-width:900px){.grid2{grid-template-columns:1fr}}`;

const SCRIPT = `(function(){var active=null;var rows=[].slice.call(document.querySelectorAll('tbody tr'));var q=document.getElementById('q');var buttons=[].slice.call(document.querySelectorAll('[data-filter]'));function apply(){var s=(q.value||'').toLowerCase();var shown=0;rows.forEach(function(r){var ok=(!active||r.getAttribute('data-disposition')===active)&&(!s||r.getAttribute('data-search').indexOf(s)>=0);r.classList.toggle('hidden',!ok);if(ok)shown++;});document.getElementById('shown').textContent=shown+' of '+rows.length+' shown';document.querySelectorAll('.filters button').forEach(function(b){var on=b.getAttribute('data-filter')===active;b.classList.toggle('on',on);b.style.background=on?b.getAttribute('data-color'):'';});}buttons.forEach(function(b){b.addEventListener('click',function(){var f=b.getAttribute('data-filter');active=(active===f||f==='all')?null:f;apply();});});q.addEventListener('input',apply);apply();})();`;

export function renderHygieneHtml(r: HygieneReport): string {
  const s = r.summary;
  const backlog = r.cleanupBacklog;
  const repoNames = r.repos.map((x) => x.name).join(", ");
  const cards = [
    card("worktrees", String(s.worktrees), `${s.managed} managed, ${s.foreign} foreign`),
    card("cleanup backlog", String(backlog.count), backlog.bytes === null ? "disk not measured" : `${formatBytes(backlog.bytes)} to reclaim`),
    card("live", String(s.byDisposition.live)),
    card("needs salvage", String(s.byDisposition.needs_salvage), "work nobody else has"),
    card("unknown", String(s.byDisposition.unknown), "kept until a fact is known"),
    card("disk", s.disk ? formatBytes(s.disk.bytes) : "–", s.disk ? (s.disk.complete ? "each inode once" : "partial (budget)") : "run with --disk"),
    card("preventable duplicates", String(r.preventableDuplicates.count), "admission could have reused"),
  ].join("");
  const filterButtons = [
    `<button data-filter="all">all</button>`,
    ...DISPOSITIONS.filter((d) => s.byDisposition[d] > 0).map(
      (d) => `<button data-filter="${d}" data-color="${COLORS[d]}" title="${attr(MEANING[d])}">${d.replace("_", " ")} (${s.byDisposition[d]})</button>`,
    ),
  ].join("");
  const head = ["disposition", "worktree", "branch", "owner", "task", "lifecycle", "liveness", "dirty", "unpushed", "merged", "disk", "reasons", "suggested"]
    .map((h) => `<th>${h}</th>`)
    .join("");
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'; img-src data:">
<title>Orchard hygiene — ${text(repoNames)} — ${s.worktrees} worktrees</title><style>${STYLE}</style></head>
<body><header><h1>Orchard hygiene</h1><p>${text(repoNames)} · generated ${text(r.generatedAt)}</p></header><main>
<div class="cards">${cards}</div>
<section class="grid2"><div><h2>Dispositions</h2>${dispositionChart(r)}</div><div><h2>Disk by worktree</h2>${diskChart(r)}</div></section>
${commands(r)}
<section><h2>Worktrees</h2><div class="filters">${filterButtons}<input id="q" type="search" placeholder="filter by path, handle, branch, reason"><span id="shown" class="muted"></span></div>
<table><thead><tr>${head}</tr></thead><tbody>${r.worktrees.map(row).join("")}</tbody></table></section>
${groups(r)}
</main><script>${SCRIPT}</script></body></html>
`;
}
