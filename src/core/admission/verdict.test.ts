import { describe, expect, it } from "vitest";
import { assessExact, type ExactRequest } from "./verdict.js";
import type { Facts } from "../shared/types.js";
import { SAMPLE_FACTS } from "../../../test/helpers/facts.js";

const facts: Facts = {
  ...SAMPLE_FACTS,
  path: "/w/app@feat",
  handle: "app@feat",
  branch: "feat",
  task: "t-1",
  owner: "a1",
  base: { ref: "refs/heads/main", commit: "b".repeat(40), current: "b".repeat(40), drifted: false },
  lock: { locked: true, reason: "x", owner: { kind: "orchard" } },
};
const request: ExactRequest = { branch: "feat", task: "t-1", baseRef: null, owner: "a1", resume: false };
const codes = (f: Partial<Facts>, r: Partial<ExactRequest> = {}, strict = false) => {
  const v = assessExact({ ...facts, ...f }, { ...request, ...r }, { strict });
  return { reasons: v.reasons.map((x) => x.code), notes: v.notes.map((x) => x.code) };
};
const live = { state: "live" as const, signals: [{ code: "lease_live" as const, detail: "" }] };

describe("assessExact", () => {
  it("adopts a clean matching worktree", () => expect(codes({})).toEqual({ reasons: [], notes: [] }));
  it("collects every blocking reason, not the first", () => {
    expect(
      codes(
        {
          branch: "other",
          task: "t-2",
          liveness: live,
          dirty: { tracked: 1, untracked: 0, conflicted: 0, operation: "rebase", ignored: { count: 0, bytes: 0, sample: [] } },
          fingerprints: { bootstrap: null, context: null, runtime: null, drift: ["bootstrap_drift"] },
        },
        { owner: "a2", baseRef: "refs/heads/dev" },
      ).reasons,
    ).toEqual(["branch_mismatch", "task_mismatch", "base_mismatch", "bootstrap_drift", "live_owner", "operation_in_progress", "dirty"]);
  });
  it("the same owner's live lease does not block", () => expect(codes({ liveness: live }).reasons).toEqual([]));
  it("unknown liveness blocks", () => expect(codes({ liveness: { state: "unknown", signals: [] } }).reasons).toEqual(["liveness_unknown"]));
  it("--resume waives dirty for the same task only", () => {
    const dirty = { tracked: 0, untracked: 2, conflicted: 0, operation: null, ignored: { count: 0, bytes: 0, sample: [] } };
    expect(codes({ dirty }, { resume: true }).reasons).toEqual([]);
    expect(codes({ dirty }, { resume: true, task: "t-9" }).reasons).toEqual(["task_mismatch", "dirty"]);
    expect(codes({ dirty, liveness: live }, { resume: true, owner: "a2" }).reasons).toEqual(["live_owner", "dirty"]);
  });
  it("unpushed commits and base drift are notes, blocking only when strict (candidates)", () => {
    const f = { unpushed: 3, base: { ref: "refs/heads/main", commit: "b".repeat(40), current: "c".repeat(40), drifted: true } };
    expect(codes(f)).toEqual({ reasons: [], notes: ["unpushed_commits", "base_drift"] });
    expect(codes(f, {}, true)).toEqual({ reasons: ["unpushed_commits", "base_drift"], notes: [] });
    expect(codes({ unpushed: null }, {}, true).reasons).toEqual(["unpushed_commits"]);
  });
  it("a status that could not be read is not clean", () => expect(codes({ dirty: null }).reasons).toEqual(["dirty"]));
  it("a process inside blocks another owner, and anyone when the recorded lease names nobody, unless it is the requester's own chain", () => {
    const inside = (pids: number[]) => ({
      state: "live" as const,
      signals: [
        { code: "lease_expired" as const, detail: "" },
        { code: "process_in_worktree" as const, detail: "", pids },
      ],
    });
    expect(codes({ liveness: inside([42]) }, { owner: "a2" }).reasons).toEqual(["live_owner"]);
    expect(codes({ liveness: inside([42]) }).reasons).toEqual([]); // the recorded owner re-adding
    expect(codes({ liveness: inside([42]) }, { owner: "a2", ancestors: [42, 1000] }).reasons).toEqual([]); // only the requester's shell inside
    expect(codes({ liveness: inside([42, 7]) }, { owner: "a2", ancestors: [42] }).reasons).toEqual(["live_owner"]);
    // nobody named on either side: the requester's own shell must be inside for the others to be its own
    expect(codes({ owner: null, liveness: inside([7]) }, { owner: null }).reasons).toEqual(["live_owner"]);
    expect(codes({ owner: null, liveness: inside([42, 7]) }, { owner: null, ancestors: [42] }).reasons).toEqual([]);
  });
});
