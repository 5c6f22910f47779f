// reap-orphans, salvage list|restore, cleanup-wave, adopt: acting on crashed, finished and foreign
// worktrees. reap-orphans runs at every session start, so it exits 0 whatever happens except a
// usage error: a failure is reported on stderr and as {ok:false, error}, never as a failing exit.
import type { Command } from "commander";
import type { Orchard } from "../../core/orchard.js";
import { errorObject, OrchardError } from "../../core/shared/errors.js";
import { globalsOf, openOptions, runWith, warnUnreachable } from "../run.js";
import { printError, printResult } from "../output.js";
import { ProgressLine } from "../progress.js";
import { renderAdd, short, table, targetName } from "../render.js";
import { relativeTime } from "../time.js";
import { nextLines } from "../next.js";
import type { Column } from "../table.js";
import { remedyOf } from "../../core/shared/reasons/remedies.js";
import type { Reason } from "../../core/shared/reasons/reasons.js";
import type { ReapOptions, ReapResult } from "../../core/reap/index.js";
import type { SalvageListResult, SalvagePruneResult, RestoreResult } from "../../core/salvage/index.js";
import type { WaveResult } from "../../core/wave/index.js";
import type { AdoptResult } from "../../core/admission/index.js";

type ReapOutput = ReapResult | { ok: false; error: { code: string; message: string } };

/** The reap table: path and branch give way, owner is hidden first; each skipped row's next step sits under it. */
const REAP_COLUMNS: Column[] = [
  { header: "STATUS" },
  { header: "REASON" },
  { header: "BRANCH", shrink: "end", min: 16, priority: 2 },
  { header: "OWNER", shrink: "end", min: 8, optional: true, priority: 1 },
  { header: "PATH", shrink: "middle", min: 24, priority: 3 },
];

/** Skip reasons of a live holder: reap-orphans counts these as live, not skipped (core/reap). */
const LIVE: ReadonlySet<string> = new Set(["pid_alive", "lease_live", "process_in_worktree"]);

/** The merge target a merge verdict was judged against (SPEC v4 §3.8), named after the reason. */
function intoTarget(e: ReapResult["entries"][number]): string {
  const named = e.merged ? targetName(e.merged.target) : null;
  if (named === null) return "";
  return e.reason === "branch_not_merged" || e.reason.endsWith("_and_merged") ? ` (into ${named})` : "";
}

export function renderReap(r: ReapOutput): string {
  if ("error" in r) return "";
  if (!r.ok) return "nothing reaped: the default branch is unknown (a remote exists without origin/HEAD; set defaultBranch in .orchard.json)";
  // a note beside the sweep (disk_low): its sentence and its next step
  const notes = (r.notes ?? []).flatMap((n) => [`note ${n.code}: ${n.message}`, ...nextLines([n], {}, "  ")]);
  if (r.entries.length === 0) return ["no locked worktrees", ...notes].join("\n");
  const rows = r.entries.map((e) => [
    LIVE.has(e.reason) && e.status === "skipped" ? "live" : e.status,
    e.reason + intoTarget(e),
    e.branch ?? "-",
    e.owner ? (e.owner.kind === "orchard" && e.owner.name ? e.owner.name : `${e.owner.kind}${e.owner.pid ? ` ${e.owner.pid}` : ""}`) : "-",
    e.path + (e.salvageRef ? ` (salvaged to ${e.salvageRef})` : ""),
  ]);
  // a live holder is no orphan: its row says live, as the count does
  const head = `${r.dryRun ? "would reap" : "reaped"} ${r.dryRun ? r.planned : r.reaped}, skipped ${r.skipped}, live ${r.live}`;
  const under = r.entries.map((e) => (e.status === "skipped" && !LIVE.has(e.reason) ? (e.next ?? remedyOf({ code: e.reason as Reason["code"] })) : null));
  return [head, table(REAP_COLUMNS, rows, { under }), ...notes].join("\n");
}

export function renderSalvageList(r: SalvageListResult): string {
  if (r.salvages.length === 0) return "no salvage refs";
  return table(
    ["AT", "BRANCH", "HEAD", "REASON", "REF"],
    r.salvages.map((s) => [s.at ? relativeTime(s.at) : "-", s.branch ?? "-", short(s.head), s.reason ?? "-", s.ref]),
  );
}

export function renderRestore(r: RestoreResult): string {
  return `${renderAdd(r)}\n  restored from ${r.restoredFrom.ref} (${short(r.restoredFrom.commit)})`;
}

export function renderWave(r: WaveResult): string {
  const lines = (r.reasons ?? []).map((x) => `refused ${x.code}: ${x.message}`);
  lines.push(...nextLines(r.reasons ?? [], {}, "  "));
  for (const n of r.notes ?? []) lines.push(`note ${n.code}: ${n.message}`);
  if (r.dryRun) lines.push("dry run: nothing changed");
  for (const e of r.result.entries) {
    const steps = e.status === "planned" ? ` (${e.steps.join(", ") || "nothing to do"})` : "";
    lines.push(`${e.status.padEnd(14)} ${e.reason.padEnd(26)} ${e.branch}${steps}`);
    if ("conflicts" in e && e.conflicts) lines.push(...e.conflicts.map((c) => `    conflict: ${c}`));
    else if ("stderr" in e && e.stderr) lines.push(`    ${e.stderr.split("\n").join("\n    ")}`);
    if (e.status === "blocked") lines.push(...nextLines([{ code: e.reason as Reason["code"] }], { branch: e.branch }, "    "));
  }
  for (const p of r.result.pending) lines.push(`${"pending".padEnd(14)} ${"".padEnd(26)} ${p.branch}`);
  if (r.plan.reason === "empty_manifest") lines.push("the manifest lists no worktrees");
  return lines.join("\n");
}

export function renderSalvagePrune(r: SalvagePruneResult): string {
  const verb = r.dryRun ? "would prune" : "pruned";
  const unique = r.pruned.filter((p) => p.uniqueWork).length;
  const warn = unique > 0 ? ` (${unique} ${r.dryRun ? "hold" : "held"} work that exists nowhere else)` : "";
  const lines = [`${verb} ${r.pruned.length}, kept ${r.kept.length}${warn}`];
  for (const p of r.pruned) {
    const why = p.why === "preserved" ? `content preserved (${p.how ?? "?"})` : "older than --older-than";
    lines.push(`  ${verb} ${p.ref} (${short(p.commit)}): ${why}${p.uniqueWork ? "; unique work: exists nowhere else" : ""}`);
  }
  for (const k of r.kept) lines.push(`  kept ${k.ref}: ${k.reasons.map((x) => x.code).join(", ")}`);
  return lines.join("\n");
}

export function renderAdopt(r: AdoptResult): string {
  const lines = [`${r.action.replace("_", " ")} ${r.handle ?? "-"}`, `  path    ${r.path}`, `  branch  ${r.branch ?? "(detached)"}`];
  if (r.base) lines.push(`  base    ${r.base.ref} ${short(r.base.commit)}`);
  for (const x of r.reasons) lines.push(`  refused ${x.code}: ${x.message}`);
  lines.push(...nextLines(r.reasons, { path: r.path, handle: r.handle }, "    "));
  return lines.join("\n");
}

/** reap-orphans has its own runner: even opening the workspace may fail without a failing exit. */
async function runReap(cmd: Command, options: ReapOptions): Promise<void> {
  const globals = globalsOf(cmd);
  const progress = ProgressLine.start("reap-orphans", globals);
  let orchard: Orchard | undefined;
  try {
    const { Orchard } = await import("../../core/orchard.js");
    const { withProgress } = await import("../../core/shared/progress.js");
    const open = await Orchard.open(openOptions(globals, true));
    orchard = open;
    const result = await withProgress(progress?.report, () => open.reapOrphans(options));
    progress?.stop();
    warnUnreachable(result);
    if (result.skipped > 0) process.stderr.write(`orchard: ${result.skipped} orphan(s) skipped\n`);
    if (!result.ok) process.stderr.write("orchard: reap-orphans stopped: the default branch is unknown\n");
    printResult(result, globals, renderReap, 0);
  } catch (error) {
    progress?.stop();
    if (error instanceof OrchardError && error.code === "not_a_repository") {
      // a session starting outside any repository: nothing to sweep, and never a failing exit
      process.stderr.write(`orchard: reap-orphans: nothing to sweep, ${error.message}\n`);
      return printResult({ ok: false as const, error: errorObject(error) }, globals, renderReap, 0);
    }
    if (error instanceof OrchardError && error.code === "invalid_config") {
      // a hostile or broken .orchard.json must not fail every agent's session start: reap nothing, say why, exit 0
      process.stderr.write(`orchard: reap-orphans: nothing reaped, ${error.message}\n`);
      return printResult({ ok: false as const, reaped: 0, skipped: 0, entries: [], error: errorObject(error) }, globals, renderReap, 0);
    }
    if (error instanceof OrchardError && error.kind === "usage") return printError(error, globals); // only a bad command line is exit 2
    const failed = { ok: false as const, error: errorObject(error) };
    process.stderr.write(`orchard: reap-orphans failed: ${failed.error.message}\n`);
    printResult(failed, globals, renderReap, 0);
  } finally {
    await orchard?.close();
  }
}

export function register(program: Command): void {
  program
    .command("reap-orphans")
    .description("startup sweep: remove worktrees locked by crashed sessions whose branch is merged")
    .option("--guard <duration>", "skip locks younger than this (default 5m, config reap.guard)")
    .option("--salvage", "salvage dirty worktrees to refs/orchard/salvage/… and reap them")
    .option("--merged <mode>", "ancestor | equivalent (default ancestor)")
    .option("--include-resumable", "also reap worktrees whose Claude Code session can still be resumed (kept by default)")
    .option("--dry-run", "decide and report, change nothing")
    .action((opts: ReapOptions, cmd: Command) => runReap(cmd, opts));

  const salvage = program.command("salvage").description("salvage refs: snapshots of worktrees taken before destructive steps");
  salvage
    .command("list")
    .description("every salvage ref with its metadata")
    .action((_opts: unknown, cmd: Command) => runWith(cmd, (o) => o.salvageList(), renderSalvageList));
  salvage
    .command("restore")
    .description("a new managed worktree holding a salvaged state (as uncommitted changes on the salvaged HEAD)")
    .argument("<ref>", "the salvage ref")
    .option("--branch <branch>", "branch of the new worktree (default: the salvaged branch, if free)")
    .action((ref: string, opts: { branch?: string }, cmd: Command) => runWith(cmd, (o) => o.salvageRestore({ ref, ...opts }), renderRestore));
  salvage
    .command("prune")
    .description("delete salvage refs whose content is merged or pushed (and, with --older-than, older ones); lists each")
    .option("--older-than <duration>", "also prune refs older than this, e.g. 30d, whatever they hold")
    .option("--dry-run", "list what would be pruned; change nothing")
    .action((opts: { olderThan?: string; dryRun?: boolean }, cmd: Command) => runWith(cmd, (o) => o.salvagePrune(opts), renderSalvagePrune));

  program
    .command("cleanup-wave")
    .description("merge a wave of agent branches back (manifest order) and remove their worktrees")
    .requiredOption("--manifest <file>", "JSON array (or {worktrees: [...]}) of {agent_id?, worktree_path, branch, expected_base}")
    .option("--into <path>", "the worktree to merge into (default: the primary)")
    .option("--strategy <strategy>", "merge (a merge commit, --no-ff) | squash | rebase (default merge)")
    .option("--continue-on-block", "a blocked entry does not stop the wave")
    .option("--allow-deletions", "merge branches that delete files")
    .option("--allow-live", "remove worktrees a process works in (the executors are known to be done)")
    .option("--dry-run", "print the plan and every entry's verdict; change nothing")
    .action((opts: { manifest: string }, cmd: Command) => runWith(cmd, (o) => o.cleanupWave(opts), renderWave, undefined, { progress: "cleanup-wave" }));

  program
    .command("adopt")
    .description("register a foreign worktree as managed, in place")
    .argument("<path>")
    .option("--task <id>", "the task it works on (env ORCHARD_TASK)")
    .option("--owner <id>", "take the lease (default: the owner its lock names)")
    .option("--pid <n>", "the owner's process id")
    .option("--ttl <duration>", "lease time to live")
    .action((path: string, opts: Record<string, unknown>, cmd: Command) => runWith(cmd, (o) => o.adopt({ path, ...(opts as object) }), renderAdopt));
}
