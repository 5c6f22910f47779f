// SPEC §4.7: ignored files are work unless they can be had again. The scenario of issue 10: a
// GSD-like repository whose .gitignore holds `.planning/`, `TO-DOS.md`, `.env` and
// `node_modules/`. Every destructive path refuses on unique ignored files (`ignored_files`) and
// salvage keeps them; disposable ones (node_modules/, a `.env` identical to the primary's) do not
// block anything.
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { appendFileSync, existsSync, mkdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { Scenario, git, deadPid, type CliResult } from "../helpers/scenario.js";

let s: Scenario;
beforeEach(() => {
  s = Scenario.create();
  appendFileSync(join(s.primary, ".gitignore"), ".planning/\nTO-DOS.md\n.env\n");
  s.git("commit", "-q", "-am", "gsd ignores");
  s.git("push", "-q", "origin", "main");
  writeFileSync(join(s.primary, ".env"), "API_KEY=primary\n");
});
afterEach(() => s.cleanup());

function put(root: string, rel: string, content: string): void {
  mkdirSync(dirname(join(root, rel)), { recursive: true });
  writeFileSync(join(root, rel), content);
}

function ok(r: CliResult, code = 0): CliResult {
  expect(r.code, r.stdout + r.stderr).toBe(code);
  return r;
}

/** A managed worktree with no commits of its own (merged), released by its owner. */
function releasedWorktree(branch: string): { handle: string; path: string } {
  const add = ok(s.orchard(["add", branch, "--owner", "agent-1", "--no-bootstrap"])).json as { handle: string; path: string };
  ok(s.orchard(["release", add.handle, "--owner", "agent-1"]));
  return add;
}

/** The GSD work of the issue: planning notes, a to-do list and a changed `.env`. */
function gsdWork(path: string): void {
  put(path, ".planning/phase-3/PLAN.md", "# phase 3\n- [ ] ship it\n");
  put(path, "TO-DOS.md", "- call Alice\n");
  put(path, ".env", "API_KEY=changed-in-the-worktree\n");
}

/** Only what can be had again: dependencies, and the `.env` bootstrap copied unchanged. */
function disposableOnly(path: string): void {
  put(path, "node_modules/left-pad/index.js", "module.exports = 1;\n");
  put(path, ".env", "API_KEY=primary\n");
}

const showAt = (ref: string, file: string) => git(s.primary, "show", `${ref}:${file}`);
const rowOf = (r: CliResult, handle: string) => r.json.worktrees.find((w: { handle: string }) => w.handle === handle);

describe("facts", () => {
  it("status reports unique ignored files as dirty.ignored; disposable ones do not count", () => {
    const w = releasedWorktree("feat-gsd");
    gsdWork(w.path);
    disposableOnly(join(w.path, "sub")); // sub/node_modules is disposable; sub/.env has no twin in the primary
    const dirty = ok(s.orchard(["status", w.handle])).json.worktree.dirty;
    expect(dirty).toMatchObject({ tracked: 0, untracked: 0 });
    expect(dirty.ignored).toEqual({
      count: 4,
      bytes: expect.any(Number),
      sample: [".env", ".planning/phase-3/PLAN.md", "TO-DOS.md", "sub/.env"],
    });
  });
});

describe("hygiene and cleanup", () => {
  it("a released merged worktree holding GSD work is needs_salvage (ignored_files); cleanup run keeps it", () => {
    const w = releasedWorktree("feat-gsd");
    gsdWork(w.path);
    const row = rowOf(ok(s.orchard(["hygiene"])), w.handle);
    expect(row.disposition).toBe("needs_salvage");
    expect(row.reasons).toContainEqual(expect.objectContaining({ code: "ignored_files", count: 3 }));
    const run = ok(s.orchard(["cleanup", "run"]));
    expect(JSON.stringify(run.json)).toContain(w.path);
    expect(existsSync(join(w.path, ".planning/phase-3/PLAN.md"))).toBe(true);
    expect(existsSync(join(w.path, "TO-DOS.md"))).toBe(true);
  });

  it("cleanup run --include needs_salvage --salvage keeps the ignored files in the salvage ref, then removes", () => {
    const w = releasedWorktree("feat-gsd");
    gsdWork(w.path);
    const run = ok(s.orchard(["cleanup", "run", "--include", "needs_salvage", "--salvage"]));
    expect(existsSync(w.path)).toBe(false);
    const refs = git(s.primary, "for-each-ref", "--format=%(refname)", "refs/orchard/salvage/").split("\n").filter(Boolean);
    expect(refs, JSON.stringify(run.json)).toHaveLength(1);
    const ref = refs[0] as string;
    expect(showAt(ref, ".planning/phase-3/PLAN.md")).toBe("# phase 3\n- [ ] ship it");
    expect(showAt(ref, "TO-DOS.md")).toBe("- call Alice");
    expect(showAt(ref, ".env")).toBe("API_KEY=changed-in-the-worktree");
  });

  it("a worktree holding only disposable ignored files is reclaimable and cleanup run removes it", () => {
    const w = releasedWorktree("feat-deps");
    disposableOnly(w.path);
    const row = rowOf(ok(s.orchard(["hygiene"])), w.handle);
    expect(row).toMatchObject({ disposition: "reclaimable", dirty: { ignored: { count: 0, bytes: 0, sample: [] } } });
    ok(s.orchard(["cleanup", "run"]));
    expect(existsSync(w.path)).toBe(false);
  });

  it("config disposable and bootstrap.preserve add to the default list", () => {
    writeFileSync(join(s.primary, ".orchard.json"), JSON.stringify({ disposable: ["*.sqlite"], bootstrap: { preserve: ["TO-DOS.md"] } }));
    const w = releasedWorktree("feat-cfg");
    put(w.path, "cache/db.sqlite", "x");
    put(w.path, "TO-DOS.md", "generated\n");
    appendFileSync(join(s.primary, ".git", "info", "exclude"), "cache/\n");
    const row = rowOf(ok(s.orchard(["hygiene"])), w.handle);
    expect(row).toMatchObject({ disposition: "reclaimable", dirty: { ignored: { count: 0 } } });
    put(w.path, ".planning/notes.md", "mine\n");
    expect(rowOf(ok(s.orchard(["hygiene"])), w.handle)).toMatchObject({ disposition: "needs_salvage", dirty: { ignored: { count: 1 } } });
  });

  it("an ignored file created after planning is a changed precondition: apply skips the removal", () => {
    const w = releasedWorktree("feat-late");
    const plan = ok(s.orchard(["cleanup", "plan"])).json;
    expect(plan.items.map((i: { path: string }) => i.path)).toContain(w.path);
    put(w.path, ".planning/late.md", "written after the plan\n");
    const applied = ok(s.orchard(["cleanup", "apply", plan.planId])).json;
    const item = applied.items.find((i: { path: string }) => i.path === w.path);
    expect(item.state ?? item.status).toBe("skipped");
    expect(existsSync(join(w.path, ".planning/late.md"))).toBe(true);
  });
});

describe("reap-orphans", () => {
  /** A dead Claude Code agent's merged worktree (no commits of its own). */
  function deadAgent(branch: string): string {
    const path = s.worktree(branch, { lock: `claude agent ${branch} (pid ${deadPid()})` });
    s.ageLock(path, 600);
    return path;
  }
  const entryFor = (r: CliResult, path: string) => r.json.entries.find((e: { path: string }) => e.path === path);

  it("does not remove a dead agent's merged worktree holding .planning/SUMMARY.md (ignored_files)", () => {
    const path = deadAgent("worktree-agent-gsd");
    put(path, ".planning/SUMMARY.md", "what the agent learned\n");
    const r = ok(s.orchard(["reap-orphans"]));
    expect(entryFor(r, path)).toMatchObject({ status: "skipped", reason: "ignored_files" });
    expect(existsSync(join(path, ".planning/SUMMARY.md"))).toBe(true);
    // the step that takes it is the sweep with --salvage (the files saved in its salvage ref), not "move them away"
    expect(JSON.stringify(entryFor(r, path))).toContain("orchard reap-orphans --salvage");
    expect(s.orchard(["reap-orphans"], { json: false }).stdout).toContain("↳ orchard reap-orphans --salvage");
  });

  it("with --salvage the salvage ref holds the ignored file, then the worktree is reaped", () => {
    const path = deadAgent("worktree-agent-gsd");
    put(path, ".planning/SUMMARY.md", "what the agent learned\n");
    const entry = entryFor(ok(s.orchard(["reap-orphans", "--salvage"])), path);
    expect(entry).toMatchObject({ status: "reaped", salvageRef: expect.stringMatching(/^refs\/orchard\/salvage\//) });
    expect(existsSync(path)).toBe(false);
    expect(showAt(entry.salvageRef, ".planning/SUMMARY.md")).toBe("what the agent learned");
  });

  it("a file over 10 MiB makes salvage refuse (salvage_too_large) rather than drop it; nothing is removed", () => {
    const path = deadAgent("worktree-agent-big");
    put(path, ".planning/dump.bin", "x".repeat(10 * 1024 * 1024 + 1));
    const entry = entryFor(ok(s.orchard(["reap-orphans", "--salvage"])), path);
    expect(entry).toMatchObject({ status: "skipped", reason: "salvage_too_large" });
    expect(existsSync(join(path, ".planning/dump.bin"))).toBe(true);
    expect(git(s.primary, "for-each-ref", "refs/orchard/salvage/")).toBe("");
  });

  it("a worktree with only disposable ignored files is reaped", () => {
    const path = deadAgent("worktree-agent-deps");
    disposableOnly(path);
    expect(entryFor(ok(s.orchard(["reap-orphans"])), path)).toMatchObject({ status: "reaped" });
    expect(existsSync(path)).toBe(false);
  });
});

describe("recycle and the exact handle", () => {
  it("recycle refuses a worktree holding unique ignored files (ignored_files)", () => {
    const w = releasedWorktree("feat-old");
    put(w.path, ".planning/PLAN.md", "mine\n");
    const r = ok(s.orchard(["recycle", w.handle, "--branch", "feat-new", "--owner", "agent-2"]), 3);
    expect(r.json.reasons).toContainEqual(expect.objectContaining({ code: "ignored_files", count: 1, sample: [".planning/PLAN.md"] }));
    expect(existsSync(join(w.path, ".planning/PLAN.md"))).toBe(true);
  });

  it("recycle goes ahead when the ignored files are disposable", () => {
    const w = releasedWorktree("feat-old");
    disposableOnly(w.path);
    const r = ok(s.orchard(["recycle", w.handle, "--branch", "feat-new", "--owner", "agent-2"]));
    expect(r.json.action).toBe("recycled");
  });

  it("re-adding the exact handle is refused with ignored_files; --resume adopts it with a note", () => {
    const add = ok(s.orchard(["add", "feat-x", "--owner", "agent-1", "--no-bootstrap"])).json;
    put(add.path, ".planning/STATE.md", "phase 2\n");
    const again = ok(s.orchard(["add", "feat-x", "--owner", "agent-1", "--no-bootstrap"]), 3).json;
    expect(again.reasons).toContainEqual(expect.objectContaining({ code: "ignored_files", count: 1 }));
    const resumed = ok(s.orchard(["add", "feat-x", "--owner", "agent-1", "--no-bootstrap", "--resume"])).json;
    expect(resumed.action).toBe("adopted");
    expect(resumed.notes).toContainEqual(expect.objectContaining({ code: "ignored_files" }));
  });
});

describe("cleanup-wave", () => {
  it("step 5 blocks an entry whose worktree holds unique ignored files; disposable ones pass", () => {
    const base = git(s.primary, "rev-parse", "main");
    const entry = (n: number) => {
      const branch = `worktree-agent-${n}`;
      const path = s.worktree(branch);
      s.commit({ in: path, file: `agent-${n}.txt` });
      return { agent_id: `agent-${n}`, worktree_path: path, branch, expected_base: base };
    };
    const a = entry(1);
    disposableOnly(a.worktree_path);
    const b = entry(2);
    put(b.worktree_path, ".planning/SUMMARY.md", "notes\n");
    const manifest = join(s.root, "wave.json");
    writeFileSync(manifest, JSON.stringify([a, b]));
    const r = ok(s.orchard(["cleanup-wave", "--manifest", manifest]), 3);
    expect(r.json.result.entries.map((e: { status: string; reason: string }) => `${e.status}:${e.reason}`)).toEqual([
      "merged_removed:ok",
      "blocked:ignored_files",
    ]);
    expect(existsSync(join(b.worktree_path, ".planning/SUMMARY.md"))).toBe(true);
  });
});

describe("husks", () => {
  it("a husk holding unique ignored files is husk_has_files: kept without --salvage, in the salvage ref with it", () => {
    appendFileSync(join(s.primary, ".git", "info", "exclude"), ".planning/\nnode_modules/\n"); // a husk has no .gitignore of its own
    const husk = join(s.home, "worktrees", "app@gsd-husk");
    put(husk, ".planning/STATE.md", "phase 4\n");
    const deps = join(s.home, "worktrees", "app@deps-husk");
    put(deps, "node_modules/x/index.js", "disposable\n");
    const report = ok(s.orchard(["hygiene"])).json;
    const at = (path: string) => report.worktrees.find((w: { path: string }) => w.path === path);
    expect(at(husk).reasons, JSON.stringify(at(husk))).toContainEqual(expect.objectContaining({ code: "husk_has_files", files: 0, ignored: 1 }));
    expect(at(deps).reasons).toContainEqual(expect.objectContaining({ code: "husk_only_ignored" }));
    ok(s.orchard(["cleanup", "run", "--include", "husk"]));
    expect(existsSync(join(husk, ".planning/STATE.md"))).toBe(true);
    expect(existsSync(deps)).toBe(false);
    const run = ok(s.orchard(["cleanup", "run", "--include", "husk", "--salvage"])).json;
    expect(existsSync(husk)).toBe(false);
    const ref = git(s.primary, "for-each-ref", "--format=%(refname)", "refs/orchard/salvage/");
    expect(ref, JSON.stringify(run)).toMatch(/^refs\/orchard\/salvage\/app@gsd-husk\//);
    expect(showAt(ref, ".planning/STATE.md")).toBe("phase 4");
  });
});
