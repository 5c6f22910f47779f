import { describe, expect, it } from "vitest";
import { assessCandidate, orderCandidates } from "./candidates.js";
import type { Candidate } from "../shared/request.js";
import { recycleOrder } from "./policy.js";
import type { WorktreeRow } from "../../registry/index.js";
import type { Facts } from "../shared/types.js";
import { SAMPLE_FACTS } from "../../../test/helpers/facts.js";

const candidate = (handle: string, kind: Candidate["kind"], eligible: boolean, lastActivity: string | null): Candidate => ({
  handle,
  path: `/w/${handle}`,
  branch: handle,
  kind,
  lifecycle: "active",
  eligible,
  reasons: [],
  lastActivity,
});

describe("orderCandidates", () => {
  it("eligible first, then same_task before patch_equivalent, then newest activity, then handle", () => {
    const list = [
      candidate("app@e", "same_task", false, "2026-01-05T00:00:00.000Z"),
      candidate("app@d", "patch_equivalent", true, "2026-01-09T00:00:00.000Z"),
      candidate("app@c", "same_task", true, "2026-01-01T00:00:00.000Z"),
      candidate("app@b", "same_task", true, "2026-01-02T00:00:00.000Z"),
      candidate("app@a", "same_task", true, "2026-01-02T00:00:00.000Z"),
      candidate("app@f", "same_task", true, null),
    ];
    expect(orderCandidates(list).map((c) => c.handle)).toEqual(["app@a", "app@b", "app@c", "app@f", "app@d", "app@e"]);
    expect(orderCandidates([...list].reverse()).map((c) => c.handle)).toEqual(["app@a", "app@b", "app@c", "app@f", "app@d", "app@e"]);
  });
});

describe("recycleOrder", () => {
  let id = 0;
  const row = (task: string | null, fp: string | null, releasedAt: string | null, lifecycle: WorktreeRow["lifecycle"] = "terminal"): WorktreeRow =>
    ({ id: ++id, handle: `app@${id}`, task, fpBootstrap: fp, releasedAt, lifecycle }) as WorktreeRow;

  it("same task first (any fingerprint), then equal fingerprints, each oldest release first; never active ones", () => {
    const sameNew = row("t-1", "other", "2026-01-03");
    const sameOld = row("t-1", null, "2026-01-01");
    const fpNew = row("t-2", "fp", "2026-01-04");
    const fpOld = row("t-3", "fp", "2026-01-02");
    const otherFp = row("t-4", "zz", "2026-01-01");
    const active = row("t-1", "fp", null, "active");
    const order = recycleOrder([sameNew, fpNew, active, otherFp, sameOld, fpOld], "t-1", "fp");
    expect(order.map((r) => r.id)).toEqual([sameOld.id, sameNew.id, fpOld.id, fpNew.id]);
    expect(recycleOrder([sameNew, fpOld], null, "fp").map((r) => r.id)).toEqual([fpOld.id]);
  });
});

describe("assessCandidate", () => {
  const fp = { bootstrap: "b", context: "c", runtime: "r", drift: [] };
  const drifted = { ref: "refs/heads/main", commit: "b".repeat(40), current: "c".repeat(40), drifted: true };
  const request: { branch: string; task: string; explicitBase: string | null; owner: string } = {
    branch: "feat",
    task: "t-1",
    explicitBase: null,
    owner: "me",
  };
  const codes = (lifecycle: WorktreeRow["lifecycle"], f: Partial<Facts>, r: Partial<typeof request> = {}): string[] => {
    const facts: Facts = { ...SAMPLE_FACTS, branch: "x", lifecycle, task: "t-1", fingerprints: fp, base: drifted, ...f };
    return assessCandidate(facts, { lifecycle, branch: "x" } as WorktreeRow, { ...request, ...r }).map((x) => x.code);
  };

  it("an active candidate whose base moved is not eligible: reusing it would continue on the old base", () => {
    expect(codes("active", {})).toEqual(["base_drift"]);
    expect(codes("active", { unpushed: 2 })).toEqual(["unpushed_commits", "base_drift"]);
  });
  it("a terminal one is only ever recycled, onto the new base: its old base does not matter", () => {
    expect(codes("terminal", {})).toEqual([]);
    expect(codes("terminal", { base: { ...drifted, ref: "refs/heads/dev" } }, { explicitBase: "refs/heads/main" })).toEqual([]);
  });
  it("a terminal one's unpushed commits do not block once merged (a local squash); unmerged they do", () => {
    const squashed = { target: "refs/heads/main", how: "merge_adds_nothing" as const };
    expect(codes("terminal", { unpushed: 2, merged: squashed })).toEqual([]);
    expect(codes("terminal", { unpushed: null, merged: squashed })).toEqual([]);
    expect(codes("terminal", { unpushed: 2, merged: { target: "refs/heads/main", how: null } })).toEqual(["unpushed_commits"]);
  });
  it("dirty, live or unknown still block a terminal one", () => {
    const dirty = { ...SAMPLE_FACTS.dirty!, untracked: 1 };
    expect(codes("terminal", { dirty })).toEqual(["dirty"]);
    expect(codes("terminal", { liveness: { state: "unknown", signals: [] } })).toEqual(["liveness_unknown"]);
  });
});
