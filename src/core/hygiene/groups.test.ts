import { describe, expect, it } from "vitest";
import { cleanupBacklog, duplicateTaskGroups, patchEquivalentGroups, summarize, type GroupMember } from "./groups.js";
import type { Disposition } from "./types.js";

type M = GroupMember;
type Work = "preserved" | "dirty" | "unpushed" | "unknown";
const m = (handle: string, disposition: Disposition, createdAt: string, extra: Partial<M> & { work?: Work; live?: boolean } = {}): M => {
  const { work = "preserved", live = disposition === "live", ...rest } = extra;
  return {
    repo: "r",
    handle,
    task: "t-1",
    managed: true,
    disposition,
    createdAt,
    path: `/w/${handle}`,
    liveness: { state: live ? "live" : "none", signals: [] },
    dirty:
      work === "unknown"
        ? null
        : { tracked: work === "dirty" ? 1 : 0, untracked: 0, conflicted: 0, operation: null, ignored: { count: 0, bytes: 0, sample: [] } },
    unpushed: work === "unpushed" ? 2 : 0,
    merged: { target: "refs/heads/main", how: null },
    ...rest,
  };
};

describe("duplicateTaskGroups: the canonical member holds the most work", () => {
  const ahead = new Map([
    ["/w/old", 3],
    ["/w/new", 0],
  ]);
  it.each<[string, M[], string, boolean]>([
    ["unpreserved work beats live", [m("a", "live", "2026-01"), m("b", "needs_salvage", "2026-02", { work: "unpushed" })], "b", false],
    ["dirty beats live", [m("a", "live", "2026-01"), m("b", "live", "2026-02", { work: "dirty" })], "b", false],
    ["then live", [m("a", "reclaimable", "2026-01"), m("b", "live", "2026-03")], "b", false],
    ["then most commits ahead: pushed work beats an empty newest worktree", [m("new", "live", "2026-03"), m("old", "live", "2026-01")], "old", false],
    ["then oldest createdAt", [m("a", "reclaimable", "2026-03"), m("b", "reapable", "2026-01")], "b", false],
    ["ties by handle", [m("b", "reclaimable", "2026-01"), m("a", "reclaimable", "2026-01")], "a", false],
    [
      "two members with unpreserved work: conflict",
      [m("a", "idle", "2026-01", { work: "unpushed" }), m("b", "needs_salvage", "2026-02", { work: "dirty" }), m("c", "live", "2026-03")],
      "a",
      true,
    ],
    ["unknown facts count as work", [m("a", "unknown", "2026-02", { work: "unknown" }), m("b", "reclaimable", "2026-01")], "a", false],
  ])("%s", (_l, members, canonical, conflict) => {
    const [group] = duplicateTaskGroups(members, ahead);
    expect(group?.canonical).toBe(canonical);
    expect(group?.conflict).toBe(conflict);
    expect(group?.handles).toEqual(members.map((x) => x.handle).sort());
    expect(group?.others).toEqual(group?.handles.filter((h) => h !== canonical));
  });

  it("ignores single tasks, foreign, missing, husks, other repos and untasked worktrees", () => {
    const members = [
      m("a", "live", "1"),
      m("b", "missing", "1"),
      m("c", "husk", "1"),
      m("d", "reclaimable", "1", { managed: false }),
      m("e", "reclaimable", "1", { repo: "other" }),
      m("f", "reclaimable", "1", { task: null }),
      m("g", "reclaimable", "1", { task: "t-2" }),
    ];
    expect(duplicateTaskGroups(members)).toEqual([]);
    expect(duplicateTaskGroups([...members, m("h", "idle", "1")])).toEqual([
      { repo: "r", task: "t-1", handles: ["a", "h"], canonical: "a", others: ["h"], conflict: false },
    ]);
  });
});

describe("patchEquivalentGroups", () => {
  it("groups equal patch-ids per repo, foreign worktrees by path", () => {
    const groups = patchEquivalentGroups([
      { repo: "r", path: "/w/b", handle: "app@b", patchId: "p1" },
      { repo: "r", path: "/f/x", handle: null, patchId: "p1" },
      { repo: "r", path: "/w/c", handle: "app@c", patchId: "p2" },
      { repo: "s", path: "/w/d", handle: "s@d", patchId: "p2" },
    ]);
    expect(groups).toEqual([{ repo: "r", patchId: "p1", handles: ["/f/x", "app@b"], paths: ["/f/x", "/w/b"] }]);
  });
});

describe("counts are per worktree, never doubled", () => {
  const ws = [
    {
      disposition: "reclaimable" as const,
      managed: true,
      disk: { bytes: 10, allocatedBytes: 10, uniqueBytes: 8, apparentBytes: 10, reflinks: "none" as const },
    },
    { disposition: "reclaimable" as const, managed: false, disk: { bytes: 5, allocatedBytes: 5, uniqueBytes: 5, apparentBytes: 5, reflinks: "none" as const } },
    { disposition: "husk" as const, managed: false, disk: null },
    { disposition: "live" as const, managed: true, disk: { bytes: 100, allocatedBytes: 100, uniqueBytes: 100, apparentBytes: 100, reflinks: "none" as const } },
    { disposition: "unknown" as const, managed: true, disk: { bytes: 1, allocatedBytes: 1, uniqueBytes: 1, apparentBytes: 1, reflinks: "none" as const } },
  ];
  it("summary", () => {
    const s = summarize(ws);
    expect(s).toMatchObject({ worktrees: 5, managed: 3, foreign: 1 });
    expect(Object.values(s.byDisposition).reduce((a, b) => a + b, 0)).toBe(5);
  });
  it("backlog", () => {
    expect(cleanupBacklog(ws, 13)).toEqual({ count: 3, bytes: 13, byDisposition: { reclaimable: { count: 2, bytes: 13 }, husk: { count: 1, bytes: null } } });
    expect(
      cleanupBacklog(
        ws.map(({ disk: _d, ...w }) => w),
        null,
      ),
    ).toEqual({ count: 3, bytes: null, byDisposition: { reclaimable: { count: 2, bytes: null }, husk: { count: 1, bytes: null } } });
  });
});
