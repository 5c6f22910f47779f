// hygiene and cleanup plan|apply|resume|run: the report, and the converging cleanup. Human
// renderings live here with the commands (cleanup's: cleanup-render.ts); progress of a long apply goes to stderr on a TTY only.
import type { Command } from "commander";
import { relativeTime } from "../time.js";
import { runWith } from "../run.js";
import { willDo } from "./cleanup-words.js";
import { table, short } from "../render.js";
import { ownerLabel } from "../../core/ownership/index.js";
import type { Column } from "../table.js";
import { dispositionStyle } from "../disposition.js";
import { nextLines } from "../next.js";
import { escapeControl } from "../escape.js";
import { stdoutDisplay } from "../terminal.js";
import { formatBytes } from "../../core/shared/format.js";
import { formatDuration } from "../../core/shared/input/duration.js";
import { branchNote, byAttention, diskSummaryLine, needsPerson, whatToRun } from "../../core/hygiene/index.js";
import type { FleetHygieneReport, HygieneReport, HygieneWorktree, Todo } from "../../core/hygiene/index.js";
import { reasonCodes } from "./hygiene-words.js";
import { renderApply, renderPlan, renderRun } from "./cleanup-render.js";
import type { Reason } from "../../core/shared/reasons/reasons.js";

const codes = (reasons: readonly Reason[]): string => reasons.map((r) => r.code).join(", ");
/**
 * The hygiene table. What gives way first: PATH (a foreign worktree's path is its WORKTREE
 * already), TASK and OWNER are hidden, then the worktree's handle loses its middle (its unique
 * end stays) and the branch its end; REASONS keeps its width longest.
 */
const HYGIENE_COLUMNS: Column[] = [
  { header: "DISPOSITION", style: dispositionStyle },
  { header: "WORKTREE", shrink: "middle", min: 20, priority: 3 },
  { header: "BRANCH", shrink: "end", min: 12, priority: 4 },
  { header: "OWNER", shrink: "end", min: 8, priority: 2, optional: true },
  { header: "TASK", shrink: "end", min: 8, priority: 1, optional: true },
  { header: "DISK (FREED)" },
  { header: "REASONS", shrink: "end", min: 16, priority: 5 },
  { header: "PATH", shrink: "middle", min: 16, priority: 0, optional: true },
];

/** Above this many worktrees, hygiene shows row by row only what needs a person; the rest is counted by group (`--all`: every row). */
export const FLEET_ROWS = 20;

export function renderHygiene(r: HygieneReport, options: { all?: boolean } = {}): string {
  const counts = Object.entries(r.summary.byDisposition)
    .filter(([, n]) => n > 0)
    .map(([d, n]) => `${d} ${n}`)
    .join(", ");
  const lines = [`${r.summary.worktrees} worktrees in ${r.repos.map((x) => x.name).join(", ")}: ${counts || "none"}`];
  const now = Date.parse(r.generatedAt);
  const collapse = !options.all && r.worktrees.length > FLEET_ROWS;
  const ordered = [...r.worktrees].sort(byAttention).filter((w) => !collapse || needsPerson(w, now));
  const defaults = new Map(r.repos.map((x) => [x.identity, x.defaultBranch]));
  const rows = ordered.map((w) => [
    w.disposition,
    w.handle ?? w.path,
    w.branch ?? (w.head ? `(detached ${short(w.head)})` : w.husk ? "(husk)" : "-"),
    ownerLabel(w),
    w.task ?? "-",
    // what removal frees, unless the blocks clones share could not be read: then it is not claimed
    w.disk ? `${formatBytes(w.disk.bytes)} (${w.disk.reflinks === "unknown" ? "?" : formatBytes(w.disk.uniqueBytes)})` : "",
    // a live worktree whose directory is gone still says so (its reasons are the live owner's)
    reasonCodes(w.reasons, (w.repo && defaults.get(w.repo)) || null) +
      (w.missing && !w.reasons.some((r) => r.code === "missing_directory") ? ", missing_directory" : ""),
    w.path,
  ]);
  if (collapse)
    lines.push(
      "",
      `${rows.length ? `${rows.length} need you (work at risk, unknown, or live and untouched for a day):` : "none needs you: no work at risk, nothing unknown or stuck"}`,
    );
  if (rows.length) lines.push(...(collapse ? [] : [""]), table(HYGIENE_COLUMNS, rows, { under: ordered.map((w) => (collapse ? w.suggestion.command : null)) }));
  const ranked = whatToRun(r);
  if (collapse)
    lines.push(
      ...groupLines(
        r.worktrees.filter((w) => !needsPerson(w, now)),
        ranked,
      ),
      stdoutDisplay().paint("↳ orchard hygiene --all shows every row", "cyan"),
    );
  lines.push(
    "",
    `cleanup backlog: ${r.cleanupBacklog.count} worktree(s)${r.cleanupBacklog.bytes === null ? "" : `, ${formatBytes(r.cleanupBacklog.bytes)} to reclaim`}`,
  );
  if (r.summary.disk) lines.push(`disk: ${diskSummaryLine(r.summary.disk, r.keptCopies?.length ?? 0)}`);
  if (r.worktrees.some((w) => w.disk?.reflinks === "unknown"))
    lines.push(
      "unknown sharing: this filesystem can clone files (reflinks), and which blocks clones share could not be read (filefrag); " +
        "what removing a worktree frees is shown as ?, and the totals may count shared blocks more than once",
    );
  for (const k of r.keptCopies ?? [])
    lines.push(
      `kept copy ${k.key.slice(0, 12)} (${escapeControl(k.dirs.join(", ")) || "incomplete"}): ${k.worktrees} worktree${k.worktrees === 1 ? "" : "s"}${k.disk ? `, ${formatBytes(k.disk.bytes)}` : ""}${k.disposition === "kept" ? "" : `; ${k.disposition}`}${k.reasons.length ? ` (${codes(k.reasons)})` : ""}`,
    );
  for (const g of r.duplicateTaskGroups)
    lines.push(
      g.conflict
        ? `duplicate task ${g.task}: conflict — several of ${g.handles.join(", ")} hold work nobody else has; remove none, their owners decide`
        : `duplicate task ${g.task}: ${g.canonical} holds the most work; others ${g.others.join(", ")}`,
    );
  for (const g of r.patchEquivalentGroups) lines.push(`same patch ${g.patchId.slice(0, 12)}: ${g.handles.join(", ")}`);
  lines.push(`preventable duplicates: ${r.preventableDuplicates.count}`);
  for (const [policy, n] of countBy(r.preventableDuplicates.recent.flatMap((p) => (p.suggestion ? [p.suggestion.policy] : []))))
    lines.push(`  --policy ${policy} would have spared ${n} of the recent ones`);
  // Suggestions about work at risk are never dropped (SPEC §3.6); the rest are grouped, top five
  // (a collapsed fleet view shows each on its row or group already)
  const rest = ranked.filter((t) => !t.atRisk);
  // a path or branch in a command comes from git or an agent: shown, never obeyed by the terminal
  if (!collapse)
    for (const t of [...ranked.filter((t) => t.atRisk), ...rest.slice(0, 5)]) lines.push(escapeControl(`  ${t.count}× ${t.command}${branchNote(t)}`));
  if (!collapse && rest.length > 5) lines.push(`  … and ${rest.length - 5} more suggestion(s) in --json`);
  if (rows.length) lines.push(stdoutDisplay().paint("↳ orchard explain <code> says what a reason means and what to do", "cyan"));
  for (const n of r.notes) lines.push(escapeControl(`note ${n.code}: ${n.message}`), ...nextLines([n], {}, "  "));
  if (r.html) lines.push(escapeControl(`html: ${r.html}`));
  return lines.join("\n");
}

/** The worktrees that need nobody, counted by disposition and what to run: `40 reclaimable: orchard cleanup run`. */
function groupLines(worktrees: readonly HygieneWorktree[], todo: readonly Todo[]): string[] {
  const groups = new Map<string, { disposition: string; action: string; command: string | null; count: number }>();
  for (const w of [...worktrees].sort(byAttention)) {
    const key = `${w.disposition}\0${w.suggestion.command ?? ""}`;
    const g = groups.get(key) ?? { disposition: w.disposition, action: w.suggestion.action, command: w.suggestion.command, count: 0 };
    g.count++;
    groups.set(key, g);
  }
  const paint = stdoutDisplay().paint;
  const noted = new Set<string>(); // one run of a command deletes its branches: said on its first group only
  return [
    "",
    "the rest, by group:",
    ...[...groups.values()].map((g) => {
      const first = g.command !== null && !noted.has(g.command);
      if (g.command) noted.add(g.command);
      const note = first ? branchNote(todo.find((t) => t.command === g.command) ?? { branches: 0 }) : "";
      return `  ${String(g.count).padStart(4)} ${paint(g.disposition, ...dispositionStyle(g.disposition))}${g.command ? `: ${escapeControl(g.command)}${note}` : ` (${g.action})`}`;
    }),
  ];
}

/** An age in whole seconds, largest unit first (`2h5m3s`). */
const ageText = (ms: number): string => formatDuration(Math.floor(ms / 1000) * 1000);

export function renderFleet(r: FleetHygieneReport): string {
  const crossHost = r.duplicateTaskGroups.filter((g) => g.crossHost).length;
  const lines = [
    `fleet of ${r.hosts.length} host(s) (${r.hosts.join(", ")}) in ${r.repos.map((x) => x.name).join(", ")}: backlog ${r.backlog.count}, ${r.duplicateTaskGroups.length} duplicate task(s) (${crossHost} across hosts), ${r.preventableDuplicates.count} preventable duplicate(s)`,
  ];
  if (r.backlog.byHost.length)
    lines.push(
      "",
      "backlog by host (each host's last published hygiene):",
      table(
        ["HOST", "REPO", "PUBLISHED", "AGE", "WORKTREES", "BACKLOG", "RECLAIMABLE", "NEEDS ACTION", "DISK"],
        r.backlog.byHost.map((b) => [
          b.host,
          r.repos.find((x) => x.identity === b.repo)?.name ?? b.repo,
          relativeTime(b.publishedAt),
          ageText(b.ageMs),
          String(b.summary.worktrees),
          String(b.summary.backlog.count),
          String(b.summary.backlog.reclaimable),
          String(b.summary.backlog.needsAction),
          b.summary.disk ? formatBytes(b.summary.disk.bytes) : "-",
        ]),
      ),
    );
  for (const g of r.duplicateTaskGroups) {
    lines.push(
      "",
      `duplicate task ${g.task} ${g.crossHost ? `across ${g.hosts.join(", ")}` : `on ${g.hosts.join("")}`}: ${g.members.length} worktrees, ${g.live} live`,
    );
    lines.push(
      table(
        ["  HOST", "HANDLE", "OWNER", "LIFECYCLE", "LIVENESS", "LEASE UNTIL", "DISPOSITION"],
        g.members.map((m) => [
          `  ${m.host}`,
          m.handle,
          m.owner ?? "-",
          m.lifecycle,
          `${m.liveness.state} (${m.liveness.from})`,
          m.expiresAt ? relativeTime(m.expiresAt) : "-",
          m.disposition ?? "-",
        ]),
      ),
    );
  }
  const byHost = Object.entries(r.preventableDuplicates.byHost).map(([h, n]) => `${h || "(before hosts)"} ${n}`);
  lines.push("", `preventable duplicates: ${r.preventableDuplicates.count}${byHost.length ? ` (${byHost.join(", ")})` : ""}`);
  for (const n of r.notes) lines.push(`note ${n.code}: ${n.message}`);
  if (r.html) lines.push(`html: ${r.html}`);
  return lines.join("\n");
}

/** A failure is exit 1; else an item a safety rule refused is exit 3 (SPEC §2). */
const failedExit = (r: { ok: boolean; failed: number; refused: number }): 0 | 1 | 3 => (r.failed > 0 ? 1 : r.refused > 0 ? 3 : 0);

interface PlanFlags {
  allRepos?: boolean;
  include?: string;
  salvage?: boolean;
  olderThan?: string;
  includeResumable?: boolean;
  untilFree?: string;
}

export function register(program: Command): void {
  program
    .command("hygiene")
    .description("one disposition per worktree, duplicate and patch groups, the cleanup backlog")
    .option("--all-repos", "every repo the workspace knows")
    .option("--disk", "measure bytes per worktree (hard links counted once)")
    .option("--disk-budget <duration>", "stop measuring after this long (default 5m)")
    .option("--html <file>", "also write a self-contained HTML page")
    .option("--fleet", "across the hosts of a shared registry: duplicate tasks, preventable duplicates, each host's published backlog")
    .option("--all", `every worktree on its own row (above ${FLEET_ROWS}, only what needs you is; the rest is counted by group)`)
    .action((opts: { allRepos?: boolean; disk?: boolean; diskBudget?: string; html?: string; fleet?: boolean; all?: boolean }, cmd: Command) => {
      const { fleet, all, ...rest } = opts;
      return fleet
        ? runWith(cmd, (o) => o.hygieneFleet(rest), renderFleet, undefined, { early: "statuses", progress: "hygiene" })
        : runWith(
            cmd,
            (o) => o.hygiene({ ...rest, publish: true }), // the CLI's report publishes this host's summary for --fleet
            (r) => renderHygiene(r, { all: all === true }),
            undefined,
            { early: "statuses", progress: "hygiene" },
          );
    });

  const cleanup = program.command("cleanup").description("plan, apply, resume or run a converging cleanup");
  const planOptions = (c: Command): Command =>
    c
      .option("--all-repos", "every repo the workspace knows")
      .option("--include <dispositions>", "comma-separated: reclaimable,reapable,missing,husk,needs_salvage")
      .option("--salvage", "plan needs_salvage work: salvage ref first, then remove")
      .option("--older-than <duration>", "only worktrees idle for longer than this")
      .option("--include-resumable", "also plan worktrees whose Claude Code session can still be resumed (kept by default: session_resumable)");
  planOptions(cleanup.command("plan").description("compute and store a cleanup plan")).action((opts: PlanFlags, cmd: Command) =>
    runWith(cmd, (o) => o.cleanupPlan(opts), renderPlan, undefined, { progress: "cleanup plan" }),
  );
  cleanup
    .command("apply")
    .description("apply a stored plan, re-checking each item at the moment of use")
    .argument("<planId>")
    .option("--limit <n>", "act on at most n items")
    .option("--budget <duration>", "start no new item after this long")
    .action((planId: string, opts: { limit?: string; budget?: string }, cmd: Command) =>
      runWith(cmd, (o) => o.cleanupApply({ planId, ...opts }), renderApply, failedExit, { progress: "cleanup apply" }),
    );
  cleanup
    .command("resume")
    .description("finish a plan; items a crash left applying are re-checked")
    .argument("<planId>")
    .action((planId: string, _opts: unknown, cmd: Command) =>
      runWith(cmd, (o) => o.cleanupResume({ planId }), renderApply, failedExit, { progress: "cleanup resume" }),
    );
  planOptions(cleanup.command("run").description("plan and apply until nothing is left that can change"))
    .option("--dry-run", "print the first round's plan (stored, not applied) and what it would act on; remove nothing")
    .option("--until-free <size>", "stop once the workspace's filesystem has this much free (10GiB, or 5% of it); says when it cannot be met")
    .action(({ dryRun, ...opts }: PlanFlags & { dryRun?: boolean }, cmd: Command) =>
      dryRun
        ? runWith(
            cmd,
            (o) => o.cleanupDryRun(opts),
            renderPlan,
            (r) => (r.refused > 0 ? 3 : 0),
            { progress: "cleanup run" },
          )
        : runWith(cmd, (o) => o.cleanupRun(opts), renderRun, failedExit, { progress: "cleanup run", announce: willDo }),
    );
  for (const c of cleanup.commands) c.exitOverride();
}

function countBy(values: readonly string[]): [string, number][] {
  const counts = new Map<string, number>();
  for (const v of values) counts.set(v, (counts.get(v) ?? 0) + 1);
  return [...counts].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1));
}
