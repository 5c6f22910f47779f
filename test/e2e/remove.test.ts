// `orchard remove <handle|path>` against real repositories: one worktree under cleanup's proofs.
// Every refusal (dirty, unpushed, a process inside, a live pid's lease, a foreign worktree, the
// caller's own shell inside) sits next to the success it guards, and each says its next step.
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { spawnSync } from "node:child_process";
import { join } from "node:path";
import { CLI, Scenario, git, gitResult, liveProcess } from "../helpers/scenario.js";
import { hermeticEnv } from "../helpers/env.js";

let s: Scenario;
beforeEach(() => {
  s = Scenario.create();
});
afterEach(() => s.cleanup());

const add = (...args: string[]): { handle: string; path: string } => s.added(...args);
const released = (branch: string): { handle: string; path: string } => s.released(branch);
const branchExists = (b: string): boolean => gitResult(s.primary, "rev-parse", "--verify", "--quiet", `refs/heads/${b}`).code === 0;
const codes = (r: { reasons: { code: string }[] }): string[] => r.reasons.map((x) => x.code);

describe("orchard remove", () => {
  it("removes a clean worktree whose work is merged, and its merged branch, by handle or by path", () => {
    const a = add("feat-a");
    const r = s.orchard(["remove", a.handle]);
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(r.json).toMatchObject({ ok: true, action: "removed", handle: a.handle, path: a.path, steps: ["remove", "delete_branch"], next: null });
    expect(existsSync(a.path)).toBe(false);
    expect(branchExists("feat-a")).toBe(false);
    expect(git(s.primary, "worktree", "list", "--porcelain")).not.toContain(a.path);

    const b = released("feat-b");
    expect(s.orchard(["remove", b.path]).json).toMatchObject({ ok: true, action: "removed", handle: b.handle });
    // gone: a second call names nothing (bad input), and removes nothing more
    const again = s.orchard(["remove", b.path]);
    expect(again.code).toBe(2);
    expect(again.json.error.code).toBe("not_a_worktree");
  });

  it("keeps the merged branch another worktree holds: checked out in the primary or a linked worktree (through a symbolic ref too), or rebased there", () => {
    const a = released("feat-held-a");
    s.git("checkout", "-q", "--ignore-other-worktrees", "feat-held-a"); // the primary on it too
    const b = released("feat-held-b");
    const other = join(s.root, "other-b");
    s.git("worktree", "add", "-q", "--force", other, "feat-held-b");
    const c = released("feat-held-c");
    const rebasing = join(s.root, "rebasing-c");
    s.git("worktree", "add", "-q", "--detach", rebasing, "main");
    // a rebase in progress there works on feat-held-c (its HEAD detached, as a rebase leaves it)
    const admin = git(rebasing, "rev-parse", "--absolute-git-dir");
    mkdirSync(join(admin, "rebase-merge"));
    writeFileSync(join(admin, "rebase-merge", "head-name"), "refs/heads/feat-held-c\n");
    // a worktree on a branch that is a symbolic ref to feat-held-d: git resolves its HEAD to feat-held-d
    const d = released("feat-held-d");
    s.git("symbolic-ref", "refs/heads/alias-d", "refs/heads/feat-held-d");
    const aliased = join(s.root, "aliased-d");
    s.git("worktree", "add", "-q", "--detach", aliased, "main");
    git(aliased, "symbolic-ref", "HEAD", "refs/heads/alias-d");
    for (const w of [a, b, c, d]) {
      const r = s.orchard(["remove", w.handle]);
      expect(r.code, r.stdout + r.stderr).toBe(0);
      expect(r.json).toMatchObject({ ok: true, action: "removed", steps: ["remove"], reasons: [{ code: "branch_checked_out" }] });
      expect(existsSync(w.path)).toBe(false);
    }
    for (const branch of ["feat-held-a", "feat-held-b", "feat-held-c", "feat-held-d"]) expect(branchExists(branch), branch).toBe(true);
    s.git("checkout", "-q", "main");
  });

  it("judges the one worktree it names: no other worktree's status, row or history is read (SPEC v5 §3)", () => {
    const others = [add("other-a"), released("other-b")];
    s.makeDirty(others[0]!.path);
    const w = released("feat-one");
    const r = s.orchard(["remove", w.handle], { env: { ORCHARD_TRACE: "1" } });
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(r.json).toMatchObject({ ok: true, action: "removed", handle: w.handle });
    const traced = r.stderr.split("\n").filter((l) => l.startsWith("[orchard trace] "));
    expect(traced.some((l) => l.includes(w.path))).toBe(true); // its own status ran
    for (const o of others)
      expect(
        traced.filter((l) => l.includes(o.path)),
        o.path,
      ).toEqual([]);
    for (const o of others) expect(existsSync(o.path)).toBe(true);
  });

  it("refuses a dirty worktree with the next step, and --salvage saves the work first", () => {
    const w = released("wip-a");
    s.makeDirty(w.path);
    const refused = s.orchard(["remove", w.handle]);
    expect(refused.code).toBe(3);
    expect(refused.json).toMatchObject({ ok: false, action: "refused", disposition: "needs_salvage", next: `orchard remove ${w.handle} --salvage` });
    expect(codes(refused.json)).toEqual(expect.arrayContaining(["salvage_not_requested", "dirty"]));
    expect(existsSync(join(w.path, "untracked-work.txt"))).toBe(true);

    const human = s.orchard(["remove", w.handle], { json: false });
    expect(human.code).toBe(3);
    expect(human.stdout).toContain(`↳ orchard remove ${w.handle} --salvage`);

    const dry = s.orchard(["remove", w.handle, "--salvage", "--dry-run"]);
    expect(dry.code).toBe(0);
    expect(dry.json).toMatchObject({ ok: true, action: "planned", dryRun: true, steps: ["salvage_remove"] });
    expect(existsSync(w.path)).toBe(true);

    const salvaged = s.orchard(["remove", w.handle, "--salvage"]);
    expect(salvaged.code, salvaged.stdout).toBe(0);
    expect(salvaged.json).toMatchObject({ ok: true, action: "removed", steps: ["salvage_remove"] });
    expect(existsSync(w.path)).toBe(false);
    expect(git(s.primary, "show", `${salvaged.json.salvageRef}:untracked-work.txt`)).toBe("precious");
  });

  it("refuses unpushed commits of an active worktree nobody holds; --salvage keeps them in the salvage ref", () => {
    const w = add("feat-unpushed");
    const head = s.commit({ in: w.path, file: "work.txt" });
    const refused = s.orchard(["remove", w.handle]);
    expect(refused.code).toBe(3);
    expect(codes(refused.json)).toEqual(expect.arrayContaining(["salvage_not_requested", "work_not_preserved"]));
    expect(refused.json.next).toBe(`orchard remove ${w.handle} --salvage`);
    const salvaged = s.orchard(["remove", w.handle, "--salvage"]);
    expect(salvaged.code, salvaged.stdout).toBe(0);
    expect(git(s.primary, "rev-parse", `${salvaged.json.salvageRef}^`)).toBe(head);
    expect(branchExists("feat-unpushed")).toBe(true); // not merged: the branch stays
  });

  it("refuses while a process works inside, and while a live pid holds the lease", () => {
    const w = add("feat-busy");
    const inside = liveProcess(w.path);
    try {
      const r = s.orchard(["remove", w.handle]);
      expect(r.code).toBe(3);
      expect(r.json).toMatchObject({ ok: false, action: "refused", disposition: "live", next: null });
      expect(r.json.reasons[0].signals.map((x: { code: string }) => x.code)).toContain("process_in_worktree");
    } finally {
      inside.stop();
    }

    const holder = liveProcess();
    try {
      const held = add("feat-held", "--owner", "agent-7", "--pid", String(holder.pid));
      const r = s.orchard(["remove", held.handle]);
      expect(r.code).toBe(3);
      expect(r.json.next).toBe(`orchard status ${held.handle}`); // who holds it, never how to take it (SPEC v5)
      expect(r.json.reasons[0].signals.map((x: { code: string }) => x.code)).toContain("pid_alive");
      expect(existsSync(held.path)).toBe(true);
    } finally {
      holder.stop();
    }
  });

  it("from a shell inside the worktree, says to cd out first", () => {
    const w = add("feat-here");
    const r = spawnSync("/bin/sh", ["-c", `"${process.execPath}" "${CLI}" --json --home "${s.home}" remove "${w.handle}"; exit $?`], {
      cwd: w.path,
      env: hermeticEnv(),
      encoding: "utf8",
    });
    expect(r.status, r.stdout + r.stderr).toBe(3);
    expect(JSON.parse(r.stdout).next).toBe(`cd ${s.primary} && orchard remove ${w.handle}`);
    expect(existsSync(w.path)).toBe(true);
  });

  it("refuses a foreign worktree (adopt it first) and a path that is no worktree", () => {
    const foreign = s.worktree("foreign-a");
    const r = s.orchard(["remove", foreign]);
    expect(r.code).toBe(3);
    expect(r.json).toMatchObject({ ok: false, handle: null, next: `orchard adopt ${foreign}` });
    expect(codes(r.json)).toContain("not_managed");
    expect(existsSync(foreign)).toBe(true);

    const nowhere = s.orchard(["remove", join(s.root, "nowhere")]);
    expect(nowhere.code).toBe(2);
    expect(nowhere.json.error.code).toBe("not_a_worktree");
    const option = s.orchard(["remove", "--", "--salvage"]);
    expect(option.code).toBe(2);
    expect(readFileSync(join(s.primary, "README.md"), "utf8")).toBeTruthy();
  });
});
