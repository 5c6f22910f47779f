// The hygiene verdict (pure): exactly one disposition per worktree, with the reasons that made it.
//
// Precedence, first match wins — each step only runs when every earlier one did not apply:
//   1. live           any live signal (lease, lock pid, a process inside). Keeping wins over all.
//      idle/unknown   its agent harness still tracks it (harness_tracked) or cannot be read
//                     (harness_unverified): the harness drops it, never Orchard (core/harness).
//   2. unknown        liveness could not be established (a foreign host, an unreadable lock…).
//   3. unknown        a registry row left `creating` (the next add of its handle repairs it).
//   4. husk           a directory under the managed root that git does not list.
//   5. missing        registered (git or registry), directory gone.
//   6. unknown        not listed by git outside the managed root, listed by another primary
//                     with the same identity, or its dirty state could not be read.
//      A worktree or repository nested inside (§4.14: never removed, cleaned or salvaged with
//      the outer one) is a known fact: what would otherwise be reclaimable, reapable or idle is
//      `idle` with `held_by_nested` (the nested one is dealt with first, by its own row); any
//      other case stays `unknown` with `nested_worktree`.
//   7. reapable       locked by a dead owner, clean, merged.
//   8. reclaimable    clean and work preserved (merged, or every commit on a remote).
//   9. unknown        clean but whether the work is preserved could not be established.
//  10. needs_salvage  dirty or work not preserved, and terminal or a dead owner.
//  11. idle           dirty or work not preserved, active (or foreign) and nobody owns it.
// Step 8 has one exception (SPEC §3.6 idleAfter): a managed active worktree nobody owns (liveness
// `none`) that was used within idleAfter is `idle`, not reclaimable — a fresh `add` without an
// owner is clean and "merged" (no commits yet), and someone may be about to work in it.
// An in-progress operation (merge, rebase…) and unique ignored files (§4.7) count as dirty.
// Unknown is never safe.
import { reason, type Reason } from "../shared/reasons/reasons.js";
import { blockReason, isClean } from "../facts/index.js";
import type { Facts, LivenessSignal } from "../shared/types.js";
import { harnessHold } from "../harness/index.js";
import type { Disposition, HuskFacts, Subject, Verdict } from "./types.js";

export type Preservation = { state: "yes"; via: "merged" | "pushed" } | { state: "no" } | { state: "unknown"; fact: "merged" | "unpushed" };

/** Work preserved (SPEC §1): merged, or unpushed === 0. Unpushed null and not merged → unknown. */
export function assessPreservation(facts: Pick<Facts, "merged" | "unpushed" | "reflogOnly">): Preservation {
  // commits only a detached HEAD's reflog keeps are work whatever HEAD itself proves (SPEC v5 §3.11)
  if (facts.reflogOnly === null) return { state: "unknown", fact: "unpushed" };
  if (facts.reflogOnly !== undefined && facts.reflogOnly > 0) return { state: "no" };
  if (facts.merged?.how) return { state: "yes", via: "merged" };
  if (facts.unpushed === 0) return { state: "yes", via: "pushed" };
  if (facts.merged === null || facts.merged === undefined) return { state: "unknown", fact: "merged" };
  if (facts.unpushed === null) return { state: "unknown", fact: "unpushed" };
  return { state: "no" };
}

const verdict = (disposition: Disposition, reasons: Reason[]): Verdict => ({ disposition, reasons });
const unknownFact = (fact: string, evidence: { error?: string; signals?: LivenessSignal[] } = {}): Reason =>
  reason("fact_unknown", { fact, ...evidence }, fact);

export function assessDisposition(subject: Subject): Verdict {
  const f = subject.facts;
  const { state, signals } = f.liveness;
  if (state === "live") return verdict("live", [reason("live_owner", { signals })]);
  // its harness still tracks it, or cannot be read (SPEC v5 §1): kept for the harness to drop, whatever it holds
  const held = harnessHold(f.harness);
  if (held)
    return verdict(held.code === "harness_tracked" ? "idle" : "unknown", [held, ...(state === "unknown" ? [unknownFact("liveness", { signals })] : [])]);
  if (f.foreignWorkspace !== undefined)
    return verdict("unknown", [
      reason("foreign_workspace", { workspace: f.foreignWorkspace }),
      ...(state === "unknown" ? [unknownFact("liveness", { signals })] : []),
    ]);
  // what an agent wrote makes git's facts untrue here: say which key or file, whatever else is unknown
  if (f.blocked) return verdict("unknown", [blockReason(f.blocked), ...(state === "unknown" ? [unknownFact("liveness", { signals })] : [])]);
  if (state === "unknown") return verdict("unknown", [unknownFact("liveness", { signals })]);
  if (f.lifecycle === "creating") return verdict("unknown", [reason("creating_interrupted")]);
  if (subject.husk && subject.underRoot) return verdict("husk", huskReasons(subject.husk));
  if (f.missing) return verdict("missing", [reason("missing_directory", { registeredWithGit: subject.listed })]);
  if (subject.otherPrimary) return verdict("unknown", [reason("duplicate_primary", { primary: subject.otherPrimary })]);
  if (!subject.listed) return verdict("unknown", [reason("not_listed_by_git", { outsideManagedRoot: !subject.underRoot })]);
  if (!f.dirty) return verdict("unknown", [unknownFact("dirty", subject.errors.dirty ? { error: subject.errors.dirty } : {})]);
  if (f.dirty.nested?.length) return heldByNested(subject, f.dirty);
  // kept for `claude --resume`, whatever it holds: its session goes on in it (issue 22 item 4); the
  // work it holds is shown beside it (issue 40 item 2), never hidden behind the session
  if (subject.resumable && state === "dead") return verdict("idle", [reason("session_resumable", subject.resumable), ...workReasons(f, f.dirty)]);
  return assessPresent(subject, f.dirty);
}

/**
 * A worktree or repository nested inside: judged without the nested directories (each shows as one
 * untracked entry). What would then be reclaimable, reapable or idle is held only by the nested
 * one: `idle`, `held_by_nested`. Anything else stays `unknown` (`nested_worktree`): no cleanup,
 * salvage or removal ever touches the outer one while something is nested in it.
 */
function heldByNested(subject: Subject, dirty: NonNullable<Facts["dirty"]>): Verdict {
  const paths = dirty.nested ?? [];
  const own = assessPresent(subject, { ...dirty, untracked: Math.max(0, dirty.untracked - paths.length), nested: [] });
  if (own.disposition === "reclaimable" || own.disposition === "reapable" || own.disposition === "idle")
    return verdict("idle", [reason("held_by_nested", { paths }), ...own.reasons.filter((r) => r.code !== "lock_too_fresh")]);
  return verdict("unknown", [reason("nested_worktree", { paths })]);
}

function assessPresent(subject: Subject, dirty: NonNullable<Facts["dirty"]>): Verdict {
  const f = subject.facts;
  const clean = isClean(dirty);
  const preserved = assessPreservation(f);
  const dead = f.liveness.state === "dead";
  const deadSignals = f.liveness.signals.filter((s) => s.code === "pid_dead" || s.code === "pid_reused" || s.code === "lease_expired");
  const notLive = reason("not_live", { liveness: f.liveness.state });
  if (clean && preserved.state === "yes") {
    if (f.lock.locked && dead && f.merged?.how) {
      const reapable = verdict("reapable", [
        reason("dead_owner", { signals: deadSignals }),
        reason("clean"),
        reason("merged", { how: f.merged.how, target: f.merged.target }),
      ]);
      return withGuard(subject, reapable);
    }
    if (recentlyUsedUnowned(subject))
      return verdict("idle", [
        reason("recently_active", { lastActivity: f.lastActivity, idleAfterMs: subject.idle?.afterMs }),
        reason("clean"),
        preservedReason(f, preserved.via),
      ]);
    return verdict("reclaimable", [notLive, reason("clean"), preservedReason(f, preserved.via)]);
  }
  if (clean && preserved.state === "unknown")
    return verdict("unknown", [unknownFact(preserved.fact, subject.errors.merged ? { error: subject.errors.merged } : {}), reason("clean")]);
  // harness bookkeeping alone (facts/bookkeeping.ts) is not work: cleanup salvages it and removes
  if (dirty.bookkeeping && preserved.state === "yes" && (f.lifecycle === "terminal" || dead)) {
    const why = f.lifecycle === "terminal" ? reason("terminal") : reason("dead_owner", { signals: deadSignals });
    return verdict("needs_salvage", [why, reason("harness_bookkeeping", { files: dirty.bookkeeping }), preservedReason(f, preserved.via)]);
  }
  const work = workReasons(f, dirty);
  if (f.lifecycle === "terminal") return verdict("needs_salvage", [reason("terminal"), ...work]);
  if (dead) return verdict("needs_salvage", [reason("dead_owner", { signals: deadSignals }), ...work]);
  return verdict("idle", [reason("active_unowned", { managed: f.managed }), ...work]);
}

/**
 * A foreign worktree's lock younger than reap-orphans' guard: reapable, but the sweep (and cleanup's
 * reap item) will skip it `lock_too_fresh` until `reapableAt` — said, never left for the user to discover.
 */
function withGuard(subject: Subject, v: Verdict): Verdict {
  const age = subject.lockAge;
  if (subject.facts.managed || !age || age.ms >= age.guardMs) return v;
  const reapableAt = new Date(age.now + age.guardMs - age.ms).toISOString();
  return { ...v, reasons: [...v.reasons, reason("lock_too_fresh", { reapableAt, guardMs: age.guardMs })], reapableAt };
}

/** Active, managed, nobody owns it, and used within idleAfter (an unknown activity time counts as recent). */
function recentlyUsedUnowned(subject: Subject): boolean {
  const f = subject.facts;
  if (!subject.idle || !f.managed || f.lifecycle !== "active" || f.liveness.state !== "none") return false;
  const last = f.lastActivity === null ? Number.NaN : Date.parse(f.lastActivity);
  return Number.isNaN(last) || subject.idle.now - last < subject.idle.afterMs;
}

/** The work a worktree holds: uncommitted changes or an operation, unique ignored files, commits not preserved (or not known to be). */
function workReasons(f: Facts, dirty: NonNullable<Facts["dirty"]>): Reason[] {
  const work: Reason[] = [];
  if (dirty.operation) work.push(reason("operation_in_progress", { operation: dirty.operation }));
  else if (dirty.tracked + dirty.untracked + dirty.conflicted > 0)
    work.push(reason("dirty", { tracked: dirty.tracked, untracked: dirty.untracked, conflicted: dirty.conflicted }));
  if (dirty.ignored.count > 0) work.push(reason("ignored_files", { ...dirty.ignored }));
  const preserved = assessPreservation(f);
  if (preserved.state === "no") work.push(notPreserved(f));
  if (preserved.state === "unknown") work.push(unknownFact(preserved.fact));
  return work;
}

/** Work not preserved, with the target it is not merged into (SPEC v4 §3.8: one target, named). */
function notPreserved(f: Facts): Reason {
  const into = f.merged?.target ? `not merged into ${f.merged.target.replace(/^refs\/heads\//, "")}` : undefined;
  return reason("work_not_preserved", { unpushed: f.unpushed, ...(f.merged ? { merged: f.merged } : {}) }, into);
}

function preservedReason(f: Facts, via: "merged" | "pushed"): Reason {
  return via === "merged"
    ? reason("work_preserved", { via, how: f.merged?.how ?? null, target: f.merged?.target ?? null })
    : reason("work_preserved", { via, unpushed: 0 });
}

function huskReasons(h: HuskFacts): Reason[] {
  const listed = reason("not_listed_by_git");
  if (h.symlink) return [listed, reason("symlink_not_followed")];
  if (h.empty) return [listed, reason("husk_empty")];
  if (h.repo === null) return [listed, reason("husk_unattributed")];
  if (h.nestedRepository) return [listed, reason("nested_repository")];
  if (h.salvageable === null || h.uniqueIgnored === null) return [listed, unknownFact("husk_files")];
  if (h.salvageable === 0 && h.uniqueIgnored === 0) return [listed, reason("husk_only_ignored")];
  return [listed, reason("husk_has_files", { files: h.salvageable, ignored: h.uniqueIgnored })];
}
