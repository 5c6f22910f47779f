// Where a branch is checked out, for `orchard cleanup-wave` and `orchard merge`: before a branch is
// deleted, git's own listing, read once for the batch (src/core/shared/repo/checkouts.ts
// readBranchHolders), and for each detached worktree the rebase or bisect in progress there (git's
// `branch -d` refuses those too; its listing does not show them). These scenarios prove it still
// blocks — a branch checked out in the primary is never deleted, a branch a rebase in another
// worktree works on is neither merged nor deleted, nor deleted after its own worktree's merge.
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { Scenario, git, gitResult } from "../helpers/scenario.js";

let s: Scenario;
let base: string;
beforeEach(() => {
  s = Scenario.create();
  base = git(s.primary, "rev-parse", "main");
});
afterEach(() => s.cleanup());

/** An executor branch with one commit, whose worktree the harness already removed. */
function removedAgent(n: number): { agent_id: string; worktree_path: string; branch: string; expected_base: string } {
  const branch = `worktree-agent-${n}`;
  const path = s.worktree(branch);
  s.commit({ in: path, file: `agent-${n}.txt`, content: `agent ${n}\n` });
  git(s.primary, "worktree", "remove", path);
  return { agent_id: `agent-${n}`, worktree_path: path, branch, expected_base: base };
}

function wave(entries: unknown[], args: string[] = []) {
  const file = join(s.root, "wave.json");
  writeFileSync(file, JSON.stringify(entries));
  return s.orchard(["cleanup-wave", "--manifest", file, ...args]);
}

const entries = (r: { json: { result: { entries: { status: string; reason: string; stderr?: string }[] } } }) => r.json.result.entries;
const branchExists = (b: string) => gitResult(s.primary, "rev-parse", "--verify", "--quiet", `refs/heads/${b}`).code === 0;

describe("where a branch is checked out, read per entry", () => {
  it("a branch checked out in the primary is merged into --into but never deleted: branch_delete_failed", () => {
    const target = s.worktree("integration");
    const a = removedAgent(1);
    git(s.primary, "switch", "-q", a.branch);
    const r = wave([a], ["--into", target]);
    expect(
      entries(r).map((e) => `${e.status}:${e.reason}`),
      r.stdout,
    ).toEqual(["warning:branch_delete_failed"]);
    expect(entries(r)[0]?.stderr).toContain(s.primary);
    expect(git(target, "log", "-1", "--format=%s")).toBe(`chore: merge executor worktree (${a.branch})`);
    expect(branchExists(a.branch)).toBe(true);
    expect(git(s.primary, "symbolic-ref", "HEAD")).toBe(`refs/heads/${a.branch}`);
  });

  it("a branch a rebase in another worktree works on (HEAD detached) is not merged: branch_checked_out", () => {
    const a = removedAgent(1);
    // another worktree rebases the branch onto a commit that conflicts with it: the rebase stops, HEAD detached
    const other = s.worktree("other");
    s.commit({ in: other, file: "agent-1.txt", content: "not the agent's\n" });
    const stopped = gitResult(other, "rebase", "other", a.branch);
    expect(stopped.code).not.toBe(0);
    expect(gitResult(other, "symbolic-ref", "-q", "HEAD").code).not.toBe(0);
    const r = wave([a]);
    expect(r.code).toBe(3);
    expect(entries(r).map((e) => `${e.status}:${e.reason}`)).toEqual(["blocked:branch_checked_out"]);
    expect(entries(r)[0]?.stderr).toContain(other);
    expect(git(s.primary, "rev-parse", "main")).toBe(base);
    expect(branchExists(a.branch)).toBe(true);
  });

  it("merge of a managed worktree whose branch a rebase in another (detached) worktree works on: merged and removed, the branch kept", () => {
    const w = s.orchard(["add", "feat-r", "--no-bootstrap"]).json as { handle: string; path: string };
    s.commit({ in: w.path, file: "feat-r.txt" });
    expect(s.orchard(["release", w.handle]).code).toBe(0);
    // what git leaves in a worktree whose rebase of feat-r stopped (its HEAD detached): `branch -d feat-r` refuses
    const other = s.worktree("other");
    git(other, "switch", "-q", "--detach");
    mkdirSync(join(s.adminDir(other), "rebase-merge"));
    writeFileSync(join(s.adminDir(other), "rebase-merge", "head-name"), "refs/heads/feat-r\n");
    const r = s.orchard(["merge", w.handle]);
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(r.json).toMatchObject({ ok: true, action: "branch_kept" });
    expect(r.json.reasons[0]).toMatchObject({ code: "branch_delete_failed" });
    expect(r.json.reasons[0].message).toContain(other);
    expect(branchExists("feat-r")).toBe(true);
    expect(gitResult(s.primary, "merge-base", "--is-ancestor", "feat-r", "main").code).toBe(0);
  });
});
