// `orchard hygiene`: one disposition per worktree (one scenario each), groups, preventable
// duplicates, disk accounting and --all-repos, against real git repositories.
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { closeSync, ftruncateSync, linkSync, lstatSync, mkdirSync, openSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { spawnSync } from "node:child_process";
import { hermeticEnv } from "../helpers/env.js";
import { Scenario, git, deadPid, liveProcess, waitFor } from "../helpers/scenario.js";
import { pidState } from "../../src/core/ownership/process.js";

let s: Scenario;
beforeEach(() => {
  s = Scenario.create();
});
afterEach(() => s.cleanup());

type Row = {
  path: string;
  handle: string | null;
  disposition: string;
  reasons: { code: string }[];
  suggestion: { command: string | null };
  disk?: { bytes: number; allocatedBytes: number; uniqueBytes: number; apparentBytes: number } | null;
};
const hygiene = (...args: string[]) => {
  const r = s.orchard(["hygiene", ...args]);
  expect(r.code, r.stdout + r.stderr).toBe(0);
  return r.json;
};
const row = (report: { worktrees: Row[] }, key: string): Row => {
  const found = report.worktrees.find((w) => w.handle === key || w.path === key);
  if (!found) throw new Error(`${key} is not in the report: ${report.worktrees.map((w) => w.handle ?? w.path).join(", ")}`);
  return found;
};
/** idleAfter of 1ms: ownerless active worktrees count as unused at once (a fresh one is `idle` by default, §3.6). */
const noIdleGrace = () => writeFileSync(join(s.primary, ".orchard.json"), JSON.stringify({ idleAfter: "1ms" }));
const add = (...args: string[]) => {
  const r = s.orchard(["add", ...args]);
  expect(r.code, r.stdout + r.stderr).toBe(0);
  return r.json as { handle: string; path: string };
};

describe("one disposition per worktree", () => {
  it("live: a lease within its TTL", () => {
    const w = add("live-1", "--owner", "agent-a");
    expect(row(hygiene(), w.handle)).toMatchObject({ disposition: "live", reasons: [{ code: "live_owner" }], suggestion: { command: null } });
  });

  it("reclaimable: released, clean, merged", () => {
    const w = add("done-1", "--owner", "agent-a");
    s.orchard(["release", w.handle, "--owner", "agent-a"]);
    const r = row(hygiene(), w.handle);
    expect(r.disposition).toBe("reclaimable");
    expect(r.reasons.map((x) => x.code)).toEqual(["not_live", "clean", "work_preserved"]);
    expect(r.suggestion.command).toBe("orchard cleanup run");
  });

  it("reclaimable: pushed but not merged", () => {
    noIdleGrace();
    const w = add("pushed-1");
    s.commit({ in: w.path, file: "x.txt" });
    s.push("pushed-1", w.path);
    expect(row(hygiene(), w.handle)).toMatchObject({ disposition: "reclaimable", reasons: [{}, {}, { code: "work_preserved", via: "pushed" }] });
  });

  it("reapable: a managed lease whose pid died and whose TTL ran out, clean and merged", async () => {
    const p = liveProcess();
    const w = add("reap-1", "--owner", "agent-a", "--pid", String(p.pid), "--ttl", "1ms");
    p.stop();
    await waitFor(() => pidState(p.pid) === "dead", "the lease pid dying");
    expect(row(hygiene(), w.handle)).toMatchObject({ disposition: "reapable", reasons: [{ code: "dead_owner" }, { code: "clean" }, { code: "merged" }] });
  });

  it("reapable: a foreign Claude Code lock with a dead pid", () => {
    const path = s.worktree("worktree-agent-a1", { lock: `claude agent a1 (pid ${deadPid()})` });
    expect(row(hygiene(), path)).toMatchObject({ disposition: "reapable", suggestion: { command: "orchard reap-orphans" } });
  });

  it("needs_salvage: released with uncommitted work", () => {
    const w = add("wip-1", "--owner", "agent-a");
    s.makeDirty(w.path, { untracked: true, tracked: true });
    s.orchard(["release", w.handle, "--owner", "agent-a"]);
    expect(row(hygiene(), w.handle)).toMatchObject({
      disposition: "needs_salvage",
      reasons: [{ code: "terminal" }, { code: "dirty", tracked: 1, untracked: 1 }],
    });
  });

  it("needs_salvage: a dead owner left commits that are nowhere else", () => {
    const path = s.worktree("worktree-agent-a2");
    s.commit({ in: path, file: "only-here.txt" });
    s.lockAs(path, `claude agent a2 (pid ${deadPid()})`);
    expect(row(hygiene(), path)).toMatchObject({
      disposition: "needs_salvage",
      reasons: [{ code: "dead_owner" }, { code: "work_not_preserved", unpushed: 1 }],
    });
  });

  it("idle: active, nobody owns it, commits not preserved", () => {
    const w = add("idle-1");
    s.commit({ in: w.path, file: "draft.txt" });
    expect(row(hygiene(), w.handle)).toMatchObject({ disposition: "idle", reasons: [{ code: "active_unowned" }, { code: "work_not_preserved" }] });
  });

  it("missing: registered, directory gone", () => {
    const w = add("gone-1");
    rmSync(w.path, { recursive: true, force: true });
    expect(row(hygiene(), w.handle)).toMatchObject({ disposition: "missing", reasons: [{ code: "missing_directory", registeredWithGit: true }] });
  });

  it("husk: directories under the managed root that git does not list", () => {
    mkdirSync(join(s.home, "worktrees", "app@empty", "deep"), { recursive: true });
    mkdirSync(join(s.home, "worktrees", "app@files"), { recursive: true });
    writeFileSync(join(s.home, "worktrees", "app@files", "notes.txt"), "keep me\n");
    writeFileSync(join(s.home, "worktrees", "app@files", ".gitignore"), "*.log\n");
    writeFileSync(join(s.home, "worktrees", "app@files", "debug.log"), "ignored by the husk's own .gitignore\n");
    mkdirSync(join(s.home, "worktrees", "app@modules", "node_modules", "x"), { recursive: true });
    writeFileSync(join(s.home, "worktrees", "app@modules", "node_modules", "x", "index.js"), "//\n");
    writeFileSync(join(s.primary, ".git", "info", "exclude"), "node_modules/\n");
    mkdirSync(join(s.home, "worktrees", "nobody"), { recursive: true });
    writeFileSync(join(s.home, "worktrees", "nobody", "x"), "x");
    const r = hygiene();
    expect(row(r, join(s.home, "worktrees", "app@empty"))).toMatchObject({
      disposition: "husk",
      reasons: [{ code: "not_listed_by_git" }, { code: "husk_empty" }],
    });
    expect(row(r, join(s.home, "worktrees", "app@files"))).toMatchObject({ disposition: "husk", reasons: [{}, { code: "husk_has_files", files: 2 }] });
    expect(row(r, join(s.home, "worktrees", "app@modules"))).toMatchObject({ disposition: "husk", reasons: [{}, { code: "husk_only_ignored" }] });
    expect(row(r, join(s.home, "worktrees", "nobody"))).toMatchObject({ disposition: "husk", reasons: [{}, { code: "husk_unattributed" }] });
  });

  it("unknown: a lock nobody can read", () => {
    const path = s.worktree("worktree-agent-a3", { lock: "held by someone" });
    expect(row(hygiene(), path)).toMatchObject({
      disposition: "unknown",
      reasons: [{ code: "fact_unknown", fact: "liveness" }],
      suggestion: { command: `orchard status ${path}` },
    });
  });

  it("unknown without a remote: unpushed cannot be established, so unmerged work is never 'preserved'", () => {
    const local = Scenario.create({ noRemote: true });
    try {
      const wt = local.worktree("feature-x");
      local.commit({ in: wt, file: "y.txt" });
      const at = () => row(local.orchard(["hygiene"]).json, wt);
      expect(at()).toMatchObject({ disposition: "unknown", reasons: [{ code: "fact_unknown", fact: "unpushed" }, { code: "clean" }] });
      local.makeDirty(wt);
      expect(at().disposition).toBe("idle"); // dirty, unlocked, nobody's: the owner decides
      local.lockAs(wt, `claude agent x (pid ${deadPid()})`);
      expect(at().disposition).toBe("needs_salvage");
      rmSync(join(wt, "untracked-work.txt"));
      git(wt, "reset", "-q", "--hard", "main");
      expect(at().disposition).toBe("reapable"); // merged (same commit) needs no remote
    } finally {
      local.cleanup();
    }
  });

  it("every worktree is counted once", () => {
    add("a-1", "--owner", "x");
    add("a-2");
    const gone = add("a-3");
    rmSync(gone.path, { recursive: true, force: true });
    mkdirSync(join(s.home, "worktrees", "app@husk"), { recursive: true });
    s.worktree("worktree-agent-f");
    const r = hygiene();
    const total = Object.values(r.summary.byDisposition as Record<string, number>).reduce((a, b) => a + b, 0);
    expect(total).toBe(r.worktrees.length);
    expect(r.summary.worktrees).toBe(5);
    expect(new Set(r.worktrees.map((w: Row) => w.path)).size).toBe(5);
    expect(r.cleanupBacklog.count).toBe(
      r.worktrees.filter((w: Row) => ["reclaimable", "reapable", "needs_salvage", "missing", "husk"].includes(w.disposition)).length,
    );
  });
});

describe("groups", () => {
  it("duplicate tasks (canonical: the live one) and preventable duplicates through the real CLI", () => {
    noIdleGrace();
    const a = add("task-a", "--task", "T-1");
    const b = add("task-b", "--task", "T-1", "--owner", "agent-b");
    add("task-c", "--task", "T-2");
    const r = hygiene();
    expect(r.duplicateTaskGroups).toEqual([
      { repo: expect.any(String), task: "t-1", handles: [a.handle, b.handle].sort(), canonical: b.handle, others: [a.handle], conflict: false },
    ]);
    expect(r.preventableDuplicates.count).toBe(1);
    expect(r.preventableDuplicates.recent[0]).toMatchObject({ handle: b.handle, data: { candidates: [a.handle] } });
    expect(r.cleanupBacklog.count).toBe(2); // task-a and task-c are reclaimable; the event is not backlog
  });

  it("patch-equivalent groups: same cumulative patch (with a rename), only worktrees with their own commits", () => {
    const one = s.worktree("p-one");
    const two = s.worktree("p-two");
    const other = s.worktree("p-other");
    s.worktree("p-none"); // no commits of its own
    for (const wt of [one, two]) {
      git(wt, "mv", "src/file1.txt", "src/renamed.txt");
      writeFileSync(join(wt, "feature.txt"), "the same feature\n");
      git(wt, "add", "-A");
      git(wt, "commit", "-q", "-m", `feature in ${wt}`);
    }
    s.commit({ in: other, file: "different.txt" });
    const r = hygiene();
    expect(r.patchEquivalentGroups).toHaveLength(1);
    const [group] = r.patchEquivalentGroups;
    expect(group.paths).toEqual([one, two].sort());
    // the same id as the spec's `git diff <merge-base> HEAD | git patch-id --stable`
    const diff = git(one, "diff", "main", "HEAD") + "\n";
    const patchId = spawnSync("git", ["patch-id", "--stable"], { input: diff, encoding: "utf8", cwd: s.primary, env: hermeticEnv() });
    expect(group.patchId).toBe(patchId.stdout.split(" ")[0]);
  });
});

describe("disk", () => {
  it("bytes per worktree, hard links counted once, the backlog's reclaimable bytes", () => {
    noIdleGrace();
    const a = add("disk-a");
    const b = add("disk-b", "--owner", "keeper");
    for (const w of [a, b]) mkdirSync(join(w.path, "node_modules"));
    writeFileSync(join(a.path, "node_modules", "big.bin"), Buffer.alloc(300_000, 1)); // disposable: not dirty, still on disk
    linkSync(join(a.path, "node_modules", "big.bin"), join(b.path, "node_modules", "big.bin")); // the same inode in both
    writeFileSync(join(a.path, "node_modules", "own.bin"), Buffer.alloc(100_000, 2));
    const r = hygiene("--disk");
    const ra = row(r, a.handle);
    const rb = row(r, b.handle);
    expect(ra.disposition).toBe("reclaimable");
    expect(ra.disk?.bytes).toBeGreaterThan(400_000);
    const sharedBlocks = lstatSync(join(a.path, "node_modules", "big.bin")).blocks * 512; // allocated, as du counts
    expect((ra.disk?.allocatedBytes ?? 0) - (ra.disk?.uniqueBytes ?? 0)).toBe(sharedBlocks); // shared with b: not freed by removing a
    expect(rb.disk?.bytes).toBeGreaterThan(300_000);
    expect(r.summary.disk.bytes).toBeLessThan((ra.disk?.bytes ?? 0) + (rb.disk?.bytes ?? 0)); // the shared inode once
    expect(r.summary.disk.complete).toBe(true);
    expect(r.cleanupBacklog.bytes).toBe(ra.disk?.uniqueBytes);
    expect(r.cleanupBacklog.byDisposition.reclaimable).toEqual({ count: 1, bytes: ra.disk?.uniqueBytes });
  });

  it("bytes are apparent, allocated blocks like du beside (a sparse file and many small files)", () => {
    noIdleGrace();
    const w = add("disk-du");
    mkdirSync(join(w.path, "node_modules", "small"), { recursive: true });
    for (let i = 0; i < 40; i++) writeFileSync(join(w.path, "node_modules", "small", `f${i}`), "x"); // 1 byte, one block each
    const sparse = join(w.path, "node_modules", "sparse.img");
    const fd = openSync(sparse, "w");
    ftruncateSync(fd, 50_000_000); // 50 MB apparent, (almost) nothing allocated
    closeSync(fd);
    const r = hygiene("--disk");
    const rw = row(r, w.handle);
    // du -s in the test: every inode under the worktree and its admin dir once, st_blocks × 512
    const admin = resolve(
      w.path,
      readFileSync(join(w.path, ".git"), "utf8")
        .replace(/^gitdir: /, "")
        .trim(),
    );
    const du = { allocated: 0, apparent: 0 };
    const seen = new Set<string>();
    const walk = (p: string): void => {
      const st = lstatSync(p);
      if (seen.has(`${st.dev}:${st.ino}`)) return;
      seen.add(`${st.dev}:${st.ino}`);
      du.allocated += st.blocks * 512;
      du.apparent += st.size;
      if (st.isDirectory()) for (const n of readdirSync(p)) walk(join(p, n));
    };
    walk(w.path);
    walk(admin);
    expect(du.allocated).not.toBe(du.apparent);
    expect(rw.disk).toEqual({ bytes: du.apparent, allocatedBytes: du.allocated, uniqueBytes: du.allocated, apparentBytes: du.apparent, reflinks: "none" });
    expect(rw.disk?.bytes).toBeGreaterThan(50_000_000);
    expect(rw.disk?.allocatedBytes).toBeLessThan(50_000_000);
    expect(r.summary.disk.apparentBytes).toBeGreaterThanOrEqual(du.apparent);
    const human = s.orchard(["hygiene", "--disk"], { json: false }).stdout;
    expect(human).toMatch(/^disk: 1 worktrees: .* apparent, .* on disk, .* reclaimable now$/m);
  });

  it("a budget that runs out leaves the rest unmeasured, with a note", () => {
    add("budget-a");
    add("budget-b");
    const r = hygiene("--disk", "--disk-budget", "0s");
    expect(r.worktrees.every((w: Row) => w.disk === null)).toBe(true);
    expect(r.notes).toContainEqual(expect.objectContaining({ code: "disk_budget_exceeded", unmeasured: 2 }));
    expect(r.cleanupBacklog.bytes).toBe(0);
    expect(hygiene().worktrees[0].disk).toBeUndefined(); // not asked: absent
  });

  it("rejects a bad budget", () => {
    expect(s.orchard(["hygiene", "--disk", "--disk-budget", "soon"]).code).toBe(2);
  });
});

describe("--all-repos", () => {
  it("reports every repo of the registry once", () => {
    const other = Scenario.create();
    try {
      add("mine");
      const theirs = s.orchard(["add", "theirs", "--repo", other.primary]);
      expect(theirs.code).toBe(0);
      const single = hygiene();
      expect(single.repos).toHaveLength(1);
      expect(single.worktrees.map((w: Row) => w.handle)).toEqual(["app@mine"]);
      const all = hygiene("--all-repos");
      expect(all.repos).toHaveLength(2);
      expect(theirs.json.handle).toMatch(/^app-[0-9a-f]{6}@theirs$/);
      expect(all.worktrees.map((w: Row) => w.handle).sort()).toEqual(["app@mine", theirs.json.handle].sort());
      expect(all.worktrees.find((w: Row) => w.handle === theirs.json.handle).suggestion.command).toContain(`--repo ${other.primary}`);
    } finally {
      other.cleanup();
    }
  });

  it("two primaries with one identity: the other clone's worktree is reported, never judged", () => {
    const clone = Scenario.create();
    try {
      git(clone.primary, "remote", "set-url", "origin", s.origin); // a second clone of the same origin: the same repo
      const theirs = s.orchard(["add", "theirs", "--repo", clone.primary]);
      expect(theirs.code).toBe(0);
      const r = hygiene();
      expect(row(r, theirs.json.handle)).toMatchObject({ disposition: "unknown", reasons: [{ code: "duplicate_primary", primary: clone.primary }] });
      expect(r.notes).toContainEqual(expect.objectContaining({ code: "duplicate_primary", primaries: [s.primary, clone.primary] }));
    } finally {
      clone.cleanup();
    }
  });
});
