// Every sentence `orchard demo` says, in one place, so the story can be read (and reworded) whole.
// The narration is for a newcomer: what happened to each agent, what Orchard decided, and why
// nothing of value was lost.
import type { Agent, Story } from "./fleet.js";
import type { Sandbox } from "./sandbox.js";
import { REASON_TEXT, type ReasonCode } from "../core/shared/reasons/reasons.js";

export interface Row {
  path: string;
  branch: string | null;
  disposition?: string;
  reasons?: readonly { code: string; message: string }[];
}

const STORY: Record<Story, (a: Agent) => string> = {
  merged_released: (a) => `${a.name} finished ${a.branch} (${a.task}); it was merged into main and released.`,
  pushed_released: (a) => `${a.name} finished ${a.branch} (${a.task}); it was pushed to origin (not merged yet) and released.`,
  crashed_merged: (a) => `${a.name}, a Claude Code agent, crashed on ${a.branch} after its work was merged; its lock names a dead pid.`,
  crashed_dirty: (a) => `${a.name}, a Claude Code session, crashed on ${a.branch}: merged, but it left uncommitted notes behind.`,
  crashed_unmerged: (a) => `${a.name}, a Claude Code agent, crashed on ${a.branch} with commits that were never merged or pushed.`,
  duplicate_done: (a) => `${a.name} finished ${a.branch} for ${a.task}; merged and released.`,
  duplicate_idle: (a) =>
    `${a.name} started over on the same task ${a.task} in a second worktree, ${a.branch} (the first, merged and released, could have been recycled), committed, and walked away without naming an owner.`,
  repeat_done: (a) => `${a.name} fixed ${a.task} on ${a.branch}, pushed it and released it.`,
  repeat_equivalent: (a) =>
    `${a.name} was then given ${a.task} again and made the same fix on ${a.branch} (a worktree it could have reused); the first fix got merged.`,
  abandoned_dirty: (a) => `${a.name} abandoned ${a.branch} (${a.task}) with an uncommitted change to a tracked file.`,
  deleted_directory: (a) => `${a.name} finished ${a.branch}; then someone deleted its directory by hand, so git still lists a worktree that is gone.`,
  live: (a) => `${a.name} is still working on ${a.branch} (${a.task}): a live process sits inside the worktree.`,
};

const DISPOSITION: Record<string, string> = {
  live: "someone is working here — kept",
  reclaimable: "finished, clean, and its work is merged or pushed — safe to remove or recycle",
  reapable: "locked by a dead owner, clean and merged — for reap-orphans",
  needs_salvage: "holds work that exists nowhere else — salvage first, never deleted automatically",
  idle: "active, no owner, unpushed work — the owner decides",
  missing: "registered, but the directory is gone — only the stale entry is pruned",
  husk: "a directory git does not know — checked for work before removal",
  unknown: "a fact could not be established — kept",
};

/** The reason table's sentence for a code, with the code itself for looking it up. */
const explain = (code: string) => `${code in REASON_TEXT ? REASON_TEXT[code as ReasonCode] : code} (${code})`;
const where = (r: Row) => r.branch ?? r.path;
const because = (reasons: Row["reasons"]) => (reasons && reasons.length ? ` (${reasons.map((x) => x.code).join(", ")})` : "");

export const DEMO_TEXT = {
  intro: (s: Sandbox) => [
    "Orchard demo — a simulated fleet of coding agents, and Orchard tidying up after it.",
    `Everything lives in the sandbox ${s.dir}; nothing outside it is read or changed.`,
  ],
  sandbox: (s: Sandbox) => `Made the repository ${s.primary} (${s.files} files), its origin ${s.origin}, and an empty Orchard workspace ${s.home}.`,
  fleet: "A day of parallel agents:",
  agent: (a: Agent) => `  • ${STORY[a.story](a)}`,
  snapshotTitle: (when: "before" | "after") => (when === "before" ? "orchard hygiene — one truthful report:" : "orchard hygiene — the report again:"),
  disposition: (r: Row) => `  ${(r.disposition ?? "?").padEnd(13)} ${where(r)}${because(r.reasons)}`,
  dispositionLegend: (disposition: string) => `  ${disposition.padEnd(13)} = ${DISPOSITION[disposition] ?? disposition}`,
  duplicates: (g: { task: string; handles: readonly string[]; canonical: string; conflict: boolean; canonicalDisposition: string | null }) =>
    g.conflict
      ? `  task ${g.task} has ${g.handles.length} worktrees, and several hold work nobody else has: none is removed, their owners decide.`
      : g.canonicalDisposition === "reclaimable" || g.canonicalDisposition === "reapable"
        ? `  task ${g.task} has ${g.handles.length} worktrees; ${g.canonical} holds the most work, and that work is merged or pushed, so none of them needs keeping.`
        : `  task ${g.task} has ${g.handles.length} worktrees; ${g.canonical} holds the most work: keep it.`,
  preventable: (count: number, policies: readonly string[]) =>
    `  ${count} worktree(s) were created although an existing one could have been reused${policies.length ? ` (${policies.map((p) => `--policy ${p}`).join(" or ")} would have done it)` : ""}.`,
  reapTitle: "orchard reap-orphans --salvage — the startup sweep for crashed sessions:",
  reaped: (r: Row & { reason: string; salvageRef?: string }) =>
    `  reaped  ${where(r)}: ${explain(r.reason)}${r.salvageRef ? `; its uncommitted files were saved first in ${r.salvageRef}` : ""}`,
  reapSkipped: (r: Row & { reason: string }) => `  left    ${where(r)}: ${explain(r.reason)}`,
  cleanupTitle: "orchard cleanup run — remove what is reclaimable, reapable or missing, re-checking each item first:",
  cleanupItem: (r: Row & { action: string; status: string }) => `  ${r.status.padEnd(8)} ${r.action.padEnd(14)} ${where(r)}`,
  notWired: (step: string) => `  (${step} is not available in this build yet.)`,
  safetyTitle: "Nothing of value was lost:",
  salvaged: (s: Sandbox, ref: string) => `  • The crashed session's notes are in ${ref} — see them with: git -C ${s.primary} show --stat ${ref}`,
  keptWork: (r: Row) => `  • ${where(r)} still holds its work${because(r.reasons)}: it was left alone.`,
  outro: (s: Sandbox) => [
    `The sandbox stays at ${s.dir} so you can look around (try: orchard --home ${s.home} --repo ${s.primary} list).`,
    `Remove it with: rm -rf ${s.dir}`,
  ],
} as const;
