import { describe, expect, it } from "vitest";
import { assessDestination, assessRecycle } from "./verdict.js";
import type { Facts } from "../shared/types.js";
import { SAMPLE_FACTS } from "../../../test/helpers/facts.js";

const facts: Facts = {
  ...SAMPLE_FACTS,
  path: "/w/app@feat",
  handle: "app@feat",
  branch: "feat",
  lifecycle: "terminal",
  task: "t-1",
  merged: { target: "refs/heads/main", how: null },
};
const codes = (f: Partial<Facts>) => assessRecycle({ ...facts, ...f }).map((r) => r.code);

describe("assessRecycle", () => {
  it("a released, clean, pushed, unlocked worktree passes", () => expect(codes({})).toEqual([]));
  it("merged work counts as preserved even when unpushed or with no remote", () => {
    expect(codes({ unpushed: 3, merged: { target: "refs/heads/main", how: "patch_equivalent" } })).toEqual([]);
    expect(codes({ unpushed: null, merged: { target: "refs/heads/main", how: "ancestor" } })).toEqual([]);
  });
  it("unknown is not preserved: no remote and not merged, or facts not gathered", () => {
    expect(codes({ unpushed: null })).toEqual(["work_not_preserved"]);
    expect(codes({ unpushed: 1, merged: null })).toEqual(["work_not_preserved"]);
    expect(codes({ dirty: null })).toEqual(["dirty"]);
    const { dirty: _omitted, ...partial } = facts;
    expect(assessRecycle(partial).map((r) => r.code)).toEqual(["dirty"]);
  });
  it("collects every reason", () => {
    expect(
      codes({
        managed: false,
        lifecycle: null,
        liveness: { state: "unknown", signals: [] },
        unpushed: 2,
        dirty: { tracked: 1, untracked: 0, conflicted: 1, operation: "merge", ignored: { count: 0, bytes: 0, sample: [] } },
        lock: { locked: true, reason: "held", owner: { kind: "unknown" } },
      }),
    ).toEqual(["not_managed", "liveness_unknown", "operation_in_progress", "dirty", "work_not_preserved", "foreign_lock"]);
  });
  it("active is not terminal; live is live; an orchard lock is not foreign; a missing directory cannot be recycled", () => {
    expect(codes({ lifecycle: "active" })).toEqual(["not_terminal"]);
    expect(codes({ liveness: { state: "live", signals: [{ code: "process_in_worktree", detail: "pid 1" }] } })).toEqual(["live_owner"]);
    expect(codes({ lock: { locked: true, reason: "orchard-lease {}", owner: { kind: "orchard" } } })).toEqual([]);
    expect(codes({ lock: { locked: true, reason: "123", owner: { kind: "pid", pid: 123 } } })).toEqual(["foreign_lock"]);
    expect(codes({ missing: true })).toEqual(["missing_directory"]);
  });
});

describe("assessDestination", () => {
  it("the new handle, path and branch must be free", () => {
    expect(assessDestination({ handleTakenBy: null, pathOccupied: false, branchHolder: null }, "/w/x")).toEqual([]);
    expect(assessDestination({ handleTakenBy: "/w/x", pathOccupied: true, branchHolder: "/p" }, "/w/x").map((r) => r.code)).toEqual([
      "handle_taken",
      "path_occupied",
      "branch_checked_out",
    ]);
  });
});
