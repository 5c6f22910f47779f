import { describe, expect, it } from "vitest";
import { assessOwnerGone, assessWork, type LockFacts, type WorkFacts } from "./verdict.js";
import type { Liveness } from "../ownership/liveness.js";

const dead: Liveness = { state: "dead", signals: [{ code: "pid_dead", detail: "pid 9" }] };
const lock = (over: Partial<LockFacts> = {}): LockFacts => ({
  lockAgeMs: 600_000,
  guardMs: 300_000,
  owner: { kind: "pid", pid: 9 },
  orchardLease: "present",
  liveness: dead,
  ...over,
});
const orchardOwner = { kind: "orchard" as const, handle: "app@x", owner: "a" };

describe("assessOwnerGone", () => {
  it.each<[string, Partial<LockFacts>, string]>([
    ["unreadable lock age", { lockAgeMs: null }, "lock_age_unknown"],
    ["fresh lock", { lockAgeMs: 1_000 }, "lock_too_fresh"],
    ["a live pid whatever the guard", { lockAgeMs: 1_000, liveness: { state: "live", signals: [{ code: "pid_alive", detail: "" }] } }, "pid_alive"],
    [
      "a process inside whatever the guard",
      { lockAgeMs: 1_000, liveness: { state: "live", signals: [{ code: "process_in_worktree", detail: "" }] } },
      "process_in_worktree",
    ],
    ["fresh wins over an unknown owner", { lockAgeMs: 1_000, owner: { kind: "unknown" } }, "lock_too_fresh"],
    ["unknown owner", { owner: { kind: "unknown" } }, "lock_owner_unknown"],
    ["orchard lock without lease", { owner: orchardOwner, orchardLease: "absent" }, "no_owner"],
    ["orchard lease of another workspace", { owner: orchardOwner, orchardLease: "unknown" }, "liveness_unknown"],
    ["pid alive", { liveness: { state: "live", signals: [{ code: "pid_alive", detail: "" }] } }, "pid_alive"],
    ["lease live", { owner: orchardOwner, liveness: { state: "live", signals: [{ code: "lease_live", detail: "" }] } }, "lease_live"],
    [
      "pid before lease",
      {
        liveness: {
          state: "live",
          signals: [
            { code: "lease_live", detail: "" },
            { code: "pid_alive", detail: "" },
          ],
        },
      },
      "pid_alive",
    ],
    [
      "process inside",
      {
        liveness: {
          state: "live",
          signals: [
            { code: "pid_dead", detail: "" },
            { code: "process_in_worktree", detail: "" },
          ],
        },
      },
      "process_in_worktree",
    ],
    ["pid unknown", { liveness: { state: "unknown", signals: [{ code: "pid_unknown", detail: "" }] } }, "liveness_unknown"],
    ["process table unreadable", { liveness: { state: "unknown", signals: [{ code: "processes_unknown", detail: "" }] } }, "liveness_unknown"],
  ])("%s → %s", (_name, over, reason) => {
    expect(assessOwnerGone(lock(over))).toMatchObject({ kind: "skip", reason });
  });

  it("a dead or reused pid goes on; only a lease that ended by its heartbeat (no pid) is told apart", () => {
    expect(assessOwnerGone(lock())).toEqual({ kind: "go", byHeartbeat: false });
    expect(assessOwnerGone(lock({ liveness: { state: "dead", signals: [{ code: "pid_reused", detail: "" }] } }))).toEqual({ kind: "go", byHeartbeat: false });
    expect(assessOwnerGone(lock({ owner: orchardOwner, liveness: { state: "dead", signals: [{ code: "lease_expired", detail: "" }] } }))).toEqual({
      kind: "go",
      byHeartbeat: true,
    });
    expect(assessOwnerGone(lock({ owner: { ...orchardOwner, pid: 9 }, liveness: dead }))).toEqual({ kind: "go", byHeartbeat: false });
  });
  it("a fresh lock of a dead holder says when its age stops blocking", () => {
    expect(assessOwnerGone(lock({ lockAgeMs: 60_000 }))).toMatchObject({ kind: "skip", reason: "lock_too_fresh", reapableInMs: 240_000 });
  });
});

const NONE = { count: 0, bytes: 0, sample: [] };
const PLAN = { count: 1, bytes: 12, sample: [".planning/SUMMARY.md"] };

const work = (over: Partial<WorkFacts> = {}): WorkFacts => ({
  tip: "a".repeat(40),
  merged: { how: "ancestor", target: "refs/heads/main" },
  missing: false,
  dirty: { changes: 0, operation: null, ignored: NONE },
  salvage: false,
  ...over,
});

describe("assessWork", () => {
  it.each<[string, Partial<WorkFacts>, string]>([
    ["no tip", { tip: null }, "cannot_resolve_branch_tip"],
    ["not merged", { merged: { how: null, target: "refs/heads/main" } }, "branch_not_merged"],
    ["dirty", { dirty: { changes: 2, operation: null, ignored: NONE } }, "worktree_dirty"],
    ["operation in progress", { dirty: { changes: 0, operation: "rebase", ignored: NONE } }, "worktree_dirty"],
    ["only unique ignored files", { dirty: { changes: 0, operation: null, ignored: PLAN } }, "ignored_files"],
    ["changes and unique ignored files", { dirty: { changes: 1, operation: null, ignored: PLAN } }, "worktree_dirty"],
    ["status unknown", { dirty: "unknown" }, "fact_unknown"],
    ["status unknown even with --salvage", { dirty: "unknown", salvage: true }, "fact_unknown"],
  ])("%s → %s", (_name, over, reason) => {
    expect(assessWork(work(over), false)).toMatchObject({ kind: "skip", reason });
  });

  it("reaps clean, missing, or salvaged checkouts with the right reason", () => {
    expect(assessWork(work(), false)).toEqual({ kind: "go", reason: "pid_dead_and_merged", salvage: false });
    expect(assessWork(work(), true)).toEqual({ kind: "go", reason: "lease_dead_and_merged", salvage: false });
    const { dirty: _unread, ...missing } = work({ missing: true });
    expect(assessWork(missing, false)).toEqual({ kind: "go", reason: "pid_dead_and_missing", salvage: false });
    expect(assessWork(work({ dirty: { changes: 0, operation: null, ignored: PLAN }, salvage: true }), false)).toMatchObject({ kind: "go", salvage: true });
    expect(assessWork(work({ dirty: { changes: 1, operation: null, ignored: NONE }, salvage: true }), false)).toEqual({
      kind: "go",
      reason: "pid_dead_and_merged",
      salvage: true,
    });
  });

  it("a missing directory must still be merged", () => {
    expect(assessWork(work({ missing: true, merged: { how: null, target: null } }), false)).toMatchObject({ kind: "skip", reason: "branch_not_merged" });
  });
});
