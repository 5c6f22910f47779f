import { describe, expect, it } from "vitest";
import { crossHostGroups } from "./fleet-report.js";
import { summaryOf } from "./publish.js";
import type { HygieneWorktree } from "./types.js";
import type { WorktreeRow } from "../../registry/index.js";
import { SAMPLE_FACTS } from "../../../test/helpers/facts.js";

const now = Date.parse("2026-06-01T12:00:00Z");
const row = (id: number, host: string, handle: string, extra: Partial<WorktreeRow> = {}): WorktreeRow => ({
  id,
  repo: "r",
  handle,
  path: `/${host}/${handle}`,
  branch: handle,
  createdBranch: true,
  baseRef: null,
  baseCommit: null,
  task: "t-1",
  taskRaw: "T-1",
  owner: null,
  lastOwner: null,
  pid: null,
  pidStart: null,
  host,
  heartbeatAt: null,
  ttlMs: null,
  lifecycle: "active",
  outcome: null,
  fpBootstrap: null,
  fpContext: null,
  fpRuntime: null,
  recycledFrom: null,
  supersededBy: null,
  createdAt: "2026-06-01T10:00:00Z",
  updatedAt: "2026-06-01T10:00:00Z",
  releasedAt: null,
  lastActivityAt: "2026-06-01T10:00:00Z",
  ...extra,
});
const local = (path: string, disposition: HygieneWorktree["disposition"], live = false): HygieneWorktree => ({
  ...SAMPLE_FACTS,
  path,
  repo: "r",
  disposition,
  reasons: [],
  suggestion: { action: "keep", command: null },
  liveness: { state: live ? "live" : "none", signals: [] },
});
const lease = (heartbeatAt: string) => ({ owner: "o", heartbeatAt, ttlMs: 3_600_000 });

describe("crossHostGroups", () => {
  it("groups current rows of one task on any hosts; this host's from facts, another's from its heartbeat", () => {
    const rows = [
      row(1, "a", "app@x", lease("2026-06-01T11:30:00Z")),
      row(2, "b", "app@y", lease("2026-06-01T11:30:00Z")),
      row(3, "b", "app@z", lease("2026-06-01T09:00:00Z")),
    ];
    const [group] = crossHostGroups(rows, [local("/a/app@x", "reclaimable")], { host: "a", now });
    expect(group).toMatchObject({ repo: "r", task: "t-1", hosts: ["a", "b"], crossHost: true, live: 1 });
    expect(group?.members.map((m) => [m.host, m.handle, m.liveness.state, m.liveness.from, m.disposition])).toEqual([
      ["a", "app@x", "none", "facts", "reclaimable"], // the facts say nobody works there, whatever the heartbeat
      ["b", "app@y", "live", "heartbeat", null],
      ["b", "app@z", "dead", "heartbeat", null],
    ]);
    expect(group?.members[0]?.expiresAt).toBe("2026-06-01T12:30:00.000Z");
  });

  it("a task alone, rows without a task, and this host's missing directories make no group", () => {
    const rows = [row(1, "a", "app@x"), row(2, "b", "app@y", { task: "t-2" }), row(3, "b", "app@n", { task: null }), row(4, "a", "app@m", { task: "t-2" })];
    expect(crossHostGroups(rows, [local("/a/app@m", "missing")], { host: "a", now })).toEqual([]);
  });
});

describe("summaryOf", () => {
  it("counts the backlog apart from work nobody else has, and disk only when measured", () => {
    const worktrees = [local("/1", "reclaimable"), local("/2", "needs_salvage"), local("/3", "live", true), local("/4", "husk")];
    const context = { generatedAt: "g", duplicateTaskGroups: 1, preventableDuplicates: 2, diskMeasured: false };
    expect(summaryOf(worktrees, context)).toMatchObject({
      worktrees: 4,
      byDisposition: { reclaimable: 1, needs_salvage: 1, live: 1, husk: 1 },
      backlog: { count: 3, reclaimable: 2, needsAction: 1, bytes: null },
      disk: null,
      duplicateTaskGroups: 1,
      preventableDuplicates: 2,
    });
    const disk = (bytes: number) => ({ bytes: bytes * 2, allocatedBytes: bytes, uniqueBytes: bytes / 2, apparentBytes: bytes * 2, reflinks: "none" as const });
    const measured = worktrees.map((w, i) => ({ ...w, disk: disk((i + 1) * 100) }));
    expect(summaryOf(measured, { ...context, diskMeasured: true })).toMatchObject({
      backlog: { bytes: 50 + 100 + 200 },
      disk: { bytes: 2000, apparentBytes: 2000, allocatedBytes: 1000, measured: 4, unmeasured: 0 },
    });
  });
});
