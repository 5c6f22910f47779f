// GSD 1.42.3's wave clean-up and metadata prune (the published module, run for real) and
// orchard-worktrees/gsd's, side by side on twin scenarios in real git: a clean wave, a conflict, a
// rerun after a blocked entry, a locked worktree, a process inside, dirty and unique ignored work;
// and the prune of registered worktrees whose directory is gone. Same answer where GSD keeps the
// work; where they differ, what each did, and why (the tables of docs/gsd.md).
import { existsSync, rmSync, unlinkSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { makeProcessEnvHermetic } from "../helpers/env.js";
import { git, liveProcess, type Scenario } from "../helpers/scenario.js";
import {
  addWork,
  adapter,
  agentWorktree,
  branchExists,
  checkDocsTable,
  gsd,
  gsdCore,
  listed,
  midMerge,
  relative,
  twins,
  workKept,
  type Row,
  type Work,
} from "../helpers/gsd.js";

type Result = any;

interface Entry {
  branch: string;
  path: string;
  work?: Work;
}
interface Built {
  entries: Entry[];
  manifest: { agent_id: string; worktree_path: string; branch: string; expected_base: string }[];
  stop?: () => void;
}

interface WaveCase {
  scenario: string;
  build: (s: Scenario) => Built;
  /** Between the first run and a second one of the same plan (a rerun); absent: one run. */
  between?: (s: Scenario, built: Built) => void;
  /** What GSD did, when it differs, and what Orchard did instead, and why. */
  differs?: { gsd: string; orchard: string; why: string };
  /** Checks of Orchard's result and state where it differs. */
  orchard?: (r: Result, s: Scenario, built: Built) => void;
  gsd?: (r: Result, s: Scenario, built: Built) => void;
}

function wave(s: Scenario, specs: { name: string; work?: Work; conflict?: boolean; lock?: string; inside?: boolean }[]): Built {
  const base = s.git("rev-parse", "main");
  const built: Built = { entries: [], manifest: [] };
  for (const spec of specs) {
    const branch = `worktree-agent-${spec.name}`;
    const path = agentWorktree(s, branch, "none");
    if (spec.conflict) {
      s.commit({ in: path, file: "README.md", content: "# the agent's\n" });
      s.commit({ file: "README.md", content: "# main's\n" });
    }
    if (spec.work) addWork(s, path, spec.work);
    if (spec.lock) s.lockAs(path, spec.lock);
    if (spec.inside) built.stop = liveProcess(path).stop;
    built.entries.push({ branch, path, ...(spec.work ? { work: spec.work } : {}) });
    built.manifest.push({ agent_id: spec.name, worktree_path: path, branch, expected_base: base });
  }
  return built;
}

/** GSD's fields of a wave result (Orchard adds its own beside them). */
const gsdFields = (r: Result) => ({
  ok: r.ok,
  action: r.action,
  reason: r.reason,
  entries: r.entries.map((e: Result) => ({
    agent_id: e.agent_id,
    worktree_path: e.worktree_path,
    branch: e.branch,
    expected_base: e.expected_base,
    status: e.status,
    reason: e.reason,
  })),
  pending: r.pending,
});
const statuses = (r: Result) => r.entries.map((e: Result) => `${e.status} \`${e.reason}\``).join(", ");

const CASES: WaveCase[] = [
  { scenario: "a clean wave of two branches", build: (s) => wave(s, [{ name: "a" }, { name: "b" }]) },
  { scenario: "an entry with an untracked file", build: (s) => wave(s, [{ name: "a", work: "untracked" }]) },
  {
    scenario: "an entry whose merge conflicts with the target",
    build: (s) => wave(s, [{ name: "a", conflict: true }]),
    differs: {
      gsd: "blocked `merge_failed`; the primary is left in the middle of the merge, conflict markers in its files",
      orchard: "blocked `merge_conflict` before any merge (`git merge-tree`), with the conflicting paths; the primary untouched",
      why: "a failed merge is never left half done in the checkout GSD's user works in",
    },
    gsd: (r, s) => expect([r.entries[0].reason, midMerge(s)]).toEqual(["merge_failed", true]),
    orchard: (r, s) =>
      expect([r.entries[0].reason, r.entries[0].conflicts, midMerge(s), s.git("status", "--porcelain")]).toEqual(["merge_conflict", ["README.md"], false, ""]),
  },
  {
    scenario: "a rerun after an entry was blocked (its untracked file since moved away)",
    build: (s) => wave(s, [{ name: "a" }, { name: "b", work: "untracked" }]),
    between: (_s, built) => unlinkSync(join(built.entries[1]!.path, "untracked-work.txt")),
    differs: {
      gsd: "blocked `branch_mismatch` on the entry the first run finished; the rest stays pending",
      orchard: "merged_removed `already_done`, then merged_removed `ok`",
      why: "a rerun of the same manifest finishes the job: a finished entry is proven done (its merge is in the target's history)",
    },
    gsd: (r) => expect(statuses(r)).toBe("blocked `branch_mismatch`"),
    orchard: (r, s, built) => {
      expect(statuses(r)).toBe("merged_removed `already_done`, merged_removed `ok`");
      expect(listed(s)).toEqual(["<root>/app"]);
      expect(built.entries.map((e) => branchExists(s, e.branch))).toEqual([false, false]);
    },
  },
  {
    scenario: "a locked worktree (an agent's lock, no process inside)",
    build: (s) => wave(s, [{ name: "a", lock: "claude agent agent-a (pid 1 start 1)" }]),
    differs: {
      gsd: "blocked `worktree_remove_failed` after merging: the worktree and branch stay",
      orchard: "merged_removed `ok`",
      why: "clean and merged, it is removed in one step (`--force --force`) with the lock: no unlock-then-remove window (GSD's main retries with `worktree unlock`)",
    },
    gsd: (r, s) => expect([statuses(r), listed(s).length]).toEqual(["blocked `worktree_remove_failed`", 2]),
    orchard: (r, s) => expect([statuses(r), listed(s).length]).toEqual(["merged_removed `ok`", 1]),
  },
  {
    scenario: "a process working inside the worktree",
    build: (s) => wave(s, [{ name: "a", inside: true }]),
    differs: {
      gsd: "merged_removed `ok`: the directory is deleted under the running process",
      orchard: "blocked `live_process` before the merge",
      why: "a process inside means an agent still works there (`allowLive` in Orchard's own wave waives it)",
    },
    gsd: (r, _s, built) => expect([statuses(r), existsSync(built.entries[0]!.path)]).toEqual(["merged_removed `ok`", false]),
    orchard: (r, s) => expect([statuses(r), listed(s).length]).toEqual(["blocked `live_process`", 2]),
  },
  {
    scenario: "an entry with unique ignored `.planning/`",
    build: (s) => wave(s, [{ name: "a", work: "ignored" }]),
    differs: {
      gsd: "merged_removed `ok`: `.planning/` is deleted with the worktree",
      orchard: "blocked `ignored_files`, kept",
      why: "`git status` does not show ignored files; Orchard reads them, and an ignored file that exists nowhere else is work",
    },
    gsd: (r, _s, built) => expect([statuses(r), workKept(built.entries[0]!.path, "ignored")]).toEqual(["merged_removed `ok`", false]),
    orchard: (r, _s, built) => expect([statuses(r), workKept(built.entries[0]!.path, "ignored")]).toEqual(["blocked `ignored_files`", true]),
  },
];

type Run = { s: Scenario; built: Built; result: Result };
const runs = new Map<string, { gsd: Run; orchard: Run }>();

function runWave(module: Record<string, (...a: any[]) => any>, s: Scenario, built: Built, rerun: WaveCase["between"]): Result {
  const plan = module.planWorktreeWaveCleanup!(s.primary, JSON.stringify(built.manifest));
  let result = module.executeWorktreeWaveCleanupPlan!(plan);
  if (rerun) {
    rerun(s, built);
    result = module.executeWorktreeWaveCleanupPlan!(plan);
  }
  return result;
}

beforeAll(() => {
  makeProcessEnvHermetic();
  for (const c of CASES) {
    const pair = twins(c.build);
    const gsdRun = { ...pair.gsd, result: runWave(gsd, pair.gsd.s, pair.gsd.built, c.between) };
    adapter.configure!({ home: pair.orchard.s.home });
    const orchardRun = { ...pair.orchard, result: runWave(adapter, pair.orchard.s, pair.orchard.built, c.between) };
    pair.gsd.built.stop?.();
    pair.orchard.built.stop?.();
    runs.set(c.scenario, { gsd: gsdRun, orchard: orchardRun });
  }
});

afterAll(() => {
  for (const { gsd: a, orchard: b } of runs.values()) {
    a.s.cleanup();
    b.s.cleanup();
  }
});

describe("executeWorktreeWaveCleanupPlan: GSD 1.42.3 and Orchard on the same waves", () => {
  for (const c of CASES)
    it(c.scenario, () => {
      const { gsd: a, orchard: b } = runs.get(c.scenario)!;
      if (!c.differs) {
        expect(relative(b.s, gsdFields(b.result))).toEqual(relative(a.s, gsdFields(a.result)));
        expect(listed(b.s)).toEqual(listed(a.s));
        expect(b.built.entries.map((e) => branchExists(b.s, e.branch))).toEqual(a.built.entries.map((e) => branchExists(a.s, e.branch)));
        for (const e of b.built.entries) if (e.work) expect(workKept(e.path, e.work)).toBe(true);
        expect(b.result.entries.every((e: Result) => typeof e.stderr === "string")).toBe(true);
        return;
      }
      c.gsd?.(a.result, a.s, a.built);
      c.orchard?.(b.result, b.s, b.built);
      expect(Object.keys(gsdFields(b.result))).toEqual(Object.keys(gsdFields(a.result))); // GSD's shape either way
    });

  it("the differences table of docs/gsd.md is this run's", () => {
    const rows: Row[] = CASES.map((c) => {
      const same = statuses(runs.get(c.scenario)!.gsd.result);
      return c.differs
        ? { scenario: c.scenario, gsd: c.differs.gsd, orchard: c.differs.orchard, why: c.differs.why }
        : { scenario: c.scenario, gsd: same, orchard: "the same", why: "" };
    });
    const { expected, actual } = checkDocsTable("wave", rows);
    expect(actual).toBe(expected);
  });
});

describe("the prune of registered worktrees whose directory is gone", () => {
  const build = (s: Scenario) => {
    const unlocked = s.worktree("gone-unlocked");
    const locked = s.worktree("gone-locked", { lock: "on a disk not mounted" });
    rmSync(unlocked, { recursive: true, force: true });
    rmSync(locked, { recursive: true, force: true });
    return { unlocked, locked };
  };

  it("planWorktreePrune + executeWorktreePrunePlan: the same entries go; Orchard lists what it pruned and what it kept", () => {
    const pair = twins(build);
    try {
      const a = gsd.executeWorktreePrunePlan!(gsd.planWorktreePrune!(pair.gsd.s.primary));
      adapter.configure!({ home: pair.orchard.s.home });
      const plan = adapter.planWorktreePrune!(pair.orchard.s.primary);
      expect(relative(pair.orchard.s, plan.missing)).toEqual(["<root>/foreign/gone-unlocked"]); // git calls a locked entry not prunable
      const b = adapter.executeWorktreePrunePlan!(plan);
      expect({ ...b, pruned: [], skipped: undefined }).toEqual({ ...a, skipped: undefined });
      expect(relative(pair.orchard.s, b.pruned)).toEqual(["<root>/foreign/gone-unlocked"]);
      expect(
        relative(
          pair.orchard.s,
          b.skipped.map((k: Result) => k.path),
        ),
      ).toEqual(["<root>/foreign/gone-locked"]);
      expect(listed(pair.orchard.s)).toEqual(listed(pair.gsd.s));
      expect(listed(pair.orchard.s)).toEqual(["<root>/app", "<root>/foreign/gone-locked"]);
    } finally {
      pair.gsd.s.cleanup();
      pair.orchard.s.cleanup();
    }
  });

  it("pruneOrphanedWorktrees (GSD's core.cjs): the same entries go; Orchard returns their paths (GSD's is always [])", () => {
    const pair = twins(build);
    try {
      expect(gsdCore.pruneOrphanedWorktrees!(pair.gsd.s.primary)).toEqual([]);
      adapter.configure!({ home: pair.orchard.s.home });
      expect(relative(pair.orchard.s, adapter.pruneOrphanedWorktrees!(pair.orchard.s.primary))).toEqual(["<root>/foreign/gone-unlocked"]);
      expect(listed(pair.orchard.s)).toEqual(listed(pair.gsd.s));
      expect(git(pair.orchard.s.primary, "branch", "--list", "gone-unlocked")).not.toBe(""); // a prune drops the entry, never the branch
    } finally {
      pair.gsd.s.cleanup();
      pair.orchard.s.cleanup();
    }
  });
});
