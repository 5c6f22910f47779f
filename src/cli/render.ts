// Human renderings of results: short tables and sentences. All human wording of the CLI lives here.
import { escapeControl } from "./escape.js";
import type { AddResult, BootstrapResult } from "../core/admission/index.js";
import type { BootstrapReport } from "../core/shared/bootstrap-report.js";
import type { RestoreResult } from "../core/salvage/index.js";
import type { LeaseResult } from "../core/lifecycle/index.js";
import type { StatusResult, ListResult } from "../core/inspect/index.js";
import type { Facts } from "../core/shared/types.js";
import type { Reason } from "../core/shared/reasons/reasons.js";
import { renderTable, type ColumnSpec, type TableOptions } from "./table.js";
import { nextLines, nextLine } from "./next.js";
import { stdoutDisplay } from "./terminal.js";
import { humanTimes, relativeTime } from "./time.js";
import { ownerLabel } from "../core/ownership/index.js";

export function short(sha: string | null | undefined): string {
  return sha ? sha.slice(0, 10) : "-";
}

/** A table fitted to stdout (table.ts): a path column gives way in its middle, an empty column is dropped. */
export function table(header: readonly ColumnSpec[], rows: readonly (readonly string[])[], options: TableOptions = {}): string {
  return renderTable(header, rows, options);
}

/** Each reason on a line; under each refusal, its next step (`↳ …`). */
export function reasonLines(label: string, reasons: readonly Reason[], extra: Record<string, unknown> = {}): string[] {
  const paint = stdoutDisplay().paint;
  const refused = label.startsWith("refused");
  return reasons.flatMap((r) => [`  ${refused ? paint(label, "red") : label} ${r.code}: ${r.message}`, ...(refused ? nextLine(r, extra, "    ") : [])]);
}

export function renderAdd(r: AddResult | RestoreResult): string {
  const lines = [`${r.action} ${r.handle}`, `  path    ${r.path}`, `  branch  ${r.branch}${r.base ? ` (base ${r.base.ref} ${short(r.base.commit)})` : ""}`];
  if (r.task) lines.push(`  task    ${r.task}`);
  if (r.lease) lines.push(`  lease   ${r.lease.owner ?? "-"}${r.lease.pid ? ` pid ${r.lease.pid}` : ""}, expires ${relativeTime(r.lease.expiresAt)}`);
  if (r.lineage) lines.push(`  from    ${r.lineage.from.handle} (${r.lineage.from.branch} ${short(r.lineage.from.head)})`);
  if (r.bootstrap.steps.length > 0) lines.push(bootstrapLine(r.bootstrap));
  const skipped = r.bootstrap.steps.flatMap((s) => (s.reason && s.status === "skipped" ? [{ code: s.reason as Reason["code"] }] : []));
  lines.push(...nextLines(skipped, { branch: r.branch, handle: r.handle }, "    "));
  if ("error" in r) lines.push(`  error   ${r.error.code}: ${r.error.message}`);
  lines.push(...reasonLines("refused:", r.reasons, { branch: r.branch, handle: r.handle, path: r.path }), ...reasonLines("note:", r.notes));
  for (const c of r.candidates)
    lines.push(`  candidate ${c.handle} (${c.kind}, ${c.eligible ? "eligible" : `not eligible: ${c.reasons.map((x) => x.code).join(", ")}`})`);
  return lines.join("\n");
}

/** The bootstrap's line of add, recycle and bootstrap: its status, how shared, each step. */
function bootstrapLine(b: BootstrapReport): string {
  const steps = b.steps.map((s) => `${s.name} ${s.status}${s.reason && s.status !== "failed" ? ` (${s.reason})` : ""}`).join(", ");
  return `  bootstrap ${b.status}${b.share ? ` (${b.share.action} by ${b.share.method})` : ""}: ${steps}`;
}

export function renderBootstrap(r: BootstrapResult): string {
  const verb =
    r.action === "bootstrapped" ? "bootstrapped" : r.action === "planned" ? "would bootstrap" : r.action === "failed" ? "bootstrap failed:" : "refused";
  const lines = [`${verb} ${r.handle}`, `  path    ${r.path}`];
  if (r.bootstrap) lines.push(bootstrapLine(r.bootstrap));
  const skipped = (r.bootstrap?.steps ?? []).flatMap((s) => (s.reason && s.status === "skipped" ? [{ code: s.reason as Reason["code"] }] : []));
  lines.push(...nextLines(skipped, { handle: r.handle }, "    "));
  if ("error" in r) lines.push(`  error   ${r.error.code}: ${r.error.message}`);
  lines.push(...reasonLines("refused:", r.reasons, { handle: r.handle, path: r.path }), ...reasonLines("note:", r.notes));
  return lines.join("\n");
}

export function renderLease(r: LeaseResult): string {
  const lines = [`${r.action.replace("_", " ")} ${r.handle} (${r.lifecycle}${r.outcome ? `, ${r.outcome}` : ""})`];
  if (r.lease) lines.push(`  lease ${r.lease.owner ?? "-"}, expires ${relativeTime(r.lease.expiresAt)}`);
  lines.push(...reasonLines("refused:", r.reasons, { handle: r.handle }));
  return lines.join("\n");
}

function dirtyText(f: Facts): string {
  if (f.missing) return "missing (the directory is gone)"; // never "clean" for a directory that is not there
  if (f.dirty === undefined) return "";
  if (f.dirty === null) return "?";
  const n = f.dirty.tracked + f.dirty.untracked + f.dirty.conflicted;
  const ignored = f.dirty.ignored.count ? `${n ? ", " : ""}${f.dirty.ignored.count} unique ignored` : "";
  return (n ? `${n} changed` : ignored ? "" : "clean") + ignored + (f.dirty.operation ? ` (${f.dirty.operation})` : "");
}

export function renderStatus(r: StatusResult): string {
  const f = r.worktree;
  const rows: [string, string][] = [
    ["path", f.path],
    ["handle", f.handle ?? "(foreign)"],
    ["branch", f.branch ?? `(detached ${short(f.head)})`],
    ["head", short(f.head)],
    ["lifecycle", f.lifecycle ?? "-"],
    ["task", f.task ?? "-"],
    ["owner", ownerLabel(f)],
    ["liveness", `${f.liveness.state}${f.liveness.signals.length ? ` (${f.liveness.signals.map((s) => s.code).join(", ")})` : ""}`],
    ["lock", f.lock.locked ? `${f.lock.owner?.kind ?? "?"}: ${humanTimes(f.lock.reason ?? "")}` : "unlocked"],
    ["dirty", dirtyText(f)],
    ["unpushed", f.unpushed === null ? "unknown (no remote)" : String(f.unpushed)],
    ["merged", mergedLine(f.merged)],
    ["base", f.base ? `${f.base.ref} ${short(f.base.commit)}${f.base.drifted ? ` (now ${short(f.base.current)})` : ""}` : "-"],
  ];
  if (f.harness) rows.push(["harness", harnessLine(f.harness)]);
  if (f.missing) rows.push(["missing", "the directory is gone"]);
  if (f.blocked) rows.push(["unknown", f.blocked.code === "worktree_relocated" ? `${f.blocked.key} in ${f.blocked.file}` : `${f.blocked.file}`]);
  // a lock text, a path or a branch comes from git or an agent: shown, never obeyed by the terminal
  return rows.map(([k, v]) => `${k.padEnd(10)} ${escapeControl(v)}`).join("\n");
}

/** `codex (session 019a…), tracked`: which harness made it and whether it still tracks it (SPEC v5 §1). */
function harnessLine(h: NonNullable<Facts["harness"]>): string {
  const tracked = h.tracked === true ? "tracked by it" : h.tracked === false ? "no longer tracked by it" : "its tracking unknown";
  return `${h.name}${h.session ? ` (session ${h.session})` : ""}, ${tracked}`;
}

/**
 * A handle and a branch take at most a quarter of the width each (one long branch hides nothing
 * else); then PATH, TASK, LOCK, OWNER and STATE are hidden first; then a handle gives way in its
 * middle (its unique end stays), a branch at its end.
 */
export const LIST_COLUMNS: ColumnSpec[] = [
  { header: "HANDLE", shrink: "middle", min: 24, priority: 4, maxShare: 0.25 },
  { header: "BRANCH", shrink: "end", min: 16, priority: 5, maxShare: 0.25 },
  { header: "LIFECYCLE", priority: 6 },
  { header: "LIVENESS", priority: 7 },
  { header: "OWNER", shrink: "end", min: 8, optional: true, priority: 3 },
  { header: "TASK", shrink: "end", min: 8, optional: true, priority: 1 },
  { header: "LOCK", optional: true, priority: 2 },
  { header: "STATE", shrink: "end", min: 8, optional: true, priority: 3 },
  { header: "PATH", shrink: "middle", min: 20, optional: true, priority: 0 },
];

export function renderList(r: ListResult): string {
  if (r.worktrees.length === 0) return `no linked worktrees in ${r.repo.primary}`;
  const rows = r.worktrees.map((f) => [
    f.handle ?? "(foreign)",
    f.branch ?? `(detached ${short(f.head)})`,
    f.lifecycle ?? "-",
    f.liveness.state,
    ownerLabel(f) === "-" ? "" : ownerLabel(f), // nobody's: blank, so a list without owners drops the column
    f.task ?? "",
    f.lock.locked ? (f.lock.owner?.kind ?? "locked") : "-",
    f.missing ? "missing" : dirtyText(f) || "-",
    f.path,
  ]);
  return table(LIST_COLUMNS, rows);
}

/** The merge proof with its target named (SPEC v4 §3.8): `same_commit into feat`, `no (into main)`. */
export function mergedLine(merged: Facts["merged"]): string {
  if (!merged) return "unknown";
  const into = targetName(merged.target ?? null);
  if (merged.how) return `${merged.how} into ${into ?? "?"}`;
  return into ? `no (into ${into})` : "no";
}

/** A merge target as a person names it: the branch (`feat`, `origin/main`), not its full ref. */
export function targetName(ref: string | null): string | null {
  return ref === null ? null : ref.replace(/^refs\/heads\//, "").replace(/^refs\/remotes\//, "");
}
