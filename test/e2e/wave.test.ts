// `orchard cleanup-wave` (SPEC §3.9): merge a wave back and clean it, rerunnable, never losing work.
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { existsSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { Scenario, git, gitResult, deadPid } from "../helpers/scenario.js";

let s: Scenario;
let base: string;
beforeEach(() => {
  s = Scenario.create();
  base = git(s.primary, "rev-parse", "main");
});
afterEach(() => s.cleanup());

interface Agent {
  agent_id: string;
  worktree_path: string;
  branch: string;
  expected_base: string;
}

/** An executor worktree with one commit of its own (optionally locked the way Claude Code locks). */
function agent(n: number, options: { lock?: boolean; file?: string; content?: string } = {}): Agent {
  const branch = `worktree-agent-${n}`;
  const path = s.worktree(branch, options.lock ? { lock: `claude agent agent-${n} (pid ${deadPid()})` } : {});
  s.commit({ in: path, file: options.file ?? `agent-${n}.txt`, content: options.content ?? `agent ${n}\n` });
  return { agent_id: `agent-${n}`, worktree_path: path, branch, expected_base: base };
}

function manifest(entries: unknown, name = "wave.json"): string {
  const file = join(s.root, name);
  writeFileSync(file, typeof entries === "string" ? entries : JSON.stringify(entries));
  return file;
}

function wave(entries: unknown, args: string[] = []) {
  return s.orchard(["cleanup-wave", "--manifest", manifest(entries), ...args]);
}

const statuses = (r: { json: { result: { entries: { status: string; reason: string }[] } } }) => r.json.result.entries.map((e) => `${e.status}:${e.reason}`);
const branchExists = (b: string) => gitResult(s.primary, "rev-parse", "--verify", "--quiet", `refs/heads/${b}`).code === 0;
const noMergeInProgress = () => expect(existsSync(join(s.primary, ".git", "MERGE_HEAD"))).toBe(false);

describe("a clean wave", () => {
  it("merges locked and unlocked entries in order, removes them, deletes the branches; a rerun is a no-op", () => {
    const a = agent(1, { lock: true });
    const b = agent(2);
    const r = wave([a, b]);
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(r.json).toMatchObject({
      ok: true,
      plan: { action: "cleanup_wave", discovery: "manifest", invalid: [] },
      result: { ok: true, action: "cleanup_wave", reason: "ok", pending: [] },
    });
    expect(r.json.result.entries[0]).toEqual({
      agent_id: "agent-1",
      worktree_path: a.worktree_path,
      branch: a.branch,
      expected_base: base,
      status: "merged_removed",
      reason: "ok",
    });
    expect(statuses(r)).toEqual(["merged_removed:ok", "merged_removed:ok"]);
    expect(git(s.primary, "log", "--format=%s", "-2", "main").split("\n")).toEqual([
      "chore: merge executor worktree (worktree-agent-2)",
      "chore: merge executor worktree (worktree-agent-1)",
    ]);
    expect(readFileSync(join(s.primary, "agent-1.txt"), "utf8")).toBe("agent 1\n");
    for (const x of [a, b]) {
      expect(existsSync(x.worktree_path)).toBe(false);
      expect(branchExists(x.branch)).toBe(false);
    }
    const again = wave([a, b]);
    expect(again.code).toBe(0);
    expect(statuses(again)).toEqual(["merged_removed:already_done", "merged_removed:already_done"]);
  });

  it("accepts {worktrees:[...]}, the path alias, paths relative to the primary, and expected_base as any commit-ish", () => {
    const path = s.worktree("worktree-agent-1", { path: join(s.primary, ".claude", "worktrees", "agent-1") });
    s.commit({ in: path, file: "agent-1.txt" });
    git(s.primary, "tag", "wave-base", base);
    const r = wave({ worktrees: [{ path: ".claude/worktrees/agent-1", branch: "worktree-agent-1", expected_base: "wave-base", extra: "ignored" }] });
    expect(r.code, r.stdout).toBe(0);
    expect(r.json.result.entries[0]).toMatchObject({ agent_id: null, worktree_path: path, status: "merged_removed", reason: "ok", expected_base: "wave-base" });
    expect(r.json.plan.entries[0].expected_base_sha).toBe(base);
    expect(existsSync(path)).toBe(false);
  });

  it("a worktree the harness already removed is merged from its branch", () => {
    const a = agent(1);
    git(s.primary, "worktree", "remove", a.worktree_path);
    const r = wave([a]);
    expect(r.code).toBe(0);
    expect(statuses(r)).toEqual(["merged_removed:ok"]);
    expect(git(s.primary, "log", "-1", "--format=%s")).toBe("chore: merge executor worktree (worktree-agent-1)");
    expect(branchExists(a.branch)).toBe(false);
  });

  it("a worktree directory deleted without git (still registered) is merged and its registration removed", () => {
    const a = agent(1, { lock: true });
    rmSync(a.worktree_path, { recursive: true, force: true });
    const r = wave([a]);
    expect(r.code, r.stdout).toBe(0);
    expect(statuses(r)).toEqual(["merged_removed:ok"]);
    expect(git(s.primary, "worktree", "list", "--porcelain")).not.toContain(a.worktree_path);
  });

  it("a branch git lists at another path than the manifest's is not merged: branch_checked_out", () => {
    const a = agent(1);
    git(s.primary, "worktree", "remove", a.worktree_path);
    const elsewhere = join(s.root, "elsewhere");
    git(s.primary, "worktree", "add", "-q", elsewhere, a.branch);
    const r = wave([a]);
    expect(r.code).toBe(3);
    expect(statuses(r)).toEqual(["blocked:branch_checked_out"]);
    expect(r.json.result.entries[0].stderr).toContain(elsewhere);
    expect(git(s.primary, "rev-parse", "main")).toBe(base);
    expect(branchExists(a.branch)).toBe(true);
  });

  it("a managed entry's row becomes removed with a `removed` event", () => {
    const add = s.orchard(["add", "worktree-agent-7", "--no-bootstrap"]);
    s.commit({ in: add.json.path, file: "seven.txt" });
    const r = wave([{ worktree_path: add.json.path, branch: "worktree-agent-7", expected_base: base }]);
    expect(r.code, r.stdout).toBe(0);
    expect(s.orchard(["status", add.json.handle]).code).toBe(2);
  });

  it("merges into --into <worktree>", () => {
    const target = s.worktree("integration");
    const a = agent(1);
    const r = wave([a], ["--into", target]);
    expect(r.code, r.stdout).toBe(0);
    expect(git(target, "log", "-1", "--format=%s")).toBe("chore: merge executor worktree (worktree-agent-1)");
    expect(git(s.primary, "rev-parse", "main")).toBe(base);
  });
});

describe("blocked entries stop the wave and leave everything as it was", () => {
  it("worktree_dirty blocks; the rest are pending; the untracked file survives", () => {
    const a = agent(1);
    const b = agent(2);
    s.makeDirty(a.worktree_path, { untracked: true });
    const r = wave([a, b]);
    expect(r.code).toBe(3);
    expect(r.json.ok).toBe(false);
    expect(r.json.result).toMatchObject({ ok: false, reason: "cleanup_blocked" });
    expect(statuses(r)).toEqual(["blocked:worktree_dirty"]);
    expect(r.json.result.pending).toEqual([b]);
    expect(readFileSync(join(a.worktree_path, "untracked-work.txt"), "utf8")).toBe("precious\n");
    expect(git(s.primary, "rev-parse", "main")).toBe(base);
  });

  it("merge_conflict touches nothing; after the conflict is resolved by hand a rerun finishes the wave", () => {
    const a = agent(1, { file: "README.md", content: "# from agent 1\n" });
    const b = agent(2, { file: "README.md", content: "# from agent 2\n", lock: true });
    const c = agent(3);
    const r = wave([a, b, c]);
    expect(r.code).toBe(3);
    expect(statuses(r)).toEqual(["merged_removed:ok", "blocked:merge_conflict"]);
    expect(r.json.result.entries[1]).toMatchObject({ conflicts: ["README.md"], stderr: "conflicts in README.md" });
    expect(r.json.result.entries[1].stderr).not.toMatch(/[0-9a-f]{40}|100644|CONFLICT/);
    expect(r.json.result.pending.map((p: Agent) => p.branch)).toEqual([c.branch]);
    noMergeInProgress();
    expect(git(s.primary, "status", "--porcelain")).toBe("");
    expect(existsSync(b.worktree_path)).toBe(true);

    expect(gitResult(s.primary, "merge", "--no-edit", b.branch).code).not.toBe(0);
    writeFileSync(join(s.primary, "README.md"), "# both\n");
    git(s.primary, "add", "README.md");
    git(s.primary, "commit", "-q", "--no-edit");

    const again = wave([a, b, c]);
    expect(again.code, again.stdout).toBe(0);
    expect(statuses(again)).toEqual(["merged_removed:already_done", "merged_removed:already_merged", "merged_removed:ok"]);
    expect(existsSync(b.worktree_path)).toBe(false);
    expect(readFileSync(join(s.primary, "README.md"), "utf8")).toBe("# both\n");
  });

  it("--continue-on-block isolates a blocked entry", () => {
    const a = agent(1, { file: "README.md", content: "# 1\n" });
    const b = agent(2, { file: "README.md", content: "# 2\n" });
    const c = agent(3);
    const r = wave([a, b, c], ["--continue-on-block"]);
    expect(r.code).toBe(3);
    expect(statuses(r)).toEqual(["merged_removed:ok", "blocked:merge_conflict", "merged_removed:ok"]);
    expect(r.json.result.pending).toEqual([]);
  });

  it("branch_contains_deletions unless --allow-deletions (or wave.allowDeletions)", () => {
    const a = agent(1);
    git(a.worktree_path, "rm", "-q", "src/file0.txt");
    git(a.worktree_path, "commit", "-q", "-m", "delete");
    const r = wave([a]);
    expect(r.code).toBe(3);
    expect(statuses(r)).toEqual(["blocked:branch_contains_deletions"]);
    expect(r.json.result.entries[0].stderr).toContain("src/file0.txt");
    writeFileSync(join(s.primary, ".orchard.json"), JSON.stringify({ wave: { allowDeletions: true } }));
    git(s.primary, "add", ".orchard.json");
    git(s.primary, "commit", "-q", "-m", "config");
    const ok = wave([a]);
    expect(ok.code, ok.stdout).toBe(0);
    expect(existsSync(join(s.primary, "src", "file0.txt"))).toBe(false);
  });

  it("base_mismatch and branch_mismatch", () => {
    const a = { ...agent(1), expected_base: git(s.primary, "rev-parse", "HEAD~0") };
    s.commit({ file: "main-moves.txt" });
    const wrongBase = { ...a, expected_base: git(s.primary, "rev-parse", "main") };
    expect(statuses(wave([wrongBase]))).toEqual(["blocked:base_mismatch"]);
    const b = agent(2);
    git(b.worktree_path, "switch", "-q", "-c", "worktree-agent-2b");
    expect(statuses(wave([b]))).toEqual(["blocked:branch_mismatch"]);
  });

  it("merge_failed is aborted: no MERGE_HEAD, target unchanged", () => {
    const a = agent(1, { file: "collide.txt", content: "from agent\n" });
    writeFileSync(join(s.primary, "collide.txt"), "untracked in the target\n");
    const r = wave([a]);
    expect(r.code).toBe(3);
    expect(statuses(r)).toEqual(["blocked:merge_failed"]);
    expect(r.json.result.entries[0].stderr).toMatch(/untracked/);
    noMergeInProgress();
    expect(git(s.primary, "rev-parse", "main")).toBe(base);
    expect(readFileSync(join(s.primary, "collide.txt"), "utf8")).toBe("untracked in the target\n");
  });
});

describe("refused before any entry", () => {
  it("a dirty target", () => {
    const a = agent(1);
    writeFileSync(join(s.primary, "README.md"), "# local edit\n");
    const r = wave([a]);
    expect(r.code).toBe(3);
    expect(r.json).toMatchObject({ ok: false, plan: { action: "skip", reason: "target_dirty" }, result: { ok: false, entries: [], pending: [a] } });
    expect(r.json.reasons.map((x: { code: string }) => x.code)).toEqual(["target_dirty"]);
    expect(existsSync(a.worktree_path)).toBe(true);
  });

  it("a detached target", () => {
    const a = agent(1);
    git(s.primary, "switch", "-q", "--detach");
    const r = wave([a]);
    expect(r.code).toBe(3);
    expect(r.json.plan.reason).toBe("target_detached");
    expect(existsSync(a.worktree_path)).toBe(true);
  });
});

describe("invalid manifests (exit 2, nothing done)", () => {
  it("an entry outside the branch allowlist refuses the whole manifest", () => {
    const a = agent(1);
    const other = s.worktree("feature-x");
    const r = wave([a, { worktree_path: other, branch: "feature-x", expected_base: base }, { branch: "worktree-agent-9" }]);
    expect(r.code).toBe(2);
    expect(r.json.ok).toBe(false);
    expect(r.json.error.code).toBe("invalid_manifest");
    expect(r.json.plan.action).toBe("skip");
    expect(r.json.plan.invalid.map((i: { index: number; reason: string }) => `${i.index}:${i.reason}`)).toEqual([
      "1:branch_not_allowed",
      "2:missing_worktree_path",
      "2:missing_expected_base",
    ]);
    expect(existsSync(a.worktree_path)).toBe(true);
    expect(git(s.primary, "rev-parse", "main")).toBe(base);
  });

  it("wave.branchPattern replaces the default allowlist", () => {
    writeFileSync(join(s.primary, ".orchard.json"), JSON.stringify({ wave: { branchPattern: "^agent/" } }));
    git(s.primary, "add", ".orchard.json");
    git(s.primary, "commit", "-q", "-m", "config");
    base = git(s.primary, "rev-parse", "main");
    const a = agent(1);
    expect(wave([a]).json.plan.invalid[0].reason).toBe("branch_not_allowed");
  });

  it("malformed JSON, a wrong shape, or a missing file", () => {
    for (const text of ["[{ not json", '{"worktrees": 3}', "42"]) {
      const r = wave(text);
      expect(r.code).toBe(2);
      expect(r.json.error.code).toBe("invalid_manifest");
    }
    const missing = s.orchard(["cleanup-wave", "--manifest", join(s.root, "nope.json")]);
    expect(missing.code).toBe(2);
    rmSync(join(s.root, "wave.json"));
  });

  it("an unresolvable expected_base and a duplicate entry", () => {
    const a = agent(1);
    const r = wave([{ ...a, expected_base: "no-such-commit" }, a]);
    expect(r.code).toBe(2);
    expect(r.json.plan.invalid.map((i: { reason: string }) => i.reason)).toEqual(["expected_base_unresolvable", "duplicate_entry", "duplicate_entry"]);
  });
});

describe("the cost of an entry (issue 25)", () => {
  const calls = (stderr: string, ...args: string[]) =>
    stderr.split("\n").filter((l) => l.startsWith(`[orchard trace] git ${JSON.stringify(args).slice(0, -1)}`)).length;

  it("reads each distinct expected_base once, the batch's refs in one for-each-ref, and proves nothing twice (issue 41: once per batch)", () => {
    const entries = [1, 2, 3, 4].map((n) => agent(n));
    const r = s.orchard(["cleanup-wave", "--manifest", manifest(entries)], { env: { ORCHARD_TRACE: "1" } });
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(statuses(r)).toEqual(Array(4).fill("merged_removed:ok"));
    const trace = r.stderr;
    expect(calls(trace, "rev-parse", "--verify")).toBe(1); // the shared base, not one per entry
    // the batch's facts: every entry's branch and the target in one for-each-ref, ancestry and merge bases
    // from one rev-list, cherry's verdict from one patch-id pass, the deletions from one diff-tree --stdin
    expect(calls(trace, "for-each-ref", "--format=%(objecttype) %(objectname) %(tree) %(refname)")).toBe(1);
    expect(calls(trace, "merge-base", "--is-ancestor")).toBe(0); // the merge base answers it
    expect(calls(trace, "merge-base", "--end-of-options")).toBe(0); // the batch's graph answers it
    expect(calls(trace, "rev-list", "--cherry-mark", "--no-merges", "--right-only")).toBe(0); // no head proven alone
    expect(calls(trace, "diff", "--name-only")).toBe(0);
    expect(calls(trace, "diff-tree", "--stdin", "--always")).toBe(1);
    expect(calls(trace, "merge-tree")).toBe(4); // the proof and the conflict pre-check are one merge-tree, against the target as it is then
    // (entries 2–4 against a stand-in for the target: its tree on the proven merge base, so git walks no history for the base)
    expect(calls(trace, "commit-tree", "--no-gpg-sign")).toBe(3); // the three stand-ins, never signed
    expect(calls(trace, "commit-tree", "-F")).toBe(4); // each merge commit, signed as commit.gpgSign says (as git merge would)
    expect(calls(trace, "merge", "--no-ff")).toBe(0); // no merge in progress is ever left: the commit is made, then the target fast-forwards
    expect(calls(trace, "merge", "--ff-only")).toBe(4);
    expect(calls(trace, "status", "--porcelain=v2", "-z", "--branch", "--no-ahead-behind", "--untracked-files=no")).toBe(5); // the target before the wave, and before each merge
    expect(calls(trace, "update-ref", "-z", "--stdin")).toBe(1); // the four deletes in one transaction
    expect(calls(trace, "update-ref", "-d")).toBe(0);
    expect(calls(trace, "symbolic-ref")).toBe(0); // the target's branch comes with its status
    // the repo, the target's git dir (read once per wave, not per merge): as many for 4 entries as for 1
    expect(calls(trace, "rev-parse", "--path-format=absolute")).toBeLessThanOrEqual(4);
  });

  // a batch proves every entry against the target at its start; where a merge of the batch could change
  // an entry's verdict, that entry is proven alone, at its moment of use, and gets the verdict it always had
  it("a branch stacked on another of the batch is proven alone: the merge of the first moves its merge base", () => {
    const a = agent(1);
    const path = s.worktree("worktree-agent-2", { from: "worktree-agent-1" });
    s.commit({ in: path, file: "agent-2.txt", content: "agent 2\n" });
    const b = { agent_id: "agent-2", worktree_path: path, branch: "worktree-agent-2", expected_base: base };
    const r = s.orchard(["cleanup-wave", "--manifest", manifest([a, b])], { env: { ORCHARD_TRACE: "1" } });
    expect(r.code, r.stdout + r.stderr).toBe(3);
    expect(statuses(r)).toEqual(["merged_removed:ok", "blocked:base_mismatch"]);
    expect(calls(r.stderr, "merge-base", "--end-of-options")).toBe(2); // the two that share a commit, each alone
    expect(existsSync(path)).toBe(true);
    expect(branchExists("worktree-agent-2")).toBe(true);
    noMergeInProgress();
  });

  it("a branch whose patch another entry of the batch also has is proven alone: merged once the other is", () => {
    const a = agent(1, { file: "same.txt", content: "the same change\n" });
    const b = agent(2, { file: "same.txt", content: "the same change\n" });
    const r = s.orchard(["cleanup-wave", "--manifest", manifest([a, b])], { env: { ORCHARD_TRACE: "1" } });
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(statuses(r)).toEqual(["merged_removed:ok", "merged_removed:already_merged"]);
    // both, alone (git cherry's question, whitespace seen: facts/merged.ts), the second after the first was merged
    expect(calls(r.stderr, "rev-list", "--cherry-mark", "--no-merges", "--right-only")).toBe(2);
    expect(git(s.primary, "log", "--format=%s", "-1")).toBe("chore: merge executor worktree (worktree-agent-1)");
    expect(branchExists("worktree-agent-1") || branchExists("worktree-agent-2")).toBe(false);
  });
});
