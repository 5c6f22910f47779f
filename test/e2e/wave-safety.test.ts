// `orchard cleanup-wave` v2 (SPEC §3.9): every entry checked against git's own worktree list,
// live processes guarded, removals verified, a killed merge finished by the rerun, a dry run.
// Each refusal sits beside its success; plain git checks that nothing was lost.
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { execFileSync, spawnSync } from "node:child_process";
import { chmodSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { Scenario, git, gitResult, liveProcess, waitFor } from "../helpers/scenario.js";
import { otherFileSystem as otherFileSystemThan } from "../helpers/scratch.js";

let s: Scenario;
let base: string;
const undo: (() => void)[] = [];
beforeEach(() => {
  s = Scenario.create();
  base = git(s.primary, "rev-parse", "main");
});
afterEach(() => {
  for (const u of undo.splice(0).reverse()) u();
  s.cleanup();
});

function agent(n: number, options: { file?: string; content?: string; path?: string } = {}) {
  const branch = `worktree-agent-${n}`;
  const path = s.worktree(branch, options.path ? { path: options.path } : {});
  s.commit({ in: path, file: options.file ?? `agent-${n}.txt`, content: options.content ?? `agent ${n}\n` });
  return { agent_id: `agent-${n}`, worktree_path: path, branch, expected_base: base };
}

function wave(entries: unknown, args: string[] = [], env: Record<string, string> = {}) {
  const file = join(s.root, "wave.json");
  writeFileSync(file, JSON.stringify(entries));
  return s.orchard(["cleanup-wave", "--manifest", file, ...args], { env });
}

const statuses = (r: { json: { result: { entries: { status: string; reason: string }[] } } }) => r.json.result.entries.map((e) => `${e.status}:${e.reason}`);
const branchExists = (b: string) => gitResult(s.primary, "rev-parse", "--verify", "--quiet", `refs/heads/${b}`).code === 0;
const mergeHead = () => join(s.primary, ".git", "MERGE_HEAD");
const listed = (path: string) => git(s.primary, "worktree", "list", "--porcelain").includes(`worktree ${path}\n`);

/** Makes a file impossible to delete (root: the immutable attribute; others: a read-only parent); null when this host cannot. */
function pin(file: string): (() => void) | null {
  if (process.getuid?.() === 0) {
    if (spawnSync("chattr", ["+i", file]).status !== 0) return null;
    const release = () => void spawnSync("chattr", ["-i", file]);
    undo.push(release);
    return release;
  }
  const dir = join(file, "..");
  chmodSync(dir, 0o555);
  const release = () => unpin(file);
  undo.push(release);
  return release;
}

function unpin(file: string): void {
  if (process.getuid?.() === 0) spawnSync("chattr", ["-i", file]);
  else if (existsSync(file)) chmodSync(join(file, ".."), 0o755); // gone: it moved (into the trash)
}

/** A directory on another file system than the workspace, where a worktree cannot be renamed into the trash; null when there is none. */
function otherFileSystem(): string | null {
  const dir = otherFileSystemThan(s.root, "orchard-wave-");
  if (dir !== null) undo.push(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

describe("every entry is checked against git's own worktree list (issue 13.4)", () => {
  it("a wrong worktree_path never merges the branch of a dirty worktree an agent works in", () => {
    const a = agent(1);
    const b = agent(2);
    s.makeDirty(a.worktree_path, { untracked: true });
    const stray = join(s.root, "not-a-worktree");
    mkdirSync(stray);
    // the path of another worktree, then a plain directory, for agent 1's branch
    expect(statuses(wave([{ ...a, worktree_path: b.worktree_path }]))).toEqual(["blocked:branch_mismatch"]);
    const r = wave([{ ...a, worktree_path: stray }]);
    expect(r.code).toBe(3);
    expect(statuses(r)).toEqual(["blocked:branch_checked_out"]);
    expect(git(s.primary, "rev-parse", "main")).toBe(base);
    expect(readFileSync(join(a.worktree_path, "untracked-work.txt"), "utf8")).toBe("precious\n");
    // the right path: still refused while dirty; clean, it merges
    expect(statuses(wave([a]))).toEqual(["blocked:worktree_dirty"]);
    git(a.worktree_path, "clean", "-fdq");
    expect(statuses(wave([a]))).toEqual(["merged_removed:ok"]);
  });

  it("a path that is not a worktree of the repository (/etc, a plain directory) is refused: not_a_worktree", () => {
    const a = agent(1);
    git(s.primary, "worktree", "remove", a.worktree_path);
    for (const path of ["/etc", join(s.root, "plain")]) {
      mkdirSync(path, { recursive: true });
      const r = wave([{ ...a, worktree_path: path }]);
      expect(r.code).toBe(3);
      expect(statuses(r)).toEqual(["blocked:not_a_worktree"]);
    }
    expect(existsSync("/etc/passwd")).toBe(true);
    expect(git(s.primary, "rev-parse", "main")).toBe(base);
    // the harness's removed worktree at its own (now absent) path merges from the branch
    expect(statuses(wave([a]))).toEqual(["merged_removed:ok"]);
  });

  it("an entry that never existed is entry_not_found, not merged_removed; a finished one is already_done", () => {
    const a = agent(1);
    const ghost = { agent_id: "ghost", worktree_path: join(s.root, "ghost"), branch: "worktree-agent-ghost", expected_base: base };
    const r = wave([ghost]);
    expect(r.code).toBe(3);
    expect(statuses(r)).toEqual(["blocked:entry_not_found"]);
    expect(statuses(wave([a]))).toEqual(["merged_removed:ok"]);
    expect(statuses(wave([a]))).toEqual(["merged_removed:already_done"]);
    // without the registry (another workspace), the wave's merge commit on the target is the proof
    const other = s.orchard(["cleanup-wave", "--manifest", join(s.root, "wave.json"), "--home", join(s.root, "other-home")]);
    expect(statuses(other)).toEqual(["merged_removed:already_done"]);
  });
});

describe("live worktrees (SPEC §3.9 step 5)", () => {
  it("a process inside blocks live_process; --allow-live waives it", () => {
    const a = agent(1);
    const p = liveProcess(a.worktree_path);
    try {
      const r = wave([a]);
      expect(r.code).toBe(3);
      expect(statuses(r)).toEqual(["blocked:live_process"]);
      expect(r.json.result.entries[0].stderr).toContain(String(p.pid));
      expect(existsSync(a.worktree_path)).toBe(true);
      expect(git(s.primary, "rev-parse", "main")).toBe(base);
      expect(statuses(wave([a], ["--allow-live"]))).toEqual(["merged_removed:ok"]);
    } finally {
      p.stop();
    }
  });

  it("a managed worktree under a live lease (with or without a process inside) is not removed; after release it is", () => {
    const owner = liveProcess();
    try {
      const add = s.orchard(["add", "worktree-agent-7", "--no-bootstrap", "--owner", "agent-7", "--pid", String(owner.pid)]);
      s.commit({ in: add.json.path, file: "seven.txt" });
      const entry = { worktree_path: add.json.path, branch: "worktree-agent-7", expected_base: base };
      const inside = liveProcess(add.json.path);
      expect(statuses(wave([entry]))).toEqual(["blocked:live_process"]);
      inside.stop();
      expect(statuses(wave([entry]))).toEqual(["blocked:live_owner"]);
      expect(existsSync(add.json.path)).toBe(true);
      // the lease names agent-7's live pid: this test stands in for that process (the person's override)
      const rel = s.orchard(["release", add.json.handle, "--owner", "agent-7", "--force"]);
      expect(rel.code, rel.stdout).toBe(0);
      expect(statuses(wave([entry]))).toEqual(["merged_removed:ok"]);
    } finally {
      owner.stop();
    }
  });
});

describe("a killed merge is finished by the rerun (issue 13.7)", () => {
  it.each(["wave.merge", "wave.merged"])("killed at %s: the rerun exits 0 and leaves no MERGE_HEAD", (step) => {
    const a = agent(1);
    const b = agent(2);
    const before = git(s.primary, "rev-parse", "main");
    const killed = wave([a, b], [], { ORCHARD_FAULT_AT: step });
    expect(killed.code).not.toBe(0);
    expect(existsSync(mergeHead())).toBe(false); // the merge commit is made before the target moves: none is in progress
    expect(git(s.primary, "status", "--porcelain")).toBe(""); // killed before the fast-forward: the target as it was; after: at the merge
    expect(git(s.primary, "rev-parse", "main") === before).toBe(step === "wave.merge");
    const r = wave([a, b]);
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(existsSync(mergeHead())).toBe(false);
    expect(statuses(r)).toEqual([step === "wave.merge" ? "merged_removed:ok" : "merged_removed:already_merged", "merged_removed:ok"]);
    expect(r.json.notes).toBeUndefined(); // nothing of the killed run to abort
    expect(
      git(s.primary, "log", "--format=%s", "--first-parent", "main")
        .split("\n")
        .filter((m) => m.includes("agent-1")),
    ).toHaveLength(1);
    expect(git(s.primary, "status", "--porcelain")).toBe("");
    for (const f of ["agent-1.txt", "agent-2.txt"]) expect(existsSync(join(s.primary, f))).toBe(true);
  });

  it("the merge an earlier version left in progress when it was killed (its two steps) is aborted, and the rerun finishes the wave", () => {
    const a = agent(1);
    const b = agent(2);
    // what that version's `merge --no-ff --no-commit` of the wave's first entry left when killed before its commit
    git(s.primary, "merge", "-q", "--no-ff", "--no-commit", "-m", "chore: merge executor worktree (worktree-agent-1)", "worktree-agent-1");
    expect(existsSync(mergeHead())).toBe(true);
    const r = wave([a, b]);
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(r.json.notes.map((n: { code: string }) => n.code)).toEqual(["unfinished_merge_aborted"]);
    expect(statuses(r)).toEqual(["merged_removed:ok", "merged_removed:ok"]);
    expect(existsSync(mergeHead())).toBe(false);
    expect(git(s.primary, "status", "--porcelain")).toBe("");
  });

  it("a merge in progress that is not the wave's own is left for its owner: target_dirty", () => {
    const a = agent(1);
    const mine = s.worktree("human-work");
    s.commit({ in: mine, file: "human.txt" });
    git(s.primary, "merge", "--no-ff", "--no-commit", "human-work");
    const r = wave([a]);
    expect(r.code).toBe(3);
    expect(r.json.plan.reason).toBe("target_dirty");
    expect(r.json.notes).toBeUndefined();
    expect(readFileSync(mergeHead(), "utf8").trim()).toBe(git(s.primary, "rev-parse", "human-work"));
  });
});

describe("removal is verified (issue 10.7)", () => {
  it("a file that cannot be deleted does not block: the worktree is renamed into the trash, which keeps it", async (ctx) => {
    const a = agent(1, { file: "pinned/agent-1.txt" });
    if (!pin(join(a.worktree_path, "pinned", "agent-1.txt"))) return ctx.skip("this host cannot make a file undeletable");
    const r = wave([a]);
    expect(r.code, r.stdout).toBe(0);
    expect(statuses(r)).toEqual(["merged_removed:ok"]);
    expect(existsSync(a.worktree_path)).toBe(false);
    expect(listed(a.worktree_path)).toBe(false);
    // the purger leaves the entry it could not delete, with a note, and nothing else of it
    const trash = join(s.home, "trash");
    await waitFor(() => readdirSync(trash).some((e) => existsSync(join(trash, e, "failed"))));
    const [entry] = readdirSync(trash);
    const pinned = join(trash, entry as string, "tree", "pinned", "agent-1.txt");
    expect(existsSync(pinned)).toBe(true);
    unpin(pinned); // so that the scenario can be deleted
  });

  it("in place on another file system: git dropped the entry but files remain: worktree_remove_incomplete until they are gone, never already_done", (ctx) => {
    const far = otherFileSystem();
    if (!far) return ctx.skip("no second file system on this host");
    const a = agent(1, { file: "pinned/agent-1.txt", path: join(far, "agent-1") });
    const release = pin(join(a.worktree_path, "pinned", "agent-1.txt"));
    if (!release) return ctx.skip("this host cannot make a file undeletable");
    const r = wave([a]);
    expect(r.code).toBe(3);
    expect(statuses(r)).toEqual(["blocked:worktree_remove_incomplete"]);
    // git stops at the first file it cannot delete: what else is left depends on the directory order
    expect(r.json.result.entries[0].files).toContain("pinned/agent-1.txt");
    expect(listed(a.worktree_path)).toBe(false);
    expect(existsSync(a.worktree_path)).toBe(true);
    // the rerun sees its own leftover, not a finished entry
    expect(statuses(wave([a]))).toEqual(["blocked:worktree_remove_incomplete"]);
    // a file that is not in the merged commit is never deleted
    release();
    writeFileSync(join(a.worktree_path, "notes.md"), "written after the removal\n");
    const unique = wave([a]);
    expect(statuses(unique)).toEqual(["blocked:worktree_remove_incomplete"]);
    expect(unique.json.result.entries[0].files).toEqual(["notes.md"]);
    expect(readFileSync(join(a.worktree_path, "notes.md"), "utf8")).toBe("written after the removal\n");
    execFileSync("rm", [join(a.worktree_path, "notes.md")]);
    const done = wave([a]);
    expect(done.code, done.stdout).toBe(0);
    expect(statuses(done)).toEqual(["merged_removed:already_merged"]);
    expect(existsSync(a.worktree_path)).toBe(false);
    expect(branchExists(a.branch)).toBe(false);
    expect(statuses(wave([a]))).toEqual(["merged_removed:already_done"]);
  });

  it("git's entry that cannot be dropped is worktree_remove_failed, never merged_removed; the rerun finishes once it can", (ctx) => {
    if (process.getuid?.() !== 0) return ctx.skip("only root can make the admin dir itself undeletable (chattr +i)");
    const a = agent(1);
    const b = agent(2);
    const admin = s.adminDir(a.worktree_path);
    const release = pin(admin);
    if (!release) return ctx.skip("no immutable attribute on this file system");
    const r = wave([a, b]);
    expect(r.code, r.stdout).toBe(3);
    expect(statuses(r)).toEqual(["blocked:worktree_remove_failed"]);
    expect(r.json.result.entries[0].stderr).toContain(admin); // what could not be deleted
    expect(r.json.result.pending.map((e: { branch: string }) => e.branch)).toEqual([b.branch]);
    expect(listed(a.worktree_path)).toBe(true);
    expect(branchExists(a.branch)).toBe(true);
    expect(existsSync(join(s.primary, "agent-1.txt"))).toBe(true); // merged before the removal
    // still blocked while git's entry stays
    expect(statuses(wave([a, b]))).toEqual(["blocked:worktree_remove_failed"]);
    release();
    const done = wave([a, b]);
    expect(done.code, done.stdout).toBe(0);
    expect(statuses(done)).toEqual(["merged_removed:already_done", "merged_removed:ok"]); // the trash entry finished first: gone and merged
    expect(listed(a.worktree_path)).toBe(false);
    expect(existsSync(a.worktree_path)).toBe(false);
    expect(branchExists(a.branch)).toBe(false);
    expect(git(s.primary, "log", "--format=%s", "--first-parent", "main").match(/worktree-agent-1/g)).toHaveLength(1);
  });
});

describe("--dry-run (SPEC §3.9)", () => {
  it("prints the plan and every entry's verdict and changes nothing", () => {
    const a = agent(1);
    const b = agent(2);
    const c = agent(3);
    s.makeDirty(b.worktree_path, { untracked: true });
    const before = git(s.primary, "for-each-ref", "--format=%(refname) %(objectname)");
    const r = wave([a, b, c], ["--dry-run"]);
    expect(r.code).toBe(3);
    expect(r.json).toMatchObject({ ok: false, dryRun: true, result: { pending: [] } });
    expect(r.json.result.entries.map((e: { status: string; reason: string; steps?: string[] }) => [e.status, e.reason, e.steps])).toEqual([
      ["planned", "ok", ["merge", "remove", "delete_branch"]],
      ["blocked", "worktree_dirty", undefined],
      ["planned", "ok", ["merge", "remove", "delete_branch"]],
    ]);
    expect(git(s.primary, "for-each-ref", "--format=%(refname) %(objectname)")).toBe(before);
    for (const x of [a, b, c]) expect(listed(x.worktree_path)).toBe(true);
    const human = s.orchard(["cleanup-wave", "--manifest", join(s.root, "wave.json"), "--dry-run"], { json: false });
    expect(human.stdout).toContain("dry run: nothing changed");
    expect(human.stdout).toMatch(/planned +ok +worktree-agent-1 \(merge, remove, delete_branch\)/);
    // the real run does what the dry run said, up to the block
    expect(statuses(wave([a, b, c]))).toEqual(["merged_removed:ok", "blocked:worktree_dirty"]);
  });

  it("judges each entry against the target the earlier planned merges would leave", () => {
    const a = agent(1, { file: "README.md", content: "# from agent 1\n" });
    const b = agent(2, { file: "README.md", content: "# from agent 2\n" });
    const dry = wave([a, b], ["--dry-run"]);
    expect(statuses(dry)).toEqual(["planned:ok", "blocked:merge_conflict"]);
    expect(dry.json.result.entries[1].conflicts).toEqual(["README.md"]);
    expect(git(s.primary, "rev-parse", "main")).toBe(base);
    expect(statuses(wave([a, b]))).toEqual(["merged_removed:ok", "blocked:merge_conflict"]);
  });
});
