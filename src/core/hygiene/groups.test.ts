import { describe, expect, it } from "vitest";
import { cleanupBacklog, duplicateTaskGroups, patchEquivalentGroups, summarize } from "./groups.js";
import type { Disposition } from "./types.js";

type M = {
  repo: string | null;
  handle: string | null;
  task: string | null;
  managed: boolean;
  disposition: Disposition;
  lastActivity: string | null;
  path: string;
};
const m = (handle: string, disposition: Disposition, lastActivity: string, extra: Partial<M> = {}): M => ({
  repo: "r",
  handle,
  task: "t-1",
  managed: true,
  disposition,
  lastActivity,
  path: `/w/${handle}`,
  ...extra,
});

describe("duplicateTaskGroups", () => {
  it.each<[string, M[], string]>([
    ["live wins", [m("a", "reclaimable", "2026-03"), m("b", "live", "2026-01"), m("c", "needs_salvage", "2026-02")], "b"],
    ["then unpreserved work", [m("a", "reclaimable", "2026-03"), m("c", "needs_salvage", "2026-01"), m("d", "idle", "2026-02")], "d"],
    ["then newest activity", [m("a", "reclaimable", "2026-01"), m("b", "reapable", "2026-03")], "b"],
    ["ties by handle", [m("b", "reclaimable", "2026-01"), m("a", "reclaimable", "2026-01")], "a"],
  ])("%s", (_l, members, canonical) => {
    const [group] = duplicateTaskGroups(members);
    expect(group?.canonical).toBe(canonical);
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
    expect(duplicateTaskGroups([...members, m("h", "idle", "1")])).toEqual([{ repo: "r", task: "t-1", handles: ["a", "h"], canonical: "a", others: ["h"] }]);
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
    { disposition: "reclaimable" as const, managed: true, disk: { bytes: 10, uniqueBytes: 8 } },
    { disposition: "reclaimable" as const, managed: false, disk: { bytes: 5, uniqueBytes: 5 } },
    { disposition: "husk" as const, managed: false, disk: null },
    { disposition: "live" as const, managed: true, disk: { bytes: 100, uniqueBytes: 100 } },
    { disposition: "unknown" as const, managed: true, disk: { bytes: 1, uniqueBytes: 1 } },
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
