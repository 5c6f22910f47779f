import { describe, expect, it } from "vitest";
import { planCleanup, type PlanMember, type PlanRequest } from "./plan.js";
import { assessDisposition } from "../hygiene/assess.js";
import { reason } from "../shared/reasons/reasons.js";
import type { Facts } from "../shared/types.js";
import type { HuskFacts, HygieneWorktree, Subject } from "../hygiene/types.js";
import { SAMPLE_FACTS, sampleHusk as husk } from "../../../test/helpers/facts.js";

const base: Facts = {
  ...SAMPLE_FACTS,
  lifecycle: "terminal",
  lastActivity: "2026-01-01T00:00:00.000Z",
};

function member(f: Partial<Facts> = {}, s: Partial<Subject> = {}, digest: string | null = "clean"): PlanMember {
  const subject: Subject = { facts: { ...base, ...f }, repo: "r", listed: true, underRoot: true, createdBranch: true, errors: {}, ...s };
  const v = assessDisposition(subject);
  const view = { ...subject.facts, repo: "r", disposition: v.disposition, reasons: v.reasons, suggestion: { action: "", command: null } } as HygieneWorktree;
  if (subject.husk) view.husk = subject.husk;
  return { view, subject, digest };
}

const request: PlanRequest = {
  include: ["reclaimable", "reapable", "missing"],
  salvage: false,
  olderThanMs: null,
  now: Date.parse("2026-02-01T00:00:00Z"),
  defaultBranches: new Map([["r", "main"]]),
};
const dirty = { tracked: 0, untracked: 2, conflicted: 0, operation: null, ignored: { count: 0, bytes: 0, sample: [] } };
const lockedDead = {
  lock: { locked: true, reason: "claude agent a (pid 9)", owner: { kind: "claude-code" as const, pid: 9 } },
  liveness: { state: "dead" as const, signals: [] },
};

const actions = (members: PlanMember[], r: Partial<PlanRequest> = {}): string[] =>
  planCleanup(members, { ...request, ...r }).items.map((i) => `${i.action} ${i.path}`);
const skippedCodes = (members: PlanMember[], r: Partial<PlanRequest> = {}): string[] =>
  planCleanup(members, { ...request, ...r }).skipped.map((s) => s.reasons[0]?.code ?? "");

describe("planCleanup", () => {
  it("removes a reclaimable worktree, then deletes the branch orchard created", () => {
    const plan = planCleanup([member()], request);
    expect(plan.items.map((i) => [i.seq, i.action])).toEqual([
      [1, "remove"],
      [2, "delete_branch"],
    ]);
    expect(plan.items[0]?.preconditions).toEqual({
      head: base.head,
      dirtyDigest: "clean",
      lifecycle: "terminal",
      lockReason: null,
      branch: "x",
      proof: "merged",
      husk: false,
      target: "refs/heads/main", // what the proof is re-made against at the moment of use (SPEC v4 §3.8)
    });
    expect(plan.items[1]?.preconditions).toMatchObject({ head: base.head, branch: "x", dirtyDigest: null, target: "refs/heads/main" });
  });

  it.each<[string, PlanMember, string[]]>([
    ["a branch orchard did not create", member({}, { createdBranch: false }), ["remove /w/app@x"]],
    [
      "a squash-merged branch (commits not reachable from main)",
      member({ merged: { target: "refs/heads/main", how: "merge_adds_nothing" } }),
      ["remove /w/app@x"],
    ],
    ["a pushed, unmerged branch", member({ merged: { target: "refs/heads/main", how: null } }), ["remove /w/app@x"]],
    ["the default branch itself", member({ branch: "main" }), ["remove /w/app@x"]],
    ["a detached head", member({ detached: true, branch: null }), ["remove /w/app@x"]],
  ])("keeps %s", (_l, m, expected) => expect(actions([m])).toEqual(expected));

  it("reaps a dead-owner worktree and prunes a missing one", () => {
    expect(
      actions([member(lockedDead, {}), member({ path: "/w/app@m", handle: "app@m", missing: true }, {}, "missing")], { defaultBranches: new Map() }),
    ).toEqual(["prune /w/app@m", "reap /w/app@x"]);
  });

  it("foreign worktrees: reapable → reap, unlocked missing → prune, nothing else (SPEC §3.7 v2)", () => {
    const foreign = { managed: false, handle: null, lifecycle: null } as const;
    const reapable = member({ ...foreign, ...lockedDead });
    const gone = member({ ...foreign, path: "/f/gone", missing: true }, {}, "missing");
    const goneLocked = member({ ...foreign, ...lockedDead, path: "/f/locked", missing: true }, {}, "missing");
    const reclaimable = member({ ...foreign, path: "/f/clean" });
    expect(actions([reapable, gone, goneLocked, reclaimable], { defaultBranches: new Map() })).toEqual(["prune /f/gone", "reap /w/app@x"]);
    expect(skippedCodes([goneLocked, reclaimable])).toEqual(["not_managed", "foreign_lock"]);
    expect(planCleanup([reapable], request).items.map((i) => i.action)).toEqual(["reap"]); // never a delete_branch
  });

  it("plans needs_salvage only with --salvage", () => {
    const m = member({ dirty }, {}, "d1g357");
    expect(skippedCodes([m], { include: ["needs_salvage"] })).toEqual(["salvage_not_requested"]);
    expect(actions([m], { include: ["needs_salvage"], salvage: true })).toEqual(["salvage_remove /w/app@x"]);
    expect(skippedCodes([m])).toEqual(["not_included"]);
  });

  it("never plans live, idle, unknown or foreign worktrees, and says why", () => {
    const live = member({ liveness: { state: "live", signals: [] } });
    const idle = member({ lifecycle: "active", merged: { target: "refs/heads/main", how: null }, unpushed: 3 });
    const unknown = member({ merged: { target: "refs/heads/main", how: null }, unpushed: null });
    const foreign = member({ managed: false, handle: null, lifecycle: null });
    expect(planCleanup([live, idle, unknown, foreign], request).items).toEqual([]);
    expect(skippedCodes([live, idle, unknown, foreign])).toEqual(["live_owner", "active_unowned", "fact_unknown", "not_managed"]);
  });

  it("husks: empty or only-ignored are removed, files need --salvage, the rest are never touched", () => {
    const h = (p: string, facts: Partial<HuskFacts>) =>
      member({ path: p, handle: null, managed: false, lifecycle: null }, { listed: false, husk: husk(facts) }, "digest");
    const members = [
      h("/w/a", { empty: true }),
      h("/w/b", { salvageable: 0 }),
      h("/w/c", {}),
      h("/w/d", { repo: null }),
      h("/w/e", { symlink: true }),
      h("/w/f", { nestedRepository: true }),
    ];
    expect(actions(members, { include: ["husk"] })).toEqual(["remove /w/a", "remove /w/b"]);
    expect(actions(members, { include: ["husk"], salvage: true })).toEqual(["remove /w/a", "remove /w/b", "salvage_remove /w/c"]);
    expect(skippedCodes(members, { include: ["husk"] })).toEqual(["salvage_not_requested", "not_listed_by_git", "not_listed_by_git", "not_listed_by_git"]);
    expect(planCleanup(members, { ...request, include: ["husk"] }).items.every((i) => i.preconditions.husk)).toBe(true);
  });

  it("--older-than keeps recent and undated worktrees", () => {
    const recent = member({ path: "/w/r", lastActivity: "2026-01-31T23:00:00.000Z" });
    const undated = member({ path: "/w/u", lastActivity: null });
    expect(actions([member(), recent, undated], { olderThanMs: 86_400_000 })).toEqual(["remove /w/app@x", "delete_branch /w/app@x"]);
    expect(skippedCodes([recent, undated], { olderThanMs: 86_400_000 })).toEqual(["too_recent", "fact_unknown"]);
  });

  it("an unreadable dirty state is never planned", () => {
    expect(skippedCodes([member({}, {}, null)])).toEqual(["fact_unknown"]);
  });

  it("accounts for every worktree exactly once and is deterministic", () => {
    const members = [member({ path: "/w/z" }), member({ path: "/w/a", liveness: { state: "live", signals: [] } }), member({ path: "/w/m", dirty }, {}, "x")];
    const plan = planCleanup(members, request);
    const paths = [...new Set(plan.items.map((i) => i.path)), ...plan.skipped.map((s) => s.path)].sort();
    expect(paths).toEqual(["/w/a", "/w/m", "/w/z"]);
    expect(planCleanup([...members].reverse(), request)).toEqual(plan);
    expect(plan.items.map((i) => i.seq)).toEqual(plan.items.map((_, n) => n + 1));
  });

  it("keeps the verdict's reasons on each item", () => {
    const plan = planCleanup([member()], request);
    expect(plan.items[0]?.reasons.map((r) => r.code)).toEqual(["not_live", "clean", "work_preserved"]);
    expect(plan.items[1]?.reasons).toEqual([reason("merged", { how: "ancestor", target: "refs/heads/main" })]);
  });
});
