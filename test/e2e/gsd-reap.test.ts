// GSD's reaper (PR 3707, on GSD's main) and orchard-worktrees/gsd's, side by side on locked
// orphans built in real git: dead, live, reused and EPERM pids; merged, squash-merged and unmerged
// branches; uncommitted and unique ignored work; a fresh lock; a lock text that names no pid; a
// directory that is gone. GSD's own tests reach these cases by injecting fakes (isPidAlive,
// execGit); here every pid is a real process and every merge a real merge. Same answer where GSD
// keeps the work; Orchard's answer, and why, where they differ (the table of docs/gsd.md).
import { spawnSync } from "node:child_process";
import { existsSync, rmSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { makeProcessEnvHermetic } from "../helpers/env.js";
import { deadPid, liveProcess, type Scenario } from "../helpers/scenario.js";
import { PROCESS_TIMEOUT_MS } from "../helpers/time.js";
import {
  ADAPTER,
  addWork,
  agentWorktree,
  checkDocsTable,
  giveTo,
  gsdMain,
  lockOld,
  relative,
  twins,
  workKept,
  type Merged,
  type Row,
  type Work,
} from "../helpers/gsd.js";
import { adapter } from "../helpers/gsd.js";

type Outcome = { status: "reaped" | "skipped"; reason: string };
type Pids = { dead: number; live: number };

interface Case {
  branch: string;
  scenario: string;
  merged: Merged;
  lock: (pids: Pids) => string;
  work?: Work;
  fresh?: boolean;
  gone?: boolean;
  /** GSD's result, as its reaper decides it (checked against the real module with GSD_MAIN_LIB), and whether its removal took the work. */
  gsd: Outcome & { lost?: true };
  /** Orchard's, when it differs, and why. */
  orchard?: Outcome & { why: string };
}

const reaped = (reason = "pid_dead_and_merged"): Outcome => ({ status: "reaped", reason });
const skipped = (reason: string): Outcome => ({ status: "skipped", reason });
const claudeLock = (pid: number, start: string) => `claude agent agent-${pid} (pid ${pid} start ${start})`;

const CASES: Case[] = [
  { branch: "dead-merged", scenario: "dead pid, merged, clean", merged: "merge", lock: (p) => String(p.dead), gsd: reaped() },
  { branch: "live-merged", scenario: "live pid, merged", merged: "merge", lock: (p) => String(p.live), gsd: skipped("pid_alive") },
  { branch: "reused-digits", scenario: "reused pid (a lock of digits only), merged", merged: "merge", lock: (p) => String(p.live), gsd: skipped("pid_alive") },
  {
    branch: "reused-claude",
    scenario: "reused pid (Claude Code's lock: pid and start time), merged, clean",
    merged: "merge",
    lock: (p) => claudeLock(p.live, "1"),
    gsd: skipped("lock_owner_unknown"),
    orchard: { ...reaped(), why: "the start time in Claude Code's lock differs from the running process's: that pid was reused, its owner is gone" },
  },
  {
    branch: "dead-claude",
    scenario: "dead pid in Claude Code's lock, merged, clean",
    merged: "merge",
    lock: (p) => claudeLock(p.dead, "1"),
    gsd: skipped("lock_owner_unknown"),
    orchard: { ...reaped(), why: "Orchard reads Claude Code's lock text (`claude agent … (pid N start T)`); GSD reads only a lock of digits" },
  },
  { branch: "dead-squash", scenario: "dead pid, squash-merged", merged: "squash", lock: (p) => String(p.dead), gsd: skipped("branch_not_merged") },
  { branch: "dead-unmerged", scenario: "dead pid, unmerged", merged: "none", lock: (p) => String(p.dead), gsd: skipped("branch_not_merged") },
  {
    branch: "dead-untracked",
    scenario: "dead pid, merged, an untracked file",
    merged: "merge",
    lock: (p) => String(p.dead),
    work: "untracked",
    gsd: { ...reaped(), lost: true },
    orchard: { ...skipped("worktree_dirty"), why: "GSD removes with `--force` without reading the checkout: the file exists nowhere else" },
  },
  {
    branch: "dead-tracked",
    scenario: "dead pid, merged, a changed tracked file",
    merged: "merge",
    lock: (p) => String(p.dead),
    work: "tracked",
    gsd: { ...reaped(), lost: true },
    orchard: { ...skipped("worktree_dirty"), why: "the same: an uncommitted change is work (`--salvage` saves it to a ref, then reaps)" },
  },
  {
    branch: "dead-ignored",
    scenario: "dead pid, merged, unique ignored `.planning/`",
    merged: "merge",
    lock: (p) => String(p.dead),
    work: "ignored",
    gsd: { ...reaped(), lost: true },
    orchard: { ...skipped("ignored_files"), why: "an ignored file that exists nowhere else (GSD's own `.planning/`) is work" },
  },
  {
    branch: "fresh",
    scenario: "dead pid, merged, lock younger than 5 minutes",
    merged: "merge",
    lock: (p) => String(p.dead),
    fresh: true,
    gsd: skipped("lock_too_fresh"),
  },
  { branch: "no-pid", scenario: "a lock text that names no pid", merged: "merge", lock: () => "agent busy", gsd: skipped("lock_owner_unknown") },
  {
    branch: "dead-gone",
    scenario: "dead pid, merged, directory gone",
    merged: "merge",
    lock: (p) => String(p.dead),
    gone: true,
    gsd: reaped(),
    orchard: { ...reaped("pid_dead_and_missing"), why: "the same removal, with the reason that says the directory was already gone" },
  },
];

function build(s: Scenario, pids: Pids): Map<string, string> {
  const paths = new Map<string, string>();
  for (const c of CASES) {
    const path = agentWorktree(s, c.branch, c.merged);
    if (c.work) addWork(s, path, c.work);
    s.lockAs(path, c.lock(pids));
    if (!c.fresh) s.ageLock(path, 3600);
    if (c.gone) rmSync(path, { recursive: true, force: true });
    paths.set(c.branch, path);
  }
  return paths;
}

const describeOutcome = (o: Outcome & { lost?: true }, work?: Work): string =>
  `${o.status} (\`${o.reason}\`)${o.status === "reaped" && work ? (o.lost ? ", the work is gone" : "") : o.status === "skipped" && work ? ", kept" : ""}`;

let live: ReturnType<typeof liveProcess>;
let pair: ReturnType<typeof twins<Map<string, string>>>;
let gsdResult: (Outcome & { path: string })[];
let orchardResult: (Outcome & { path: string; branch?: string })[];
const reapWith = (m: typeof adapter, repo: string) => (m.reapOrphanWorktrees as (repo: string) => (Outcome & { path: string; branch?: string })[])(repo);

beforeAll(() => {
  makeProcessEnvHermetic(); // GSD's module and the adapter's worker run git with this process's environment
  live = liveProcess();
  const pids = { dead: deadPid(), live: live.pid };
  pair = twins((s) => build(s, pids));
  gsdResult = gsdMain ? reapWith(gsdMain, pair.gsd.s.primary) : [];
  (adapter.configure as (o: { home: string }) => void)({ home: pair.orchard.s.home });
  orchardResult = reapWith(adapter, pair.orchard.s.primary);
});

afterAll(() => {
  live?.stop();
  pair?.gsd.s.cleanup();
  pair?.orchard.s.cleanup();
});

describe("reapOrphanWorktrees: GSD's reaper and Orchard's on the same locked orphans", () => {
  it.runIf(gsdMain !== null)("GSD main's real reaper returns what the contract here says, and loses exactly the work it says", () => {
    for (const c of CASES) {
      const path = pair.gsd.built.get(c.branch) as string;
      const entry = gsdResult.find((e) => e.path === path);
      expect(entry && { status: entry.status, reason: entry.reason }, c.scenario).toEqual({ status: c.gsd.status, reason: c.gsd.reason });
      if (c.work) expect(workKept(path, c.work), c.scenario).toBe(!c.gsd.lost);
    }
  });

  it("Orchard answers in GSD's shape: GSD's answer where GSD keeps the work, the safer one where it would not", () => {
    for (const c of CASES) {
      const path = pair.orchard.built.get(c.branch) as string;
      const entry = orchardResult.find((e) => e.path === path);
      const want = c.orchard ?? c.gsd;
      expect(entry && { status: entry.status, reason: entry.reason }, c.scenario).toEqual({ status: want.status, reason: want.reason });
      expect(entry?.branch, c.scenario).toBe(c.branch); // a field GSD has no room for, added
      if (c.work) expect(workKept(path, c.work), `${c.scenario}: the work is kept`).toBe(true);
      if (want.status === "reaped") expect(existsSync(path), `${c.scenario}: reaped`).toBe(false);
    }
    expect(orchardResult).toHaveLength(CASES.length);
    expect(
      relative(
        pair.orchard.s,
        orchardResult.map((e) => Object.keys(e).slice(0, 3)),
      ),
    ).toEqual(CASES.map(() => ["path", "status", "reason"]));
  });

  it("the differences table of docs/gsd.md is this run's", () => {
    const rows: Row[] = CASES.map((c) => ({
      scenario: c.scenario,
      gsd: describeOutcome(c.gsd, c.work),
      orchard: c.orchard ? describeOutcome(c.orchard, c.work) : "the same",
      why: c.orchard?.why ?? "",
    }));
    const { expected, actual } = checkDocsTable("reap", rows);
    expect(actual).toBe(expected);
  });
});

describe("EPERM: the lock's pid is a live process of another user", () => {
  // kill(pid, 0) answers EPERM only to a caller that may not signal the process: as root, the
  // reaper runs as another user (65534) over a scenario given to that user; otherwise pid 1 is root's.
  const root = process.getuid?.() === 0;

  it("both keep it as pid_alive", () => {
    const holder = root ? liveProcess() : null;
    const pid = holder?.pid ?? 1;
    const pair2 = twins((s) => {
      const path = agentWorktree(s, "eperm", "merge");
      lockOld(s, path, String(pid));
      return path;
    });
    try {
      const run = (module: string, s: Scenario, fn: string) => {
        if (root) giveTo(s, 65534);
        const source = `const m = require(${JSON.stringify(module)}); if (m.configure) m.configure({ home: ${JSON.stringify(s.home)} });
          process.stdout.write(JSON.stringify(m[${JSON.stringify(fn)}](${JSON.stringify(s.primary)})));`;
        const r = spawnSync(process.execPath, ["-e", source], {
          env: { ...process.env, HOME: s.root, TMPDIR: s.root, GIT_CONFIG_GLOBAL: "/dev/null" },
          encoding: "utf8",
          timeout: PROCESS_TIMEOUT_MS,
          ...(root ? { uid: 65534, gid: 65534 } : {}),
        });
        expect(r.stderr).toBe("");
        return JSON.parse(r.stdout) as Outcome[];
      };
      const want = [{ status: "skipped", reason: "pid_alive" }];
      if (gsdMain)
        expect(
          run(`${process.env.GSD_MAIN_LIB}/worktree-safety.cjs`, pair2.gsd.s, "reapOrphanWorktrees").map(({ status, reason }) => ({ status, reason })),
        ).toEqual(want);
      expect(run(ADAPTER, pair2.orchard.s, "reapOrphanWorktrees").map(({ status, reason }) => ({ status, reason }))).toEqual(want);
      expect(existsSync(pair2.orchard.built)).toBe(true);
    } finally {
      holder?.stop();
      pair2.gsd.s.cleanup();
      pair2.orchard.s.cleanup();
    }
  });
});
