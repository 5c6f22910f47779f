// The hygiene report as one self-contained HTML page (pure: report → string). What to run comes
// first, then the table in attention order (attention.ts, as the terminal), one line a row with
// details on demand, sortable by any header; the charts come last. No network: inline CSS, SVG and
// a few lines of JS (filters, sorting, details), and a Content-Security-Policy that forbids fetching
// anything. Every value from the report goes through `text()` or `attr()`: paths may hold `<`,
// quotes, ampersands and newlines (control characters are shown as visible symbols).
import { DISPOSITIONS, type Disposition, type HygieneReport, type HygieneWorktree, type KeptCopyView } from "./types.js";
import { formatBytes } from "../shared/format.js";
import { diskSummaryLine } from "./disk.js";
import { escapeControl } from "../shared/input/escape.js";
import { ownerLabel } from "../ownership/index.js";
import { ATTENTION_ORDER, attentionRank, branchNote, byAttention, whatToRun, type Todo } from "./attention.js";

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

/** The largest worktrees only: the table sorts by disk for the rest. */
const DISK_BARS = 12;

function diskChart(r: HygieneReport): string {
  const measured = r.worktrees
    .filter((w) => w.disk)
    .sort((a, b) => (b.disk?.bytes ?? 0) - (a.disk?.bytes ?? 0))
    .slice(0, DISK_BARS);
  if (measured.length === 0) return `<p class="muted">Disk was not measured. Run <code>orchard hygiene --disk --html &lt;file&gt;</code>.</p>`;
  const max = Math.max(1, ...measured.map((w) => w.disk?.bytes ?? 0));
  const rowH = 22;
  const bars = measured
    .map((w, i) => {
      const bytes = w.disk?.bytes ?? 0;
      const unique = w.disk?.uniqueBytes ?? 0;
      const y = i * rowH;
      const label = w.handle ?? w.path.slice(w.path.lastIndexOf("/") + 1);
      return `<g><title>${text(`${w.path}\n${formatBytes(bytes)} apparent, ${formatBytes(unique)} freed by removing it`)}</title><text x="0" y="${y + 15}">${text(label.length > 38 ? `${label.slice(0, 37)}…` : label)}</text><rect x="260" y="${y + 3}" width="${Math.max(2, Math.round((bytes / max) * 300))}" height="16" rx="2" fill="${COLORS[w.disposition]}" opacity="0.35"/><rect x="260" y="${y + 3}" width="${Math.round((Math.min(unique, bytes) / max) * 300)}" height="16" rx="2" fill="${COLORS[w.disposition]}"/><text x="${566}" y="${y + 15}" class="num">${formatBytes(bytes)}</text></g>`;
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

/** The table's columns: header, how a click sorts it, and the cell (its text and, for numbers, its sort value). */
interface Col {
  key: string;
  num?: boolean;
  /** Hidden on a window narrower than this many px (the details row still shows it). */
  hideBelow?: 1500 | 900 | 600;
  width: string;
  cell: (w: HygieneWorktree) => { html: string; v?: number | string; title?: string };
}

const branchText = (w: HygieneWorktree): string => w.branch ?? (w.head ? `(detached ${w.head.slice(0, 10)})` : w.husk ? "(husk)" : "–");
/** A managed worktree's handle; else the last part of its path and what it is (the whole path is the cell's title). */
const nameOf = (w: HygieneWorktree): string => w.handle ?? w.path.slice(w.path.lastIndexOf("/") + 1);
const codesOf = (w: HygieneWorktree): string => w.reasons.map((r) => r.code).join(", ");
/** A name that gives way in its middle: its last characters (a handle's unique hash) always show. */
const TAIL = 9;
function nameHtml(name: string): string {
  const cut = Math.max(0, name.length - TAIL);
  return `<span class="name"><span class="h">${text(name.slice(0, cut))}</span><span class="t">${text(name.slice(cut))}</span></span>`;
}

/** A time as the reader's local relative time (set by the page's script), its ISO time on hover and without script. */
export function timeHtml(iso: string): string {
  return `<time datetime="${attr(iso)}" title="${attr(iso)}">${text(iso)}</time>`;
}

const COLUMNS: Col[] = [
  { key: "disposition", num: true, width: "9em", cell: (w) => ({ html: badge(w.disposition), v: attentionRank(w.disposition) }) },
  {
    key: "worktree",
    width: "18%",
    cell: (w) => ({
      html: `${nameHtml(nameOf(w))}${w.handle ? "" : ` <span class="muted">${w.husk ? "husk" : "foreign"}</span>`}`,
      v: w.handle ?? w.path,
      title: w.path,
    }),
  },
  { key: "branch", hideBelow: 600, width: "11%", cell: (w) => ({ html: text(branchText(w)), title: branchText(w) }) },
  { key: "owner", hideBelow: 600, width: "13%", cell: (w) => ({ html: text(ownerLabel(w)), title: ownerLabel(w) }) },
  { key: "task", hideBelow: 600, width: "8%", cell: (w) => ({ html: text(w.task ?? "–"), title: w.task ?? "" }) },
  { key: "dirty", hideBelow: 1500, width: "7%", cell: (w) => ({ html: text(dirtyCell(w)), title: dirtyCell(w) }) },
  { key: "unpushed", num: true, hideBelow: 1500, width: "6em", cell: (w) => ({ html: text(w.unpushed ?? "?"), v: w.unpushed ?? -1 }) },
  { key: "merged", hideBelow: 1500, width: "8em", cell: (w) => ({ html: text(w.merged ? (w.merged.how ?? "no") : "?") }) },
  { key: "disk", num: true, hideBelow: 600, width: "6em", cell: (w) => ({ html: w.disk ? formatBytes(w.disk.bytes) : "–", v: w.disk?.bytes ?? -1 }) },
  { key: "reasons", hideBelow: 900, width: "18%", cell: (w) => ({ html: text(codesOf(w)), title: codesOf(w) }) },
  {
    key: "next",
    width: "21%",
    cell: (w) => ({
      html: w.suggestion.command ? `<code class="cmd">${text(w.suggestion.command)}</code>` : text(w.suggestion.action),
      v: w.suggestion.command ?? w.suggestion.action,
      title: w.suggestion.command ?? w.suggestion.action,
    }),
  },
];

/** Everything about a worktree, shown on demand under its row. */
function details(w: HygieneWorktree): string {
  const reasons = w.reasons.map((r) => `<li><code>${text(r.code)}</code> ${text(r.message)}</li>`).join("");
  const fact = (label: string, value: string): string => `<dt>${label}</dt><dd>${value}</dd>`;
  return `<dl>${[
    fact("path", `<code class="cmd">${text(w.path)}</code>`),
    fact(
      "next",
      `${text(w.suggestion.action)}${w.reapableAt ? ` <span class="muted">(reapable from ${text(w.reapableAt)})</span>` : ""}${w.suggestion.command ? ` <code class="cmd">${text(w.suggestion.command)}</code>` : ""}`,
    ),
    fact("branch", text(branchText(w))),
    fact("owner · task", `${text(ownerLabel(w))} · ${text(w.task ?? "–")}`),
    fact("lifecycle · liveness", `${text(w.lifecycle ?? "–")} · ${text(w.liveness.state)}`),
    fact("dirty · unpushed · merged", `${text(dirtyCell(w))} · ${text(w.unpushed ?? "?")} · ${text(w.merged ? (w.merged.how ?? "no") : "?")}`),
    fact(
      "disk",
      w.disk
        ? `${formatBytes(w.disk.bytes)} apparent, ${formatBytes(w.disk.allocatedBytes)} on disk, ${w.disk.reflinks === "unknown" ? "? freed by removing it (reflinked extents: unknown sharing)" : `${formatBytes(w.disk.uniqueBytes)} freed by removing it`}`
        : "not measured",
    ),
  ].join("")}</dl><ul class="reasons">${reasons}</ul>`;
}

function body(w: HygieneWorktree, i: number): string {
  const search = [w.path, w.handle, w.branch, ownerLabel(w), w.task, w.disposition, ...w.reasons.map((r) => r.code)].filter(Boolean).join(" ").toLowerCase();
  const cells = COLUMNS.map((c, n) => {
    const { html, v, title } = c.cell(w);
    const toggle = n === 1 ? `<button class="more" aria-expanded="false" aria-controls="d${i}" aria-label="details" title="details"></button>` : "";
    return `<td class="${c.key}${c.hideBelow ? ` hide${c.hideBelow}` : ""}"${v === undefined ? "" : ` data-v="${attr(v)}"`}${title ? ` title="${attr(title)}"` : ""}>${toggle}${html}</td>`;
  }).join("");
  return `<tbody data-disposition="${w.disposition}" data-search="${attr(search)}"><tr class="row">${cells}</tr><tr class="details" id="d${i}" hidden><td colspan="${COLUMNS.length}">${details(w)}</td></tr></tbody>`;
}

function table(r: HygieneReport): string {
  const head = COLUMNS.map(
    (c, i) =>
      `<th class="${c.key}${c.hideBelow ? ` hide${c.hideBelow}` : ""}" style="width:${c.width}"${i === 0 ? ' aria-sort="ascending"' : ""}><button data-col="${i}"${c.num ? ' data-num=""' : ""}>${c.key}</button></th>`,
  ).join("");
  const rows = [...r.worktrees].sort(byAttention).map(body).join("");
  return `<table id="wt"><thead><tr>${head}</tr></thead>${rows}</table>`;
}

/** bootstrap.share's kept copies: each with its directories, size, users and whether cleanup reclaims it. */
export function keptCopiesSection(copies: readonly KeptCopyView[]): string {
  if (copies.length === 0) return "";
  const rows = copies
    .map(
      (k) =>
        `<tr><td><code>${text(k.key.slice(0, 12))}</code><div class="path">${text(k.path)}</div></td><td>${text(k.dirs.join(", ") || "incomplete")}</td><td>${text(k.method ?? "–")}</td><td class="num">${k.worktrees}</td><td class="num">${k.disk ? text(formatBytes(k.disk.bytes)) : "–"}</td><td>${timeHtml(k.lastUsed)}</td><td><span class="badge" style="background:${k.disposition === "reclaimable" ? COLORS.reclaimable : COLORS.live}">${k.disposition}</span>${k.reasons.length ? ` <span class="muted">${text(k.reasons.map((x) => x.code).join(", "))}</span>` : ""}</td></tr>`,
    )
    .join("");
  return `<section id="kept"><h2>Kept copies (bootstrap.share) (${copies.length})</h2><p class="muted">Pristine copies that new worktrees of the same lockfile are made from; <code>cleanup run</code> reclaims one once no worktree of its fingerprint remains, or over <code>disk.shareBudget</code>.</p><table><thead><tr><th>copy</th><th>directories</th><th>method</th><th>worktrees</th><th>size</th><th>last used</th><th>disposition</th></tr></thead><tbody>${rows}</tbody></table></section>`;
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
    .map((e) => `<li>${timeHtml(e.at)} <code>${text(e.handle ?? "?")}</code>${e.task ? ` task ${text(e.task)}` : ""}</li>`)
    .join("");
  const notes = r.notes.map((n) => `<li><code>${text(n.code)}</code> ${text(n.message)}</li>`).join("");
  return `<section class="grid2"><div><h2>Duplicate tasks (${r.duplicateTaskGroups.length})</h2><ul>${dup || "<li class=muted>none</li>"}</ul><h2>Same patch (${r.patchEquivalentGroups.length})</h2><ul>${patch || "<li class=muted>none</li>"}</ul></div><div><h2>Preventable duplicates (${r.preventableDuplicates.count})</h2><p class="muted">Allocations admission could have reused — not part of the backlog.</p><ul>${prevent || "<li class=muted>none</li>"}</ul>${notes ? `<h2>Notes</h2><ul>${notes}</ul>` : ""}</div></section>`;
}

/** Items of "What to run" shown before "N more": a long list would push the table off the first screen. */
const TODO_SHOWN = 10;

/** What to run, in the terminal's order (attention.ts): commands about work at risk first, then the most common; past ten, the rest on demand (never dropped). */
function commands(r: HygieneReport): string {
  const todo = whatToRun(r);
  const item = (t: Todo): string =>
    `<li${t.atRisk ? ' class="risk"' : ""}><code class="cmd" title="click to select">${text(t.command)}</code> <span class="muted">${t.count} worktree${t.count === 1 ? "" : "s"}${text(branchNote(t))}${t.atRisk ? " · work at risk" : ""}</span></li>`;
  const more = todo.slice(TODO_SHOWN);
  const atRisk = more.filter((t) => t.atRisk).length;
  const rest = more.length
    ? `<details><summary>${more.length} more${atRisk ? `, ${atRisk} of them about work at risk` : ""}</summary><ol class="todo" start="${TODO_SHOWN + 1}">${more.map(item).join("")}</ol></details>`
    : "";
  return `<section id="run"><h2>What to run</h2>${todo.length ? `<ol class="todo">${todo.slice(0, TODO_SHOWN).map(item).join("")}</ol>${rest}` : `<p class="muted">Nothing: every worktree is kept.</p>`}</section>`;
}

export const STYLE = `body{font:14px/1.4 system-ui,-apple-system,Segoe UI,Roboto,sans-serif;margin:0;color:#1d1d1f;background:#f6f7f9}header{background:#1f3a2e;color:#fff;padding:18px 28px}header h1{margin:0;font-size:22px}header p{margin:4px 0 0;opacity:.8}main{padding:20px 28px}.cards{display:flex;flex-wrap:wrap;gap:12px;margin-bottom:18px}.card{background:#fff;border-radius:8px;padding:12px 16px;min-width:130px;box-shadow:0 1px 2px #0002}.card .value{font-size:24px;font-weight:600}.card .label{color:#555}.card .hint{color:#888;font-size:12px}section{background:#fff;border-radius:8px;padding:14px 18px;margin-bottom:18px;box-shadow:0 1px 2px #0002}h2{font-size:16px;margin:4px 0 10px}.grid2{display:grid;grid-template-columns:minmax(0,1fr) minmax(0,1fr);gap:18px}svg text{font-size:12px;fill:#333}svg .num{fill:#555}g.bar{cursor:pointer}.badge{color:#fff;border-radius:10px;padding:1px 8px;font-size:12px;white-space:nowrap}table{border-collapse:collapse;width:100%}th,td{text-align:left;vertical-align:top;padding:6px 8px;border-bottom:1px solid #eee}th{position:sticky;top:0;background:#fafafa}td.num{text-align:right;white-space:nowrap}.path{color:#666;font-size:12px;word-break:break-all}.name{font-weight:600}ul.reasons{margin:0;padding-left:16px;font-size:12px}code{font:12px ui-monospace,Menlo,Consolas,monospace;background:#f0f2f4;border-radius:4px;padding:1px 4px}code.cmd{white-space:nowrap;user-select:all;line-height:1.4}.muted{color:#888}.filters{display:flex;gap:8px;flex-wrap:wrap;align-items:center;margin-bottom:10px}.filters button{border:1px solid #ccc;background:#fff;border-radius:14px;padding:3px 10px;cursor:pointer}.filters button.on{color:#fff}.filters input{padding:4px 8px;border:1px solid #ccc;border-radius:6px;min-width:240px}.hidden{display:none}main svg{max-width:100%;height:auto}main table:not(#wt) td{overflow-wrap:anywhere}@media(max-width:900px){.grid2{grid-template-columns:minmax(0,1fr)}}@media(max-width:600px){main{padding:8px}header{padding:10px 12px}section{padding:8px 10px}header p,code{overflow-wrap:anywhere}main table:not(#wt){table-layout:fixed;font-size:12px}main table:not(#wt) th,main table:not(#wt) td{overflow-wrap:anywhere;padding:4px 3px}main table:not(#wt) .badge{white-space:normal}}`;

/** The hygiene page's own layout: one-line rows (cells cut with an ellipsis, the whole text in their title and details row), commands on one line. */
const PAGE_STYLE = `main{padding:14px 28px}header{padding:12px 28px}section{padding:10px 16px;margin-bottom:14px}.cards{gap:8px;margin-bottom:14px}.card{padding:6px 12px;min-width:0}.card .value{font-size:18px}#run ol{margin:0;padding-left:22px}#run li{margin:2px 0;white-space:nowrap}#run li.risk::marker{color:${COLORS.needs_salvage}}#run code.cmd{display:inline-block;max-width:calc(100% - 12em);overflow-x:auto;vertical-align:bottom}#run summary{cursor:pointer;color:#555;margin-top:4px}#wt{table-layout:fixed}#wt td{white-space:nowrap;overflow:hidden;text-overflow:ellipsis;vertical-align:middle;padding:5px 8px}#wt th{padding:0;vertical-align:bottom}#wt th button{all:unset;box-sizing:border-box;display:block;width:100%;padding:6px 8px;cursor:pointer;font-weight:600}#wt th button:focus-visible{outline:2px solid #1565c0}#wt th[aria-sort] button::after{content:"";display:inline-block;margin-left:5px;vertical-align:middle;border:4px solid transparent}#wt th[aria-sort=ascending] button::after{border-bottom:5px solid #444;border-top:0}#wt th[aria-sort=descending] button::after{border-top:5px solid #444;border-bottom:0}#wt td.disk,#wt td.unpushed,#wt th.disk,#wt th.unpushed{text-align:right}button.more{border:0;background:none;padding:2px 6px 2px 0;cursor:pointer;vertical-align:middle}button.more::before{content:"";display:block;border:5px solid transparent;border-left:7px solid #555;border-right:0}button.more[aria-expanded=true]::before{transform:rotate(90deg)}main svg{max-width:100%;height:auto}#wt tr.details td{white-space:normal;background:#fafbfc}#wt dl{display:grid;grid-template-columns:max-content 1fr;gap:2px 12px;margin:4px 0}#wt dt{color:#666}#wt dd{margin:0;min-width:0}#wt dd code.cmd{display:inline-block;max-width:100%;overflow-x:auto;vertical-align:bottom}@media(max-width:1500px){#wt .hide1500{display:none}}@media(max-width:900px){#wt .hide900{display:none}}#wt .name{display:inline-block;max-width:calc(100% - 16px);white-space:nowrap;overflow:hidden;vertical-align:middle}#wt .name .h{display:inline-block;max-width:calc(100% - 10ch);overflow:hidden;text-overflow:ellipsis;vertical-align:bottom}@media(max-width:600px){#wt .hide600{display:none}#wt th.disposition{width:6.5em!important}#wt th.worktree{width:45%!important}#wt th.next{width:auto!important}main{padding:8px}header{padding:10px 12px}section{padding:8px 10px}.filters input{min-width:0;flex:1 1 8em}#run li{white-space:normal}#run code.cmd{max-width:100%}.card{flex:1 1 40%}}`;

/** Filters (disposition, text), sorting by a header's button (stable: ties keep the attention order), details on demand. */
/** Turns each `<time datetime>` into the reader's local relative time, the ISO time kept on hover (this page and the fleet page). */
export const TIME_SCRIPT = `document.querySelectorAll('time[datetime]').forEach(function(t){var at=Date.parse(t.getAttribute('datetime'));if(isNaN(at))return;var s=Math.round((Date.now()-at)/1000),a=Math.abs(s);
var span=a<60?a+'s':a<3600?Math.floor(a/60)+' min':a<172800?Math.floor(a/3600)+'h':Math.floor(a/86400)+' days';t.textContent=a<1?'now':s>0?span+' ago':'in '+span;t.title=new Date(at).toLocaleString()+' — '+t.getAttribute('datetime');});`;

const SCRIPT = `(function(){
${TIME_SCRIPT}
var table=document.getElementById('wt');var bodies=[].slice.call(table.tBodies);var active=null;var q=document.getElementById('q');
function apply(){var s=(q.value||'').toLowerCase();var shown=0;bodies.forEach(function(b){var ok=(!active||b.getAttribute('data-disposition')===active)&&(!s||b.getAttribute('data-search').indexOf(s)>=0);b.classList.toggle('hidden',!ok);if(ok)shown++;});
document.getElementById('shown').textContent=shown+' of '+bodies.length+' shown';
document.querySelectorAll('.filters button').forEach(function(b){var on=b.getAttribute('data-filter')===active;b.classList.toggle('on',on);b.style.background=on?b.getAttribute('data-color'):'';});}
document.querySelectorAll('[data-filter]').forEach(function(b){b.addEventListener('click',function(){var f=b.getAttribute('data-filter');active=(active===f||f==='all')?null:f;apply();});});
q.addEventListener('input',apply);
var order=bodies.slice();
table.querySelectorAll('th button').forEach(function(btn){btn.addEventListener('click',function(){
var th=btn.parentNode;var col=+btn.getAttribute('data-col');var num=btn.hasAttribute('data-num');
var dir=th.getAttribute('aria-sort')==='ascending'?'descending':'ascending';var sign=dir==='ascending'?1:-1;
table.querySelectorAll('th[aria-sort]').forEach(function(t){t.removeAttribute('aria-sort');});th.setAttribute('aria-sort',dir);
var keyed=order.map(function(b,i){var c=b.rows[0].cells[col];var v=c.hasAttribute('data-v')?c.getAttribute('data-v'):c.textContent;return {b:b,i:i,v:num?parseFloat(v):v.toLowerCase()};});
keyed.sort(function(a,b){var d=num?a.v-b.v:a.v.localeCompare(b.v);return d*sign||a.i-b.i;});
var frag=document.createDocumentFragment();keyed.forEach(function(k){frag.appendChild(k.b);});table.appendChild(frag);bodies=keyed.map(function(k){return k.b;});});});
table.addEventListener('click',function(e){var t=e.target.closest&&e.target.closest('button.more');if(!t)return;var open=t.getAttribute('aria-expanded')!=='true';t.setAttribute('aria-expanded',String(open));document.getElementById(t.getAttribute('aria-controls')).hidden=!open;});
apply();})();`;

export function renderHygieneHtml(r: HygieneReport): string {
  const s = r.summary;
  const backlog = r.cleanupBacklog;
  const repoNames = r.repos.map((x) => x.name).join(", ");
  const cards = [
    card("needs salvage", String(s.byDisposition.needs_salvage), "work nobody else has"),
    card("unknown", String(s.byDisposition.unknown), "kept until a fact is known"),
    card("cleanup backlog", String(backlog.count), backlog.bytes === null ? "disk not measured" : `${formatBytes(backlog.bytes)} to reclaim`),
    card("live", String(s.byDisposition.live)),
    card("worktrees", String(s.worktrees), `${s.managed} managed, ${s.foreign} foreign`),
    card("disk", s.disk ? formatBytes(s.disk.allocatedBytes) : "–", s.disk ? diskSummaryLine(s.disk, r.keptCopies?.length ?? 0) : "run with --disk"),
    card("preventable duplicates", String(r.preventableDuplicates.count), "admission could have reused"),
  ].join("");
  const filterButtons = [
    `<button data-filter="all">all</button>`,
    ...ATTENTION_ORDER.filter((d) => s.byDisposition[d] > 0).map(
      (d) => `<button data-filter="${d}" data-color="${COLORS[d]}" title="${attr(MEANING[d])}">${d.replace("_", " ")} (${s.byDisposition[d]})</button>`,
    ),
  ].join("");
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'; img-src data:">
<title>Orchard hygiene — ${text(repoNames)} — ${s.worktrees} worktrees</title><style>${STYLE}${PAGE_STYLE}</style></head>
<body><header><h1>Orchard hygiene</h1><p>${text(repoNames)} · ${s.worktrees} worktrees · generated ${timeHtml(r.generatedAt)}</p></header><main>
${commands(r)}
<div class="cards">${cards}</div>
<section><h2>Worktrees</h2><div class="filters">${filterButtons}<input id="q" type="search" placeholder="filter by path, handle, branch, reason"><span id="shown" class="muted"></span><span class="muted">Click a header to sort, the arrow before a worktree for its details.</span></div>
${table(r)}</section>
<section class="grid2"><div><h2>Dispositions</h2>${dispositionChart(r)}</div><div><h2>Disk by worktree</h2>${diskChart(r)}</div></section>
${keptCopiesSection(r.keptCopies ?? [])}
${groups(r)}
</main><script>${SCRIPT}</script></body></html>
`;
}
