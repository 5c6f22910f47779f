// `cleanup-wave --strategy merge|squash|rebase` and `orchard merge <handle>`, its one-entry form
// (SPEC v4 §3): each strategy lands the branch, removes the worktree and deletes the branch; a
// rerun is a no-op; a conflict touches nothing (no merge or rebase left in progress anywhere).
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { Scenario, git, gitResult } from "../helpers/scenario.js";

let s: Scenario;
let base: string;
beforeEach(() => {
  s = Scenario.create();
  base = git(s.primary, "rev-parse", "main");
});
afterEach(() => s.cleanup());

const add = (branch: string): { handle: string; path: string } => {
  const r = s.orchard(["add", branch]);
  expect(r.code, r.stdout + r.stderr).toBe(0);
  return r.json;
};
const branchExists = (b: string) => gitResult(s.primary, "rev-parse", "--verify", "--quiet", `refs/heads/${b}`).code === 0;
const subjects = (n: number) => git(s.primary, "log", "--format=%s", `-${n}`, "main").split("\n");
const parents = (rev: string) => git(s.primary, "rev-list", "--parents", "-n", "1", rev).split(" ").length - 1;
const nothingInProgress = (...dirs: string[]) => {
  for (const d of dirs) for (const f of ["MERGE_HEAD", "rebase-merge", "rebase-apply"]) expect(existsSync(join(d, f)), `${d}/${f}`).toBe(false);
};
/** What `orchard merge` did: its action, and the code of what blocked it. */
const entry = (r: { json: { action: string; reasons: { code: string }[] } }) => [r.json.action, ...r.json.reasons.map((x) => x.code)].join(":");

/** A managed worktree with two commits of its own, while main moves on by one commit. */
function diverged(branch: string): { handle: string; path: string } {
  const w = add(branch);
  s.commit({ in: w.path, file: `${branch}-1.txt`, message: `${branch} one` });
  s.commit({ in: w.path, file: `${branch}-2.txt`, message: `${branch} two` });
  s.commit({ file: "main-moves.txt", message: "main moves" });
  return w;
}

describe("orchard merge", () => {
  it("merge (the default): a merge commit, then the worktree removed and the branch deleted; a rerun is a no-op", () => {
    const w = diverged("feat-m");
    const r = s.orchard(["merge", w.handle]);
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(r.json).toMatchObject({ ok: true, action: "merged", handle: w.handle, branch: "feat-m", into: { branch: "main" }, strategy: "merge" });
    expect(r.json).not.toHaveProperty("plan"); // one worktree's result, not a wave's
    expect(subjects(1)).toEqual(["Merge branch 'feat-m'"]);
    expect(parents("main")).toBe(2);
    expect(existsSync(w.path)).toBe(false);
    expect(branchExists("feat-m")).toBe(false);
    // a rerun finds it done (the wave's record of the removal), changes nothing, exits 0
    const again = s.orchard(["merge", w.handle]);
    expect(again.code, again.stdout).toBe(0);
    expect(entry(again)).toBe("already_done");
    expect(subjects(1)).toEqual(["Merge branch 'feat-m'"]);
    expect(s.orchard(["merge", "app@never-was"]).code).toBe(2);
  });

  it("squash: one commit with the branch's changes on the target's tip, its message listing the squashed commits as git's", () => {
    const w = diverged("feat-s");
    const log = git(w.path, "log", "--pretty=medium", "main..HEAD");
    const r = s.orchard(["merge", w.handle, "--strategy", "squash"]);
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(entry(r)).toBe("merged");
    expect(subjects(2)).toEqual(["Squashed commit of the following:", "main moves"]);
    expect(git(s.primary, "log", "-1", "--format=%B", "main").trimEnd()).toBe(`Squashed commit of the following:\n\n${log}`);
    expect(log).toMatch(/^commit [0-9a-f]{40}\nAuthor: .*\nDate: .*\n\n {4}feat-s two\n\ncommit [0-9a-f]{40}\n/);
    expect(parents("main")).toBe(1);
    expect(readFileSync(join(s.primary, "feat-s-2.txt"), "utf8")).toBe("feat-s-2.txt\n");
    expect(git(s.primary, "status", "--porcelain")).toBe("");
    expect(existsSync(w.path)).toBe(false);
    expect(branchExists("feat-s")).toBe(false);
  });

  it("--message is the commit's message; into a branch other than main or master git's message names it", () => {
    const w = diverged("feat-msg");
    expect(s.orchard(["merge", w.handle, "--message", "feat: the billing page (#12)"]).code).toBe(0);
    expect(git(s.primary, "log", "-1", "--format=%B", "main")).toBe("feat: the billing page (#12)");
    const q = add("feat-sq");
    s.commit({ in: q.path, file: "sq.txt" });
    expect(s.orchard(["merge", q.handle, "--strategy", "squash", "--message", "feat: squashed"]).code).toBe(0);
    expect(subjects(1)).toEqual(["feat: squashed"]);
    git(s.primary, "checkout", "-q", "-b", "release");
    const d = add("feat-dev");
    s.commit({ in: d.path, file: "dev.txt" });
    s.commit({ file: "release-moves.txt" });
    expect(s.orchard(["merge", d.handle]).code).toBe(0);
    expect(git(s.primary, "log", "-1", "--format=%s", "release")).toBe("Merge branch 'feat-dev' into release");
  });

  it("rebase: the branch's commits replayed onto the target, which fast-forwards", () => {
    const w = diverged("feat-r");
    const r = s.orchard(["merge", w.handle, "--strategy", "rebase"]);
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(entry(r)).toBe("merged");
    expect(subjects(3)).toEqual(["feat-r two", "feat-r one", "main moves"]);
    expect(parents("main")).toBe(1);
    expect(existsSync(w.path)).toBe(false);
    expect(branchExists("feat-r")).toBe(false);
  });

  it("a conflict touches nothing with any strategy: target, branch and worktree as they were, nothing in progress", () => {
    const w = add("feat-c");
    s.commit({ in: w.path, file: "README.md", content: "mine\n" });
    s.commit({ file: "README.md", content: "theirs\n" });
    const main = git(s.primary, "rev-parse", "main");
    const tip = git(w.path, "rev-parse", "HEAD");
    for (const strategy of ["merge", "squash", "rebase"]) {
      const r = s.orchard(["merge", w.handle, "--strategy", strategy]);
      expect(r.code, `${strategy}: ${r.stdout}`).toBe(3);
      expect(entry(r)).toBe("blocked:merge_conflict");
      expect(r.json.reasons[0].conflicts).toEqual(["README.md"]);
      expect(git(s.primary, "rev-parse", "main")).toBe(main);
      expect(git(w.path, "rev-parse", "HEAD")).toBe(tip);
      nothingInProgress(join(s.primary, ".git"), s.adminDir(w.path));
    }
    expect(existsSync(w.path)).toBe(true);
  });

  it("rebase: a commit that conflicts on replay (though the whole merge is clean) aborts the rebase", () => {
    const w = add("feat-rc");
    const readme = readFileSync(join(w.path, "README.md"), "utf8");
    s.commit({ in: w.path, file: "README.md", content: "step one\n" });
    writeFileSync(join(w.path, "README.md"), readme); // back as it was: the branch as a whole leaves README alone
    s.commit({ in: w.path, file: "extra.txt" });
    git(w.path, "commit", "-q", "--amend", "-a", "--no-edit");
    s.commit({ file: "README.md", content: "theirs\n" });
    const tip = git(w.path, "rev-parse", "HEAD");
    const r = s.orchard(["merge", w.handle, "--strategy", "rebase"]);
    expect(r.code, r.stdout).toBe(3);
    expect(entry(r)).toBe("blocked:merge_conflict");
    expect(git(w.path, "rev-parse", "HEAD")).toBe(tip);
    expect(git(w.path, "status", "--porcelain")).toBe("");
    nothingInProgress(s.adminDir(w.path));
  });

  it("dirty work blocks before anything lands; --dry-run changes nothing; a bad strategy is bad input", () => {
    const w = diverged("feat-d");
    writeFileSync(join(w.path, "notes.txt"), "precious\n");
    const main = git(s.primary, "rev-parse", "main");
    const r = s.orchard(["merge", w.handle, "--strategy", "squash"]);
    expect(r.code).toBe(3);
    expect(entry(r)).toBe("blocked:worktree_dirty");
    expect(git(s.primary, "rev-parse", "main")).toBe(main);
    git(w.path, "stash", "-u", "-q");
    const dry = s.orchard(["merge", w.handle, "--strategy", "rebase", "--dry-run"]);
    expect(dry.code).toBe(0);
    expect(dry.json).toMatchObject({ action: "planned", dryRun: true, steps: ["merge", "remove", "delete_branch"] });
    expect(git(s.primary, "rev-parse", "main")).toBe(main);
    const bad = s.orchard(["merge", w.handle, "--strategy", "octopus"]);
    expect(bad.code).toBe(2);
    expect(bad.json.error.code).toBe("invalid_argument");
  });
});

describe("cleanup-wave --strategy", () => {
  it("squashes every entry of a manifest; rerunning the same manifest is a no-op", () => {
    const agents = [1, 2].map((n) => {
      const branch = `worktree-agent-${n}`;
      const path = s.worktree(branch);
      s.commit({ in: path, file: `agent-${n}.txt` });
      return { agent_id: `agent-${n}`, worktree_path: path, branch, expected_base: base };
    });
    const file = join(s.root, "wave.json");
    writeFileSync(file, JSON.stringify(agents));
    const r = s.orchard(["cleanup-wave", "--manifest", file, "--strategy", "squash"]);
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(r.json.result.entries.map((e: { status: string }) => e.status)).toEqual(["merged_removed", "merged_removed"]);
    expect(subjects(2)).toEqual(["chore: squash executor worktree (worktree-agent-2)", "chore: squash executor worktree (worktree-agent-1)"]);
    const main = git(s.primary, "rev-parse", "main");
    const again = s.orchard(["cleanup-wave", "--manifest", file, "--strategy", "squash"]);
    expect(again.code, again.stdout).toBe(0);
    expect(again.json.result.entries.map((e: { reason: string }) => e.reason)).toEqual(["already_done", "already_done"]);
    expect(git(s.primary, "rev-parse", "main")).toBe(main);
  });
});
