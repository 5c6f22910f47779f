// Every reason carries `next` (SPEC v4 §2), and each step it names works: the test takes the
// `next` a refusal or a skipped row carries, runs exactly that command, and checks that the
// command is accepted (no usage error) and moves the worktree on. One scenario per distinct step.
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { spawnSync } from "node:child_process";
import { existsSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { Scenario, deadPid, git, type CliResult } from "../helpers/scenario.js";
import { hermeticEnv, makeProcessEnvHermetic } from "../helpers/env.js";
import { Orchard } from "../../src/index.js";

let s: Scenario;
beforeEach(() => {
  s = Scenario.create();
});
afterEach(() => s.cleanup());

/** The words of a command line as a POSIX shell splits them. */
function words(command: string): string[] {
  const r = spawnSync("sh", ["-c", `eval "set -- $1"; printf '%s\\0' "$@"`, "sh", command], { encoding: "utf8" });
  return r.stdout.split("\0").slice(0, -1);
}

/** Runs a next step as a person would: `orchard …` through the real CLI (JSON), anything else in a shell in the primary. */
function run(next: string | null | undefined): CliResult {
  expect(next, "a next step").toEqual(expect.any(String));
  const argv = words(next as string);
  if (argv[0] === "orchard") {
    // `orchard trust` is a person's act: without a terminal here, the person types --yes
    const r = s.orchard(argv[1] === "trust" ? [...argv.slice(1), "--yes"] : argv.slice(1));
    expect(r.code, `${next}: ${r.stdout}${r.stderr}`).not.toBe(2); // never a usage error
    return r;
  }
  const r = spawnSync("sh", ["-c", next as string], { cwd: s.primary, env: hermeticEnv(), encoding: "utf8" });
  expect(r.status, `${next}: ${r.stderr}`).toBe(0);
  return { code: r.status ?? -1, stdout: r.stdout, stderr: r.stderr, json: null };
}

const reasonOf = (r: CliResult, code: string) => (r.json.reasons as { code: string; next: string | null }[]).find((x) => x.code === code);
const entryAt = (r: CliResult, path: string) => r.json.entries.find((e: { path: string }) => e.path === path);

describe("next steps of refusals", () => {
  it("every reason of a JSON result has `next`; a dirty add of the same task goes on with the step (--resume)", () => {
    const a = s.orchard(["add", "feat-a", "--task", "T-1", "--owner", "agent-1"]).json;
    s.makeDirty(a.path);
    s.orchard(["release", a.handle, "--owner", "agent-1"]);
    const refused = s.orchard(["add", "feat-a", "--task", "T-1", "--owner", "agent-2"]);
    expect(refused.code).toBe(3);
    for (const r of refused.json.reasons) expect(r).toHaveProperty("next");
    const dirty = reasonOf(refused, "dirty");
    expect(dirty?.next).toBe("orchard add feat-a --task T-1 --owner agent-2 --resume");
    const taken = run(dirty?.next);
    expect(taken.json).toMatchObject({ ok: true, handle: a.handle });
  });

  it("a dirty recycle names no --resume (recycle rejects it): its next is null, the sentence says what to do", () => {
    const a = s.orchard(["add", "feat-b", "--owner", "me"]).json;
    s.makeDirty(a.path);
    s.orchard(["release", a.handle, "--owner", "me"]);
    const r = s.orchard(["recycle", a.handle, "--branch", "feat-c"]);
    expect(r.code).toBe(3);
    const dirty = reasonOf(r, "dirty");
    expect(dirty?.next).toBeNull();
    expect(s.orchard(["explain", "dirty"], { json: false }).stdout).not.toMatch(/pass --resume/);
  });

  it("unpushed work blocks a recycle: the step pushes the branch, and the recycle then goes through", () => {
    const a = s.orchard(["add", "feat-d", "--owner", "me"]).json;
    s.commit({ in: a.path, file: "d.txt" });
    s.orchard(["release", a.handle, "--owner", "me"]);
    const r = s.orchard(["recycle", a.handle, "--branch", "feat-e"]);
    expect(r.code).toBe(3);
    const step = reasonOf(r, "work_not_preserved")?.next;
    expect(step).toMatch(/^git -C .* push -u origin feat-d$/);
    run(step);
    expect(s.orchard(["recycle", a.handle, "--branch", "feat-e"]).json).toMatchObject({ ok: true, action: "recycled" });
  });

  it("a recycle of a foreign worktree names adopt; of an active one, release by its owner", () => {
    const path = s.worktree("foreign-x");
    const r = s.orchard(["recycle", path, "--branch", "feat-f"]);
    const step = reasonOf(r, "not_managed")?.next;
    expect(step).toBe(`orchard adopt ${path}`);
    expect(run(step).json).toMatchObject({ ok: true });
    const a = s.orchard(["add", "feat-g"]).json;
    const active = s.orchard(["recycle", a.handle, "--branch", "feat-h"]);
    const release = reasonOf(active, "not_terminal")?.next;
    expect(release).toBe(`orchard release ${a.handle}`);
    expect(run(release).json).toMatchObject({ ok: true });
    expect(s.orchard(["recycle", a.handle, "--branch", "feat-h"]).json).toMatchObject({ ok: true });
  });

  it("a foreign worktree cleanup leaves alone names adopt; once adopted, the cleanup it then names salvages it", () => {
    const path = s.worktree("foreign-y");
    s.commit({ in: path, file: "y.txt" }); // unmerged, unpushed, and its crashed owner's lock: needs_salvage
    s.lockAs(path, `claude agent agent-y (pid ${deadPid()})`);
    const run1 = s.orchard(["cleanup", "run", "--include", "needs_salvage", "--salvage"]);
    const kept = run1.json.kept.find((k: { path: string }) => k.path === path);
    expect(kept?.disposition).toBe("needs_salvage");
    const step = kept.reasons.find((x: { code: string }) => x.code === "not_managed")?.next;
    expect(step).toBe(`orchard adopt ${path}`);
    expect(run(step).json).toMatchObject({ ok: true });
    const run2 = s.orchard(["cleanup", "run", "--include", "needs_salvage", "--salvage"]);
    expect(run2.json.items.find((i: { path: string }) => i.path === path)).toMatchObject({ action: "salvage_remove", state: "done" });
  });

  it("a merge left in progress names its abort, after which add takes the worktree again", () => {
    const a = s.orchard(["add", "feat-m", "--owner", "me"]).json;
    s.commit({ in: a.path, file: "README.md", content: "ours\n" });
    s.commit({ file: "README.md", content: "theirs\n" });
    expect(spawnSync("git", ["merge", "main"], { cwd: a.path, env: hermeticEnv() }).status).not.toBe(0); // a conflict: MERGE_HEAD stays
    s.orchard(["release", a.handle, "--owner", "me"]);
    const refused = s.orchard(["add", "feat-m", "--owner", "me"]);
    const step = reasonOf(refused, "operation_in_progress")?.next;
    expect(step).toBe(`git -C ${a.path} merge --abort`);
    run(step);
    expect(s.orchard(["add", "feat-m", "--owner", "me"]).json).toMatchObject({ ok: true, handle: a.handle });
  });

  it("a skipped bootstrap step names orchard trust, which lets the next add run it", () => {
    writeFileSync(join(s.primary, ".orchard.json"), JSON.stringify({ bootstrap: { run: ["touch made-by-bootstrap"] } }));
    const a = s.orchard(["add", "feat-t"]).json;
    const step = a.bootstrap.steps.find((x: { reason?: string }) => x.reason === "config_untrusted");
    expect(step.next).toBe("orchard trust");
    run(step.next);
    const b = s.orchard(["add", "feat-u"]).json;
    expect(existsSync(join(b.path, "made-by-bootstrap"))).toBe(true);
  });

  it("an unknown default branch names git remote set-head, after which reap-orphans sweeps", () => {
    git(s.primary, "remote", "set-head", "origin", "--delete");
    s.ageLock(s.worktree("wt-locked", { lock: `claude agent a (pid ${deadPid()})` }), 600);
    const r = s.orchard(["reap-orphans"]);
    expect(r.json).toMatchObject({ ok: false, reason: "default_branch_unknown", next: "git remote set-head origin --auto" });
    run(r.json.next);
    expect(s.orchard(["reap-orphans"]).json.ok).toBe(true);
  });
});

describe("next steps in the library", () => {
  it("a library result's reasons carry the same next as the CLI's JSON", async () => {
    makeProcessEnvHermetic(); // in-process calls start git with process.env
    const orchard = await Orchard.open({ repo: s.primary, home: s.home });
    try {
      const a = await orchard.add({ branch: "lib-a", task: "T-9", owner: "agent-1" });
      s.makeDirty(a.path);
      await orchard.release({ target: a.handle, owner: "agent-1" });
      const refused = await orchard.add({ branch: "lib-a", task: "T-9", owner: "agent-2" });
      expect(refused.reasons.find((r) => r.code === "dirty")?.next).toBe("orchard add lib-a --task T-9 --owner agent-2 --resume");
      const hygiene = await orchard.hygiene();
      for (const w of hygiene.worktrees) for (const r of w.reasons) expect(r.next === null || typeof r.next === "string").toBe(true);
    } finally {
      await orchard.close();
    }
  });
});

describe("next steps of skipped orphans", () => {
  /** A foreign or Orchard worktree locked by a dead process, its lock aged past the guard. */
  function orphan(branch: string, options: { commit?: boolean; dirty?: boolean; merged?: boolean } = {}): string {
    const path = s.worktree(branch, { lock: `claude agent a (pid ${deadPid()})` });
    if (options.commit) s.commit({ in: path, file: `${branch}.txt` });
    if (options.merged) s.mergeIntoMain(branch);
    if (options.dirty) s.makeDirty(path);
    s.ageLock(path, 600);
    return path;
  }

  it("worktree_dirty names reap-orphans --salvage, which reaps it", () => {
    const path = orphan("wt-dirty", { dirty: true });
    const entry = entryAt(s.orchard(["reap-orphans"]), path);
    expect(entry).toMatchObject({ status: "skipped", reason: "worktree_dirty", next: "orchard reap-orphans --salvage" });
    expect(entryAt(run(entry.next), path)).toMatchObject({ status: "reaped" });
  });

  it("branch_not_merged of a foreign worktree names adopt (reap --salvage would skip it again); then cleanup salvages it", () => {
    const path = orphan("wt-unmerged", { commit: true });
    const entry = entryAt(s.orchard(["reap-orphans"]), path);
    expect(entry).toMatchObject({ status: "skipped", reason: "branch_not_merged", next: `orchard adopt ${path}` });
    expect(entryAt(s.orchard(["reap-orphans", "--salvage"]), path)).toMatchObject({ status: "skipped" });
    expect(run(entry.next).json.ok).toBe(true);
    const row = s.orchard(["hygiene"]).json.worktrees.find((w: { path: string }) => w.path === path);
    expect(row.reasons[0].next).toBe("orchard cleanup run --include needs_salvage --salvage");
    const done = run(row.reasons[0].next);
    expect(done.json.items.map((i: { path: string; state: string }) => [i.path, i.state])).toContainEqual([path, "done"]);
  });

  it("branch_not_merged of an Orchard lease names cleanup with salvage, which takes it", () => {
    const a = s.orchard(["add", "lease-unmerged", "--owner", "agent-1", "--ttl", "1ms"]).json;
    s.commit({ in: a.path, file: "w.txt" });
    s.ageLock(a.path, 600);
    const entry = entryAt(s.orchard(["reap-orphans"]), a.path);
    expect(entry).toMatchObject({ status: "skipped", reason: "branch_not_merged", next: "orchard cleanup run --include reapable,needs_salvage --salvage" });
    const done = run(entry.next);
    expect(done.json.items.map((i: { path: string; state: string }) => [i.path, i.state])).toContainEqual([a.path, "done"]);
  });
});

describe("next steps of cleanup", () => {
  it("salvage_not_requested and not_included name the flags that take the worktree; limit_reached names resume", () => {
    const wip = s.orchard(["add", "wip", "--owner", "me"]).json;
    s.makeDirty(wip.path);
    s.orchard(["release", wip.handle, "--owner", "me"]);
    const plan = s.orchard(["cleanup", "plan"]).json;
    const skipped = plan.skipped.find((x: { path: string }) => x.path === wip.path);
    expect(skipped.reasons[0]).toMatchObject({ code: "not_included", next: "orchard cleanup run --include needs_salvage --salvage" });
    const salvageOnly = s.orchard(["cleanup", "plan", "--include", "needs_salvage"]).json.skipped.find((x: { path: string }) => x.path === wip.path);
    expect(salvageOnly.reasons[0]).toMatchObject({ code: "salvage_not_requested", next: "orchard cleanup run --include needs_salvage --salvage" });
    for (const n of [1, 2]) {
      const d = s.orchard(["add", `done-${n}`, "--owner", "me"]).json;
      s.orchard(["release", d.handle, "--owner", "me"]);
    }
    const two = s.orchard(["cleanup", "plan"]).json;
    const applied = s.orchard(["cleanup", "apply", two.planId, "--limit", "1"]).json;
    const limit = applied.notes.find((x: { code: string }) => x.code === "limit_reached");
    expect(limit?.next).toBe(`orchard cleanup resume ${two.planId}`);
    expect(run(limit.next).json).toMatchObject({ ok: true, remaining: 0 });
    const salvaged = run(skipped.reasons[0].next);
    expect(salvaged.json.items.map((i: { path: string; state: string }) => [i.path, i.state])).toContainEqual([wip.path, "done"]);
  });

  it("a wave blocked by deletions names --allow-deletions with its manifest, which merges it", () => {
    const path = s.worktree("worktree-agent-1");
    s.commit({ in: path, file: "agent-1.txt" });
    git(path, "rm", "-q", "src/file0.txt");
    git(path, "commit", "-q", "-m", "delete");
    const manifest = join(s.root, "wave.json");
    writeFileSync(manifest, JSON.stringify([{ worktree_path: path, branch: "worktree-agent-1", expected_base: git(s.primary, "rev-parse", "main") }]));
    const r = s.orchard(["cleanup-wave", "--manifest", manifest]);
    const entry = r.json.result.entries[0];
    expect(entry).toMatchObject({
      status: "blocked",
      reason: "branch_contains_deletions",
      next: `orchard cleanup-wave --manifest ${manifest} --allow-deletions`,
    });
    expect(run(entry.next).json.result.entries[0]).toMatchObject({ status: "merged_removed" });
  });
});
