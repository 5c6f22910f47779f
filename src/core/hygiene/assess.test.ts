import { describe, expect, it } from "vitest";
import { assessDisposition, assessPreservation } from "./assess.js";
import type { Facts } from "../shared/types.js";
import type { Subject } from "./types.js";
import { SAMPLE_FACTS, sampleHusk as husk } from "../../../test/helpers/facts.js";

const facts: Facts = SAMPLE_FACTS;
const subject = (f: Partial<Facts> = {}, s: Partial<Subject> = {}): Subject => ({
  facts: { ...facts, ...f },
  repo: "r",
  listed: true,
  underRoot: true,
  createdBranch: true,
  errors: {},
  ...s,
});
const dead = { state: "dead" as const, signals: [{ code: "pid_dead" as const, detail: "pid 9" }] };
const lockedDead = { lock: { locked: true, reason: "claude agent a (pid 9)", owner: { kind: "claude-code" as const, pid: 9 } }, liveness: dead };
const unmerged = { merged: { target: "refs/heads/main", how: null }, unpushed: 2 };
const dirty = { dirty: { tracked: 1, untracked: 0, conflicted: 0, operation: null, ignored: { count: 0, bytes: 0, sample: [] } } };
const young = { idle: { afterMs: 24 * 3600_000, now: Date.parse("2026-06-01T12:00:00Z") } };
const deadLease = { owner: "a1", liveness: dead };
const session = { sessionId: "s-1", until: "2026-07-01T00:00:00.000Z", transcript: "/h/.claude/projects/-app/s-1.jsonl" };

describe("assessDisposition: one disposition per worktree, by precedence", () => {
  it.each<[string, Subject, string, string[]]>([
    ["live lease", subject({ liveness: { state: "live", signals: [{ code: "lease_live", detail: "" }] } }), "live", ["live_owner"]],
    ["live beats missing", subject({ missing: true, liveness: { state: "live", signals: [] } }), "live", ["live_owner"]],
    ["live beats husk", subject({ liveness: { state: "live", signals: [] } }, { listed: false, husk: husk({}) }), "live", ["live_owner"]],
    ["liveness unknown", subject({ liveness: { state: "unknown", signals: [{ code: "lock_owner_unknown", detail: "" }] } }), "unknown", ["fact_unknown"]],
    ["clean merged unowned", subject(), "reclaimable", ["not_live", "clean", "work_preserved"]],
    [
      "clean pushed, not merged",
      subject({ merged: { target: "refs/heads/main", how: null }, unpushed: 0 }),
      "reclaimable",
      ["not_live", "clean", "work_preserved"],
    ],
    ["terminal, clean, merged", subject({ lifecycle: "terminal" }), "reclaimable", ["not_live", "clean", "work_preserved"]],
    ["dead lock owner, clean, merged", subject(lockedDead), "reapable", ["dead_owner", "clean", "merged"]],
    [
      "dead lock owner, clean, only pushed",
      subject({ ...lockedDead, merged: { target: "refs/heads/main", how: null }, unpushed: 0 }),
      "reclaimable",
      ["not_live", "clean", "work_preserved"],
    ],
    ["dead lock owner, dirty", subject({ ...lockedDead, ...dirty }), "needs_salvage", ["dead_owner", "dirty"]],
    ["dead owner, unpushed", subject({ ...lockedDead, ...unmerged }), "needs_salvage", ["dead_owner", "work_not_preserved"]],
    ["terminal dirty", subject({ lifecycle: "terminal", ...dirty }), "needs_salvage", ["terminal", "dirty"]],
    ["terminal unpreserved", subject({ lifecycle: "terminal", ...unmerged }), "needs_salvage", ["terminal", "work_not_preserved"]],
    [
      "terminal in a rebase",
      subject({ lifecycle: "terminal", dirty: { tracked: 0, untracked: 0, conflicted: 0, operation: "rebase", ignored: { count: 0, bytes: 0, sample: [] } } }),
      "needs_salvage",
      ["terminal", "operation_in_progress"],
    ],
    ["active unowned unpreserved", subject(unmerged), "idle", ["active_unowned", "work_not_preserved"]],
    ["active unowned dirty", subject(dirty), "idle", ["active_unowned", "dirty"]],
    ["foreign unlocked unpreserved", subject({ ...unmerged, managed: false, handle: null, lifecycle: null }), "idle", ["active_unowned", "work_not_preserved"]],
    // idleAfter (§3.6): an ownerless active worktree used within it is idle, not reclaimable
    ["fresh add without an owner", subject({ lastActivity: "2026-06-01T11:00:00Z" }, young), "idle", ["recently_active", "clean", "work_preserved"]],
    ["no owner, activity unknown", subject({ lastActivity: null }, young), "idle", ["recently_active", "clean", "work_preserved"]],
    ["no owner, idle past idleAfter", subject({ lastActivity: "2026-05-30T11:00:00Z" }, young), "reclaimable", ["not_live", "clean", "work_preserved"]],
    [
      "terminal, used recently",
      subject({ lifecycle: "terminal", lastActivity: "2026-06-01T11:00:00Z" }, young),
      "reclaimable",
      ["not_live", "clean", "work_preserved"],
    ],
    [
      "dead owner, used recently",
      subject({ ...deadLease, lastActivity: "2026-06-01T11:00:00Z" }, young),
      "reclaimable",
      ["not_live", "clean", "work_preserved"],
    ],
    // a resumable Claude Code session keeps its worktree, and the work in it is shown beside it (issue 40 item 2)
    ["resumable, clean, merged", subject({ ...deadLease }, { resumable: session }), "idle", ["session_resumable"]],
    ["resumable, dirty", subject({ ...deadLease, ...dirty }, { resumable: session }), "idle", ["session_resumable", "dirty"]],
    ["resumable, unpushed", subject({ ...deadLease, ...unmerged }, { resumable: session }), "idle", ["session_resumable", "work_not_preserved"]],
    ["missing directory", subject({ missing: true }), "missing", ["missing_directory"]],
    ["missing with a dead lock", subject({ missing: true, ...lockedDead }), "missing", ["missing_directory"]],
    ["no remote, not merged → unknown", subject({ merged: { target: "refs/heads/main", how: null }, unpushed: null }), "unknown", ["fact_unknown", "clean"]],
    ["no default branch, unpushed → unknown", subject({ merged: null, unpushed: 3 }), "unknown", ["fact_unknown", "clean"]],
    ["dirty unknown", subject({ dirty: null }, { errors: { dirty: "git status failed" } }), "unknown", ["fact_unknown"]],
    ["left creating", subject({ lifecycle: "creating" }), "unknown", ["creating_interrupted"]],
    ["registry row outside the root, not listed", subject({}, { listed: false, underRoot: false }), "unknown", ["not_listed_by_git"]],
    ["another primary's worktree", subject({}, { listed: false, otherPrimary: "/other/app" }), "unknown", ["duplicate_primary"]],
    ["empty husk", subject({}, { listed: false, husk: husk({ empty: true }) }), "husk", ["not_listed_by_git", "husk_empty"]],
    ["husk with files", subject({}, { listed: false, husk: husk({}) }), "husk", ["not_listed_by_git", "husk_has_files"]],
    ["husk with only ignored files", subject({}, { listed: false, husk: husk({ salvageable: 0 }) }), "husk", ["not_listed_by_git", "husk_only_ignored"]],
    [
      "husk with unique ignored files",
      subject({}, { listed: false, husk: husk({ salvageable: 0, uniqueIgnored: 2 }) }),
      "husk",
      ["not_listed_by_git", "husk_has_files"],
    ],
    ["husk of no repo", subject({}, { listed: false, husk: husk({ repo: null }) }), "husk", ["not_listed_by_git", "husk_unattributed"]],
    ["husk holding a nested repo", subject({}, { listed: false, husk: husk({ nestedRepository: true }) }), "husk", ["not_listed_by_git", "nested_repository"]],
    ["husk that is a symlink", subject({}, { listed: false, husk: husk({ symlink: true }) }), "husk", ["not_listed_by_git", "symlink_not_followed"]],
    ["husk whose files could not be listed", subject({}, { listed: false, husk: husk({ salvageable: null }) }), "husk", ["not_listed_by_git", "fact_unknown"]],
  ])("%s → %s", (_label, input, disposition, codes) => {
    const verdict = assessDisposition(input);
    expect(verdict.disposition).toBe(disposition);
    expect(verdict.reasons.map((r) => r.code)).toEqual(codes);
  });

  it("names the unknown fact", () => {
    const v = assessDisposition(subject({ merged: { target: "refs/heads/main", how: null }, unpushed: null }));
    expect(v.reasons[0]).toMatchObject({ code: "fact_unknown", fact: "unpushed" });
  });
});

describe("assessPreservation", () => {
  it.each<[string, Pick<Facts, "merged" | "unpushed">, string]>([
    ["merged", { merged: { target: "t", how: "patch_equivalent" }, unpushed: 5 }, "yes"],
    ["pushed", { merged: { target: "t", how: null }, unpushed: 0 }, "yes"],
    ["neither", { merged: { target: "t", how: null }, unpushed: 1 }, "no"],
    ["no remote, not merged", { merged: { target: "t", how: null }, unpushed: null }, "unknown"],
    ["no target, pushed", { merged: null, unpushed: 0 }, "yes"],
    ["no target, unpushed", { merged: null, unpushed: 1 }, "unknown"],
  ])("%s → %s", (_l, f, state) => expect(assessPreservation(f).state).toBe(state));
});
