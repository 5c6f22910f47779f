// The human renderings of cleanup plan|apply|resume|run (the commands: hygiene.ts).
import { actingOn, keptCopiesLine } from "./cleanup-words.js";
import { table } from "../render.js";
import { dispositionStyle } from "../disposition.js";
import { nextLines } from "../next.js";
import { escapeControl } from "../escape.js";
import { stdoutDisplay } from "../terminal.js";
import { formatBytes } from "../../core/shared/format.js";
import { attentionRank } from "../../core/hygiene/index.js";
import { displayWidth, truncateEnd } from "../width.js";
import type { DryRunResult, PlanResult, RunResult, ApplyResult, ItemView } from "../../core/cleanup/index.js";
import type { Reason } from "../../core/shared/reasons/reasons.js";

const codes = (reasons: readonly Reason[]): string => reasons.map((r) => r.code).join(", ");

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
