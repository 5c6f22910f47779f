// A patch-id that ignores whitespace never allows a deletion (SPEC v5 §4). git's patch-ids (cherry,
// `--cherry-mark`, `patch-id --stable`) drop every space, so a main commit that differs from the
// agent's only in indentation — another Python program — made the agent's salvage ref "preserved"
// and its branch "merged". A salvage is preserved only by reach (same commit, ancestor, a merge that
// adds nothing); a branch's patch-equivalence sees whitespace (`patch-id --verbatim`).
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { existsSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { Scenario, git, gitResult, deadPid, type CliResult } from "../helpers/scenario.js";

let s: Scenario;
beforeEach(() => {
  s = Scenario.create();
  s.commit({ file: "app.py", content: "def total(xs):\n    s = 0\n    for x in xs:\n        s += x\n    return s\n" });
  s.git("push", "-q", "origin", "main");
});
afterEach(() => s.cleanup());

function ok(r: CliResult, code = 0): CliResult {
  expect(r.code, r.stdout + r.stderr).toBe(code);
  return r;
}

/** The agent's program: the return inside the loop (a bug fix or a bug: either way its own). */
const AGENT = "def total(xs):\n    s = 0\n    for x in xs:\n        s += x\n        return s\n";
/** main's change of the same line: the same characters, other indentation. */
const MAIN_REINDENTED = "def total(xs):\n    s = 0\n    for x in xs:\n        s += x\n      return s\n";

const refExists = (ref: string): boolean => gitResult(s.primary, "rev-parse", "--verify", "--quiet", ref).code === 0;
const branchExists = (b: string): boolean => refExists(`refs/heads/${b}`);

/** main takes a commit whose patch equals `agentCommit`'s but for whitespace; git's own cherry calls them equivalent. */
function mainReindents(agentCommit?: string): void {
  const main = s.commit({ file: "app.py", content: MAIN_REINDENTED, message: "main: reindent" });
  s.git("push", "-q", "origin", "main");
  if (agentCommit) expect(git(s.primary, "cherry", main, agentCommit)).toMatch(/^- /);
}

describe("whitespace is work", () => {
  it("salvage prune keeps a salvage whose change main has only with other indentation", () => {
    const w = ok(s.orchard(["add", "wip-py", "--no-bootstrap"])).json as { handle: string; path: string };
    writeFileSync(join(w.path, "app.py"), AGENT);
    const ref = ok(s.orchard(["remove", w.handle, "--salvage"])).json.salvageRef as string;
    mainReindents(ref);
    const dry = ok(s.orchard(["salvage", "prune", "--dry-run"])).json;
    expect(dry.pruned).toEqual([]);
    expect(dry.kept).toMatchObject([{ ref, reasons: [{ code: "work_not_preserved" }] }]);
    ok(s.orchard(["salvage", "prune"]));
    expect(refExists(ref)).toBe(true);
  });

  it("remove and cleanup run keep the branch (and its worktree); status does not call it merged", () => {
    const w = ok(s.orchard(["add", "feat-py", "--owner", "agent-1", "--no-bootstrap"])).json as { handle: string; path: string };
    const tip = s.commit({ in: w.path, file: "app.py", content: AGENT, message: "agent: return inside the loop" });
    ok(s.orchard(["release", w.handle, "--owner", "agent-1"]));
    mainReindents(tip);
    const r = ok(s.orchard(["remove", w.handle]), 3);
    expect(r.json.ok).toBe(false);
    expect(branchExists("feat-py")).toBe(true);
    s.orchard(["cleanup", "run", "--include", "reclaimable,idle"]);
    expect(branchExists("feat-py")).toBe(true);
    expect(existsSync(w.path)).toBe(true);
    const status = ok(s.orchard(["status", w.handle])).json.worktree;
    expect(status.merged?.how ?? null).toBeNull();
  });

  it("cleanup-wave merges (a conflict here), never deletes the branch as already merged", () => {
    const base = git(s.primary, "rev-parse", "main");
    const path = s.worktree("worktree-agent-py");
    const tip = s.commit({ in: path, file: "app.py", content: AGENT });
    mainReindents(tip);
    const manifest = join(s.root, "wave.json");
    writeFileSync(manifest, JSON.stringify([{ agent_id: "a", worktree_path: path, branch: "worktree-agent-py", expected_base: base }]));
    const r = s.orchard(["cleanup-wave", "--manifest", manifest]);
    expect(r.json.result.entries[0].status, r.stdout).not.toBe("merged_removed");
    expect(branchExists("worktree-agent-py")).toBe(true);
    expect(git(s.primary, "rev-parse", "worktree-agent-py")).toBe(tip);
  });

  it("reap-orphans (--merged equivalent too) skips a dead agent's worktree whose only commit main has with other indentation", () => {
    const path = s.worktree("worktree-agent-reap", { lock: `claude agent agent-reap (pid ${deadPid()})` });
    const tip = s.commit({ in: path, file: "app.py", content: AGENT });
    s.ageLock(path, 600);
    mainReindents(tip);
    for (const args of [["reap-orphans"], ["reap-orphans", "--merged", "equivalent"]]) {
      const r = ok(s.orchard(args));
      expect(r.json.entries.find((e: { path: string }) => e.path === path)).toMatchObject({ status: "skipped" });
      expect(existsSync(path)).toBe(true);
    }
  });
});
