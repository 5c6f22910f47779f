// hygiene and cleanup plan|apply|resume|run: the report, and the converging cleanup. Human
// renderings live here with the commands; progress of a long apply goes to stderr on a TTY only.
import type { Command } from "commander";
import { relativeTime } from "../time.js";
import { runWith } from "../run.js";
import { actingOn, keptCopiesLine, willDo } from "./cleanup-words.js";
import { table, short } from "../render.js";
import { ownerLabel } from "../../core/ownership/index.js";
import type { Column } from "../table.js";
import { dispositionStyle } from "../disposition.js";
import { nextLines } from "../next.js";
import { escapeControl } from "../escape.js";
import { stdoutDisplay } from "../terminal.js";
import { formatBytes } from "../../core/shared/format.js";
import { formatDuration } from "../../core/shared/input/duration.js";
import { attentionRank, branchNote, byAttention, diskSummaryLine, needsPerson, whatToRun } from "../../core/hygiene/index.js";
import type { FleetHygieneReport, HygieneReport, HygieneWorktree, Todo } from "../../core/hygiene/index.js";
import { displayWidth, truncateEnd } from "../width.js";
import { reasonCodes } from "./hygiene-words.js";
import type { DryRunResult, PlanResult, RunResult, ApplyResult, ItemView } from "../../core/cleanup/index.js";
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

/** Worktrees left alone that another flag of the plan would take: their next step is worth a line. */
const PLAN_FLAGS: ReadonlySet<string> = new Set(["not_included", "salvage_not_requested", "too_recent"]);

export function renderPlan(r: PlanResult | DryRunResult): string {
  const refusals = "dryRun" in r ? r.refusals : [];
  const lines = [
    ...("dryRun" in r ? [`dry run: cleanup run would act on: ${actingOn(r.items)}; nothing was removed`] : []),
    ...(refusals.length ? [`it would refuse ${refusals.length} item(s) (exit 3):`] : []),
    ...refusalLines(refusals),
    `plan ${r.planId}: ${r.items.length} item(s), ${r.skipped.length} worktree(s) left alone`,
  ];
  const refused = new Set(refusals.map((x) => x.seq));
  if (r.items.length)
    lines.push(
      table(
        ["SEQ", "ACTION", "WORKTREE", "REASONS"],
        r.items.map((i) => [String(i.seq), refused.has(i.seq) ? `${i.action} (refused)` : i.action, i.handle ?? i.path, codes(i.reasons)]),
      ),
    );
  const why = new Map<string, number>();
  for (const s of r.skipped) why.set(s.reasons[0]?.code ?? s.disposition, (why.get(s.reasons[0]?.code ?? s.disposition) ?? 0) + 1);
  for (const [code, n] of why)
    lines.push(`  left alone: ${n}× ${code}`, ...(PLAN_FLAGS.has(code) ? nextLines([{ code: code as Reason["code"] }], {}, "    ") : []));
  if (r.keptCopies.length)
    lines.push(
      `kept copies (bootstrap.share): ${r.keptCopies.length} reclaimable now (${r.keptCopies.map((k) => `${k.key.slice(0, 12)}: ${codes(k.reasons)}`).join("; ")}); apply judges them again once its items are done`,
    );
  for (const n of r.notes) lines.push(`note ${n.code}: ${n.message}`);
  if (r.items.length || r.keptCopies.length) lines.push(`↳ orchard cleanup apply ${r.planId}`);
  return lines.join("\n");
}

function itemLines(items: readonly ItemView[]): string {
  return table(
    ["SEQ", "ACTION", "STATE", "WORKTREE", "REASONS"],
    items.map((i) => [String(i.seq), i.action, i.state, i.handle ?? i.path, codes(i.reasons) + (i.salvageRef ? ` (salvaged to ${i.salvageRef})` : "")]),
  );
}

export function renderApply(r: ApplyResult): string {
  const lines = [
    `plan ${r.planId} ${r.status.replace("_", " ")}: ${r.done} done, ${r.skipped} skipped, ${r.refused} refused, ${r.failed} failed, ${r.remaining} remaining`,
  ];
  if (r.items.length) lines.push(itemLines(r.items));
  if (r.keptCopies) lines.push(...keptCopiesLine(r.keptCopies));
  for (const n of r.notes) lines.push(`note ${n.code}: ${n.message}`);
  if (r.status === "needs_resume") lines.push(`↳ orchard cleanup resume ${r.planId}`);
  return lines.join("\n");
}

/** A cleanup action once done, as the count of results reads it. */
const DONE_TEXT: Readonly<Record<string, string>> = {
  remove: "worktree(s) removed",
  salvage_remove: "salvaged and removed",
  reap: "reaped",
  prune: "entries pruned",
  delete_branch: "merged branch(es) deleted",
};

export function renderRun(r: RunResult): string {
  const lines = [
    `acting on: ${actingOn(r.items)}`,
    `cleanup ${r.status.replace("_", " ")} after ${r.rounds} round(s): ${r.done} done, ${r.skipped} skipped, ${r.refused} refused, ${r.failed} failed`,
  ];
  lines.push(...keptCopiesLine(r.keptCopies));
  if (r.untilFree)
    lines.push(`free space: ${formatBytes(r.untilFree.free)} of the floor ${formatBytes(r.untilFree.floor)}: ${r.untilFree.met ? "met" : "not met"}`);
  // what went as planned is counted (once: when it is what the run set out to do, the first line said it);
  // only an item that did not is a row, with its next step under it
  const done = r.items.filter((i) => i.state === "done");
  const doneCounts = Object.entries(DONE_TEXT).flatMap(([action, text]) => {
    const n = done.filter((i) => i.action === action).length;
    return n ? [`${n} ${text}`] : [];
  });
  if (doneCounts.length && doneCounts.join(", ") !== actingOn(r.items)) lines.push(`done: ${doneCounts.join(", ")}`);
  const salvaged = done.filter((i) => i.salvageRef);
  if (salvaged.length) lines.push(`salvaged ${salvaged.length} worktree(s) first: orchard salvage list shows the refs`);
  const other = r.items.filter((i) => i.state !== "done");
  if (other.length)
    lines.push(
      table(
        ["SEQ", "ACTION", "STATE", "WORKTREE", "REASONS"],
        other.map((i) => [String(i.seq), i.action, i.state, i.handle ?? i.path, codes(i.reasons)]),
        { under: other.map((i) => i.reasons.find((x) => x.next)?.next ?? null) },
      ),
    );
  if (r.kept.length) lines.push(`${r.kept.length} worktree(s) left alone, by reason:`, ...keptGroups(r.kept));
  for (const n of r.notes) lines.push(`note ${n.code}: ${n.message}`);
  return lines.join("\n");
}

/** Worktrees a run left alone, one line per disposition and first reason, its count and sentence once. */
function keptGroups(kept: RunResult["kept"]): string[] {
  const groups = new Map<string, { disposition: string; reason: Reason | undefined; names: string[] }>();
  for (const k of [...kept].sort((a, b) => attentionRank(a.disposition) - attentionRank(b.disposition))) {
    const first = k.reasons[0];
    const key = `${k.disposition}\0${first?.code ?? ""}`;
    const g = groups.get(key) ?? { disposition: k.disposition, reason: first, names: [] };
    g.names.push(k.handle ?? k.path);
    groups.set(key, g);
  }
  const paint = stdoutDisplay().paint;
  return [...groups.values()].flatMap((g) => {
    const who = g.names.length <= 3 ? g.names.join(", ") : `${g.names.slice(0, 2).join(", ")} and ${g.names.length - 2} more`;
    const why = g.reason ? g.reason.code : g.disposition; // the sentence: orchard explain <code>
    const head = `  ${String(g.names.length).padStart(4)} ${g.disposition}`;
    const rest = truncateEnd(escapeControl(` ${why}: ${who}`), Math.max(8, stdoutDisplay().width - displayWidth(head)));
    return [
      `  ${String(g.names.length).padStart(4)} ${paint(g.disposition, ...dispositionStyle(g.disposition))}${rest}`,
      ...(g.reason?.next ? [`       ${paint(`↳ ${escapeControl(g.reason.next)}`, "cyan")}`] : []),
    ];
  });
}

/** Each item a dry run predicts the real run refuses: its worktree, the reason's sentence and the next step. */
function refusalLines(refusals: DryRunResult["refusals"]): string[] {
  return refusals.flatMap((x) => [
    `  refused: ${x.handle ?? x.path}: ${x.reasons.map((r) => `${r.code}: ${r.message}`).join("; ")}`,
    ...nextLines(x.reasons, { handle: x.handle, path: x.path }, "    "),
  ]);
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
