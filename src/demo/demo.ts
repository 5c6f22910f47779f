// `orchard demo` (SPEC §3.13): build a sandbox and a fleet, show hygiene, reap, clean up, show the
// report again — all through the library, all inside the sandbox. The narration is handed to
// `narrate` line by line (the CLI prints it); the result summarises the run as one JSON object.
import { Orchard } from "../core/orchard.js";
import { createSandbox, withSandboxEnv, type Sandbox } from "./sandbox.js";
import { buildFleet, type Agent, type ExpectedDisposition, type Story } from "./fleet.js";
import { DEMO_TEXT as T, type Row } from "./text.js";
import type { Disposition } from "../core/hygiene/index.js";

export type Narrate = (line: string) => void;

export interface DemoAgentSummary {
  name: string;
  branch: string;
  path: string;
  task: string | null;
  story: Story;
  expected: ExpectedDisposition;
  /** The disposition hygiene gave it before and after the clean-up (null: not reported). */
  before: Disposition | null;
  after: Disposition | null;
}

export interface DemoResult {
  ok: true;
  dir: string;
  home: string;
  repo: string;
  files: number;
  agents: DemoAgentSummary[];
  reap: { reaped: number; skipped: number; entries: { path: string; branch: string | null; status: string; reason: string; salvageRef?: string }[] } | null;
  cleanup: { items: { path: string; action: string; status: string }[] } | null;
  salvageRefs: string[];
}

interface Snapshot {
  rows: (Row & { disposition: Disposition })[];
  duplicates: { task: string; handles: string[]; canonical: string; conflict: boolean; canonicalDisposition: Disposition | null }[];
  preventable: number;
  preventablePolicies: string[];
}

/** The hygiene report, reduced to what the narration and the summary need. */
async function snapshot(orchard: Orchard): Promise<Snapshot> {
  const report = await orchard.hygiene();
  return {
    rows: report.worktrees.map((w) => ({ path: w.path, branch: w.branch, disposition: w.disposition, reasons: w.reasons })),
    duplicates: report.duplicateTaskGroups.map((g) => ({
      ...g,
      canonicalDisposition: report.worktrees.find((w) => w.handle === g.canonical)?.disposition ?? null,
    })),
    preventable: report.preventableDuplicates.count,
    preventablePolicies: [...new Set(report.preventableDuplicates.recent.flatMap((p) => (p.suggestion ? [p.suggestion.policy] : [])))].sort(),
  };
}

function tellSnapshot(narrate: Narrate, when: "before" | "after", snap: Snapshot): void {
  narrate("");
  narrate(T.snapshotTitle(when));
  for (const row of snap.rows) narrate(T.disposition(row));
  for (const group of snap.duplicates) narrate(T.duplicates(group));
  if (when === "before" && snap.preventable > 0) narrate(T.preventable(snap.preventable, snap.preventablePolicies));
  const seen = [...new Set(snap.rows.map((r) => r.disposition))];
  if (seen.length) narrate("");
  for (const d of seen) narrate(T.dispositionLegend(d));
}

const dispositionOf = (snap: Snapshot, agent: Agent) => snap.rows.find((r) => r.path === agent.path)?.disposition ?? null;

type ReapSummary = NonNullable<DemoResult["reap"]>;
type CleanupSummary = NonNullable<DemoResult["cleanup"]>;

async function reapStep(orchard: Orchard, narrate: Narrate): Promise<ReapSummary> {
  narrate("");
  narrate(T.reapTitle);
  const reap = await orchard.reapOrphans({ salvage: true });
  const entries = reap.entries.map((e) => ({
    path: e.path,
    branch: e.branch,
    status: e.status,
    reason: e.reason,
    ...(e.salvageRef ? { salvageRef: e.salvageRef } : {}),
  }));
  for (const e of entries) narrate(e.status === "reaped" ? T.reaped(e) : T.reapSkipped(e));
  return { reaped: reap.reaped, skipped: reap.skipped, entries };
}

async function cleanupStep(orchard: Orchard, narrate: Narrate, before: Snapshot): Promise<CleanupSummary> {
  narrate("");
  narrate(T.cleanupTitle);
  const run = await orchard.cleanupRun();
  const branchOf = (path: string) => before.rows.find((r) => r.path === path)?.branch ?? null;
  const items = run.items.map((i) => ({ path: i.path, action: i.action, status: i.state }));
  for (const item of items) narrate(T.cleanupItem({ ...item, branch: branchOf(item.path) }));
  return { items };
}

/** What the clean-up kept and where the salvaged work is: the point of the whole demo. */
function tellSafety(narrate: Narrate, sandbox: Sandbox, after: Snapshot, salvageRefs: readonly string[]): void {
  narrate("");
  narrate(T.safetyTitle);
  for (const ref of salvageRefs) narrate(T.salvaged(sandbox, ref));
  for (const row of after.rows) if (row.disposition === "needs_salvage" || row.disposition === "idle") narrate(T.keptWork(row));
}

async function play(sandbox: Sandbox, narrate: Narrate): Promise<DemoResult> {
  const orchard = await Orchard.open({ repo: sandbox.primary, home: sandbox.home });
  let stopLive: (() => Promise<void>) | undefined;
  try {
    narrate(T.sandbox(sandbox));
    narrate("");
    narrate(T.fleet);
    const fleet = await buildFleet(sandbox, orchard, (agent) => narrate(T.agent(agent)));
    stopLive = fleet.live.stop;

    const before = await snapshot(orchard);
    tellSnapshot(narrate, "before", before);
    const reap = await reapStep(orchard, narrate);
    const cleanup = await cleanupStep(orchard, narrate, before);
    const after = await snapshot(orchard);
    tellSnapshot(narrate, "after", after);
    const salvageRefs = (await orchard.salvageList()).salvages.map((x) => x.ref);
    tellSafety(narrate, sandbox, after, salvageRefs);

    const agents = fleet.agents.map((a) => ({ ...a, before: dispositionOf(before, a), after: dispositionOf(after, a) }));
    return { ok: true, dir: sandbox.dir, home: sandbox.home, repo: sandbox.primary, files: sandbox.files, agents, reap, cleanup, salvageRefs };
  } finally {
    await stopLive?.();
    await orchard.close();
  }
}

/** Runs the whole demo in a sandbox (`dir`, default a new temp dir). */
export async function runDemo(options: { dir?: string }, narrate: Narrate): Promise<DemoResult> {
  const sandbox = await createSandbox(options.dir);
  for (const line of T.intro(sandbox)) narrate(line);
  const result = await withSandboxEnv(sandbox.env, () => play(sandbox, narrate));
  narrate("");
  for (const line of T.outro(sandbox)) narrate(line);
  return result;
}
