// `orchard recycle` (SPEC §3.4), the recycle-terminal policy and lineage (§3.5): every refusal of
// the recycle proof next to its success, against real git and the real CLI.
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import Database from "better-sqlite3";
import { Scenario, git, deadPid, liveProcess } from "../helpers/scenario.js";

let s: Scenario;
beforeEach(() => {
  s = Scenario.create();
});
afterEach(() => s.cleanup());

const codes = (reasons: { code: string }[]): string[] => reasons.map((r) => r.code).sort();
const TRUSTED = { env: { ORCHARD_TRUST: "1" } };

/** A worktree whose work is finished: committed, pushed, released. */
function finished(branch: string, options: { task?: string; owner?: string } = {}): { handle: string; path: string; head: string } {
  const args = ["add", branch, ...(options.task ? ["--task", options.task] : []), ...(options.owner ? ["--owner", options.owner] : [])];
  const added = s.orchard(args).json;
  const head = s.commit({ in: added.path, message: `work on ${branch}` });
  s.push(branch, added.path);
  expect(s.orchard(["release", added.handle, ...(options.owner ? ["--owner", options.owner] : [])]).json.ok).toBe(true);
  return { handle: added.handle, path: added.path, head };
}

/** Asserts a refused recycle changed nothing: same path, same branch, no new branch. */
function unchanged(old: { path: string }, branch: string, newBranch: string): void {
  expect(existsSync(old.path)).toBe(true);
  expect(git(old.path, "rev-parse", "--abbrev-ref", "HEAD")).toBe(branch);
  expect(git(s.primary, "branch", "--list", newBranch)).toBe("");
}

describe("orchard recycle", () => {
  it("switches, cleans, moves and locks a finished worktree; lineage links both handles", () => {
    const old = finished("feat-a", { task: "T-1", owner: "a1" });
    mkdirSync(join(old.path, "node_modules"));
    writeFileSync(join(old.path, "node_modules", "leftover.js"), "disposable leftovers\n");
    const r = s.orchard(["recycle", old.handle, "--branch", "feat-b", "--task", "T-2", "--owner", "a2"]);
    expect(r.code).toBe(0);
    const main = git(s.primary, "rev-parse", "main");
    expect(r.json).toMatchObject({
      ok: true,
      action: "recycled",
      handle: "app@feat-b",
      branch: "feat-b",
      task: "t-2",
      owner: "a2",
      head: main,
      base: { ref: "refs/heads/main", commit: main },
      lineage: {
        from: { handle: old.handle, branch: "feat-a", head: old.head, task: "t-1", owner: "a1" },
        to: { handle: "app@feat-b", branch: "feat-b", base: { ref: "refs/heads/main", commit: main }, task: "t-2" },
      },
    });
    expect(r.json.path).toBe(join(s.home, "worktrees", "app@feat-b"));
    expect(existsSync(old.path)).toBe(false);
    expect(existsSync(join(r.json.path, "node_modules", "leftover.js"))).toBe(false);
    expect(git(r.json.path, "rev-parse", "--abbrev-ref", "HEAD")).toBe("feat-b");
    expect(git(s.primary, "rev-parse", "feat-a")).toBe(old.head);
    const lock = readFileSync(join(s.adminDir(r.json.path), "locked"), "utf8");
    expect(lock).toContain('"handle":"app@feat-b"');
    expect(lock).toContain('"owner":"a2"');
    expect(s.orchard(["status", "app@feat-b"]).json.worktree).toMatchObject({ lifecycle: "active", task: "t-2", owner: "a2" });
    const events = s.orchard(["lineage", "app@feat-b"]).json.events;
    expect(events.map((e: { kind: string; handle: string }) => `${e.kind} ${e.handle}`)).toEqual([
      `created ${old.handle}`,
      `released ${old.handle}`,
      "recycled app@feat-b",
    ]);
    expect(s.orchard(["lineage", old.handle]).json.events).toEqual(events);
    expect(s.orchard(["lineage", "T-2"]).json.events.map((e: { kind: string }) => e.kind)).toEqual(["recycled"]);
    expect(s.orchard(["add", "feat-a"]).json.action).toBe("created");
  });

  it("checks out an existing branch as it is, and is recycled again later", () => {
    const old = finished("feat-a");
    git(s.primary, "branch", "feat-b", "main");
    const tip = s.commit({ message: "main moves" });
    git(s.primary, "branch", "-f", "feat-b", tip);
    const r = s.orchard(["recycle", old.path, "--branch", "feat-b"]).json;
    expect(r).toMatchObject({ action: "recycled", head: tip });
    s.orchard(["release", r.handle]);
    const again = s.orchard(["recycle", r.handle, "--branch", "feat-c"]).json;
    expect(again.action).toBe("recycled");
    const kinds = s.orchard(["lineage", "app@feat-c"]).json.events.map((e: { kind: string; handle: string }) => `${e.kind} ${e.handle}`);
    expect(kinds).toEqual([`created ${old.handle}`, `released ${old.handle}`, "recycled app@feat-b", "released app@feat-b", "recycled app@feat-c"]);
  });

  it("--dry-run proves and plans, changing nothing", () => {
    const old = finished("feat-a");
    const r = s.orchard(["recycle", old.handle, "--branch", "feat-b", "--dry-run"]);
    expect(r.code).toBe(0);
    expect(r.json).toMatchObject({ action: "planned", handle: "app@feat-b", lineage: { from: { handle: old.handle } } });
    unchanged(old, "feat-a", "feat-b");
  });

  it("a worktree whose branch was merged (not pushed) is preserved work", () => {
    const added = s.orchard(["add", "feat-a"]).json;
    s.commit({ in: added.path, message: "merged later" });
    s.orchard(["release", added.handle]);
    s.mergeIntoMain("feat-a");
    expect(s.orchard(["recycle", added.handle, "--branch", "feat-b"]).json.action).toBe("recycled");
  });
});

describe("orchard recycle failures", () => {
  it("a git step that fails undoes the earlier ones (exit 1): unlocked, old branch, old path, still terminal", () => {
    const old = finished("feat-a");
    git(s.primary, "branch", "feat-b/x", "main"); // `feat-b` cannot be created next to `feat-b/x`
    const r = s.orchard(["recycle", old.handle, "--branch", "feat-b"]);
    expect(r.code).toBe(1);
    expect(r.json.error).toMatchObject({ code: "recycle_failed", message: expect.stringContaining("(undone)") });
    unchanged(old, "feat-a", "feat-b");
    expect(existsSync(join(s.adminDir(old.path), "locked"))).toBe(false);
    expect(s.orchard(["status", old.handle]).json.worktree.lifecycle).toBe("terminal");
    expect(s.orchard(["lineage", old.handle]).json.events.map((e: { kind: string }) => e.kind)).toEqual(["created", "released"]);
  });

  it("lineage outlives the worktree", () => {
    const old = finished("feat-a", { task: "T-1" });
    const r = s.orchard(["recycle", old.handle, "--branch", "feat-b", "--task", "T-1"]).json;
    git(s.primary, "worktree", "remove", "--force", "--force", r.path);
    expect(s.orchard(["lineage", "T-1"]).json.events.map((e: { kind: string }) => e.kind)).toEqual(["created", "released", "recycled"]);
  });
});

describe("orchard recycle refusals (exit 3, nothing changes)", () => {
  it("not_managed: a foreign worktree", () => {
    const foreign = s.worktree("foreign-a");
    const r = s.orchard(["recycle", foreign, "--branch", "feat-b"]);
    expect(r.code).toBe(3);
    expect(codes(r.json.reasons)).toEqual(["not_managed"]);
    unchanged({ path: foreign }, "foreign-a", "feat-b");
  });

  it("not_terminal: an active worktree", () => {
    const a = s.orchard(["add", "feat-a"]).json;
    const r = s.orchard(["recycle", a.handle, "--branch", "feat-b"]);
    expect(r.code).toBe(3);
    expect(codes(r.json.reasons)).toEqual(["not_terminal"]);
    unchanged(a, "feat-a", "feat-b");
  });

  it("live_owner: a process works inside", () => {
    const old = finished("feat-a");
    const proc = liveProcess(old.path);
    try {
      const r = s.orchard(["recycle", old.handle, "--branch", "feat-b"]);
      expect(r.code).toBe(3);
      expect(codes(r.json.reasons)).toEqual(["live_owner"]);
    } finally {
      proc.stop();
    }
    unchanged(old, "feat-a", "feat-b");
  });

  it("liveness_unknown and foreign_lock: a lock orchard cannot read", () => {
    const old = finished("feat-a");
    s.lockAs(old.path, "held by some tool");
    const r = s.orchard(["recycle", old.handle, "--branch", "feat-b"]);
    expect(codes(r.json.reasons)).toEqual(["foreign_lock", "liveness_unknown"]);
    unchanged(old, "feat-a", "feat-b");
  });

  it("foreign_lock: another tool's lock, even with a dead pid", () => {
    const old = finished("feat-a");
    s.lockAs(old.path, String(deadPid()));
    const r = s.orchard(["recycle", old.handle, "--branch", "feat-b"]);
    expect(codes(r.json.reasons)).toEqual(["foreign_lock"]);
    unchanged(old, "feat-a", "feat-b");
  });

  it("dirty: untracked or changed files", () => {
    const old = finished("feat-a");
    s.makeDirty(old.path, { tracked: true, untracked: true });
    const r = s.orchard(["recycle", old.handle, "--branch", "feat-b"]);
    expect(r.json.reasons).toEqual([expect.objectContaining({ code: "dirty", tracked: 1, untracked: 1 })]);
    expect(readFileSync(join(old.path, "untracked-work.txt"), "utf8")).toBe("precious\n");
    unchanged(old, "feat-a", "feat-b");
  });

  it("operation_in_progress: a merge stopped on a conflict", () => {
    const old = finished("feat-a");
    s.commit({ in: old.path, file: "README.md", content: "theirs\n" });
    s.push("feat-a", old.path);
    s.commit({ file: "README.md", content: "ours\n" });
    expect(() => git(old.path, "merge", "-q", "main")).toThrow();
    const r = s.orchard(["recycle", old.handle, "--branch", "feat-b"]);
    expect(codes(r.json.reasons)).toEqual(expect.arrayContaining(["dirty", "operation_in_progress"]));
    expect(existsSync(join(s.adminDir(old.path), "MERGE_HEAD"))).toBe(true);
  });

  it("work_not_preserved: commits on no remote and not merged; also with no remote at all", () => {
    const a = s.orchard(["add", "feat-a"]).json;
    const head = s.commit({ in: a.path, message: "only here" });
    s.orchard(["release", a.handle]);
    const r = s.orchard(["recycle", a.handle, "--branch", "feat-b"]);
    expect(r.code).toBe(3);
    expect(r.json.reasons).toEqual([expect.objectContaining({ code: "work_not_preserved", head, unpushed: 1 })]);
    unchanged(a, "feat-a", "feat-b");
    const local = Scenario.create({ noRemote: true });
    try {
      const b = local.orchard(["add", "feat-a"]).json;
      local.commit({ in: b.path, message: "no remote" });
      local.orchard(["release", b.handle]);
      expect(codes(local.orchard(["recycle", b.handle, "--branch", "feat-b"]).json.reasons)).toEqual(["work_not_preserved"]);
    } finally {
      local.cleanup();
    }
  });

  it("branch_checked_out and handle_taken: where it would go is not free", () => {
    const old = finished("feat-a");
    const other = s.orchard(["add", "feat-b"]).json;
    const r = s.orchard(["recycle", old.handle, "--branch", "feat-b"]);
    expect(codes(r.json.reasons)).toEqual(["branch_checked_out", "handle_taken", "path_occupied"]);
    expect(existsSync(other.path)).toBe(true);
    expect(codes(s.orchard(["recycle", old.handle, "--branch", "main"]).json.reasons)).toEqual(["branch_checked_out"]);
  });

  it("every reason at once, not only the first", () => {
    const a = s.orchard(["add", "feat-a"]).json;
    s.commit({ in: a.path, message: "only here" });
    s.makeDirty(a.path);
    const r = s.orchard(["recycle", a.handle, "--branch", "feat-b"]);
    expect(codes(r.json.reasons)).toEqual(["dirty", "not_terminal", "work_not_preserved"]);
  });
});

describe("bootstrap.preserve", () => {
  /** A repo whose bootstrap builds node_modules and counts its runs. */
  function buildingRepo(): void {
    s.commit({ file: "package-lock.json", content: '{"lock":1}\n' });
    s.push("main");
    writeFileSync(
      join(s.primary, ".orchard.json"),
      JSON.stringify({
        bootstrap: {
          run: ['mkdir -p node_modules && echo built > node_modules/dep.js && echo run >> "$ORCHARD_PRIMARY/../runs.log"'],
          inputs: ["package-lock.json"],
          preserve: ["node_modules"],
        },
      }),
    );
  }
  const runs = (): number => readFileSync(join(s.root, "runs.log"), "utf8").split("\n").filter(Boolean).length;

  it("keeps preserved paths and skips the commands when the bootstrap fingerprint is unchanged", () => {
    buildingRepo();
    const a = s.orchard(["add", "feat-a"], TRUSTED).json;
    expect(runs()).toBe(1);
    s.orchard(["release", a.handle]);
    const r = s.orchard(["recycle", a.handle, "--branch", "feat-b"], TRUSTED).json;
    expect(r.bootstrap).toMatchObject({ status: "reused", fingerprint: a.bootstrap.fingerprint });
    expect(r.bootstrap.steps.find((x: { name: string }) => x.name.startsWith("run:"))).toMatchObject({ status: "skipped", reason: "bootstrap_reused" });
    expect(readFileSync(join(r.path, "node_modules", "dep.js"), "utf8")).toBe("built\n");
    expect(runs()).toBe(1);
  });

  it("cleans everything and bootstraps again when the inputs differ", () => {
    buildingRepo();
    const a = s.orchard(["add", "feat-a"], TRUSTED).json;
    writeFileSync(join(a.path, "node_modules", "stale.js"), "old\n");
    s.orchard(["release", a.handle]);
    s.commit({ file: "package-lock.json", content: '{"lock":2}\n' });
    s.push("main");
    const r = s.orchard(["recycle", a.handle, "--branch", "feat-b"], TRUSTED).json;
    expect(r.bootstrap.status).toBe("ran");
    expect(r.bootstrap.fingerprint).not.toBe(a.bootstrap.fingerprint);
    expect(existsSync(join(r.path, "node_modules", "stale.js"))).toBe(false);
    expect(existsSync(join(r.path, "node_modules", "dep.js"))).toBe(true);
    expect(runs()).toBe(2);
  });
});

describe("policy recycle-terminal", () => {
  it("recycles a terminal worktree of the same task instead of creating", () => {
    const old = finished("feat-a", { task: "T-1" });
    const r = s.orchard(["add", "feat-b", "--task", "t-1", "--policy", "recycle-terminal", "--owner", "a2"]);
    expect(r.code).toBe(0);
    expect(r.json).toMatchObject({ action: "recycled", handle: "app@feat-b", owner: "a2", lineage: { from: { handle: old.handle } } });
    expect(r.json.candidates).toEqual([expect.objectContaining({ handle: old.handle, kind: "same_task", lifecycle: "terminal" })]);
    expect(existsSync(old.path)).toBe(false);
    expect(git(s.primary, "worktree", "list").split("\n")).toHaveLength(2);
  });

  it("then any terminal worktree with the same bootstrap fingerprint, oldest release first, skipping unprovable ones", () => {
    const dirty = finished("feat-a", { task: "T-1" });
    s.makeDirty(dirty.path);
    const next = finished("feat-b", { task: "T-2" });
    const newer = finished("feat-c", { task: "T-3" });
    const r = s.orchard(["add", "feat-d", "--task", "T-9", "--policy", "recycle-terminal"]).json;
    expect(r).toMatchObject({ action: "recycled", lineage: { from: { handle: next.handle } } });
    expect(existsSync(dirty.path)).toBe(true);
    expect(existsSync(newer.path)).toBe(true);
    expect(existsSync(next.path)).toBe(false);
  });

  it("creates when nothing passes the proof; dry run plans a recycle without doing it", () => {
    const a = s.orchard(["add", "feat-a", "--task", "T-1"]).json;
    s.commit({ in: a.path, message: "unpushed" });
    s.orchard(["release", a.handle]);
    const created = s.orchard(["add", "feat-b", "--task", "T-1", "--policy", "recycle-terminal"]).json;
    expect(created.action).toBe("created");
    const old = finished("feat-c", { task: "T-3" });
    const planned = s.orchard(["add", "feat-d", "--task", "T-3", "--policy", "recycle-terminal", "--dry-run"]).json;
    expect(planned).toMatchObject({ action: "planned", handle: "app@feat-d", lineage: { from: { handle: old.handle } } });
    expect(planned.notes.map((n: { code: string }) => n.code)).toContain("recycle_planned");
    expect(existsSync(old.path)).toBe(true);
    expect(git(s.primary, "branch", "--list", "feat-d")).toBe("");
  });

  it("a terminal worktree with another bootstrap fingerprint is not recycled for another task", () => {
    writeFileSync(join(s.primary, ".orchard.json"), JSON.stringify({ bootstrap: { copy: [".env"] } }));
    finished("feat-a", { task: "T-1" });
    writeFileSync(join(s.primary, ".orchard.json"), JSON.stringify({ bootstrap: { copy: [".env", ".env.local"] } }));
    expect(s.orchard(["add", "feat-b", "--task", "T-2", "--policy", "recycle-terminal"]).json.action).toBe("created");
  });
});

describe("identity survives the registry", () => {
  it("a recycled worktree whose row the registry lost is recovered from orchard.json by the next add", () => {
    const old = s.orchard(["add", "feat-old", "--task", "T-1"]).json;
    expect(s.orchard(["release", old.handle]).code).toBe(0);
    const recycled = s.orchard(["recycle", old.handle, "--branch", "feat-new", "--task", "T-2"]).json;
    expect(recycled.action).toBe("recycled");
    // the registry forgets the recycle: git and orchard.json say "new", the registry says "old"
    const db = new Database(join(s.home, "orchard.db"));
    db.prepare("UPDATE worktrees SET lifecycle = 'terminal', superseded_by = NULL WHERE handle = ?").run(old.handle);
    db.prepare("DELETE FROM worktrees WHERE handle = ?").run(recycled.handle);
    db.close();
    const again = s.orchard(["add", "feat-new", "--task", "T-2"]);
    expect(again.code, again.stdout).toBe(0);
    expect(again.json).toMatchObject({ action: "adopted", handle: recycled.handle, path: recycled.path, branch: "feat-new", task: "t-2" });
  });
});
