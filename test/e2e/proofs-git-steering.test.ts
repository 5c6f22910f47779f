// Proofs read git as it is, not as an agent set it up (SPEC v5 §4). Each case is a way git lets a
// repository steer what a read answers or what a write deletes: a lying `core.fsmonitor` hook
// (trusted, or the user's own watchman that misses an event), auto-gc configured by the repository,
// a `refs/replace/` ref or `info/grafts` line that forges main's history. Every destructive path
// keeps the work.
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { chmodSync, existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { Scenario, git, gitResult, deadPid, type CliResult } from "../helpers/scenario.js";
import { hermeticEnv } from "../helpers/env.js";

let s: Scenario;
beforeEach(() => {
  s = Scenario.create();
});
afterEach(() => s.cleanup());

function ok(r: CliResult, code = 0): CliResult {
  expect(r.code, r.stdout + r.stderr).toBe(code);
  return r;
}

const branchExists = (b: string): boolean => gitResult(s.primary, "rev-parse", "--verify", "--quiet", `refs/heads/${b}`).code === 0;
const objectExists = (sha: string): boolean => gitResult(s.primary, "cat-file", "-e", sha).code === 0;

/** An Orchard worktree, released (its lease ended), with nothing of its own: merged as it stands. */
function released(branch: string): { handle: string; path: string } {
  const w = ok(s.orchard(["add", branch, "--owner", "agent-1", "--no-bootstrap"])).json as { handle: string; path: string };
  ok(s.orchard(["release", w.handle, "--owner", "agent-1"]));
  return w;
}

/** `orchard trust` as a person gives it (`--yes`: no terminal here). */
function trust(): void {
  writeFileSync(join(s.primary, ".orchard.json"), "{}\n");
  ok(s.orchard(["trust", "--yes"]));
}

/** git with `env` over the hermetic environment (a global config of the test's own). */
function gitWith(env: Record<string, string>, cwd: string, ...args: string[]): string {
  return execFileSync("git", args, { cwd, env: hermeticEnv(env), encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] });
}

describe("a core.fsmonitor hook that lies", () => {
  /** A hook (fsmonitor protocol 2) that answers "nothing changed" whatever changed. */
  function lyingHook(): string {
    const hook = join(s.root, "fsmonitor-lies.sh");
    writeFileSync(hook, "#!/bin/sh\nprintf 'orchard-lie\\0'\n");
    chmodSync(hook, 0o755);
    return hook;
  }

  /** A tracked file changed in `path`, which plain git (the hook in force, its index holding the hook's token) calls clean. */
  function hiddenChange(path: string, env: Record<string, string> = {}): void {
    gitWith(env, path, "status", "--porcelain"); // git writes the index with the hook's token: every entry "valid"
    gitWith(env, path, "status", "--porcelain");
    writeFileSync(join(path, "README.md"), "uncommitted work the hook hides\n");
    expect(gitWith(env, path, "status", "--porcelain")).toBe(""); // the lie works for git itself
    // (without the hook git sees it; GIT_OPTIONAL_LOCKS=0: that status must not rewrite the index without the hook's token)
    expect(gitWith({ ...env, GIT_OPTIONAL_LOCKS: "0" }, path, "-c", "core.fsmonitor=false", "status", "--porcelain")).toContain("README.md");
    expect(gitWith(env, path, "status", "--porcelain")).toBe("");
  }

  const work = (path: string): string => readFileSync(join(path, "README.md"), "utf8");

  it("trusted: the worktree is dirty to status and hygiene; remove and cleanup run keep it", () => {
    git(s.primary, "config", "core.fsmonitor", lyingHook());
    trust();
    const w = released("feat-fsm");
    hiddenChange(w.path);
    expect(ok(s.orchard(["status", w.handle])).json.worktree.dirty.tracked).toBe(1);
    const row = ok(s.orchard(["hygiene"])).json.worktrees.find((x: { handle: string }) => x.handle === w.handle);
    expect(row.disposition).not.toBe("reclaimable");
    const r = ok(s.orchard(["remove", w.handle]), 3);
    expect(r.json.reasons.map((x: { code: string }) => x.code)).toContain("dirty");
    ok(s.orchard(["cleanup", "run"]));
    expect(work(w.path)).toBe("uncommitted work the hook hides\n");
  });

  it("the user's own hook (global config: an honest watchman that missed an event): reap-orphans skips the dead agent's dirty worktree", () => {
    const global = join(s.root, "global-gitconfig");
    writeFileSync(global, `[core]\n\tfsmonitor = ${lyingHook()}\n`);
    const env = { GIT_CONFIG_GLOBAL: global };
    const path = s.worktree("worktree-agent-fsm", { lock: `claude agent agent-fsm (pid ${deadPid()})` });
    s.ageLock(path, 600);
    hiddenChange(path, env);
    const r = ok(s.orchard(["reap-orphans"], { env }));
    expect(r.json.entries.find((e: { path: string }) => e.path === path)).toMatchObject({ status: "skipped", reason: "worktree_dirty" });
    expect(work(path)).toBe("uncommitted work the hook hides\n");
    // with --salvage the work is saved before the worktree goes
    const salvaged = ok(s.orchard(["reap-orphans", "--salvage"], { env })).json.entries.find((e: { path: string }) => e.path === path);
    expect(salvaged.salvageRef, JSON.stringify(salvaged)).toMatch(/^refs\/orchard\/salvage\//);
    expect(git(s.primary, "show", `${salvaged.salvageRef}:README.md`)).toBe("uncommitted work the hook hides");
  });
});

describe("auto-gc configured by the repository", () => {
  /** Two loose blobs under objects/17/: git's `gc --auto` counts that directory against gc.auto (here 1). */
  function looseObjectsGcCounts(): void {
    let found = 0;
    for (let n = 0; found < 2; n++) {
      const content = `loose ${n}\n`;
      const id = createHash("sha1")
        .update(`blob ${Buffer.byteLength(content)}\0${content}`)
        .digest("hex");
      if (!id.startsWith("17")) continue;
      writeFileSync(join(s.root, "loose.txt"), content);
      expect(git(s.primary, "hash-object", "-w", join(s.root, "loose.txt"))).toBe(id);
      found++;
    }
  }

  it("orchard merge and cleanup-wave land without pruning the owner's reflog-only commit", () => {
    // the work to land, made before the repository's gc settings (a plain `git commit` runs gc --auto too)
    const w = ok(s.orchard(["add", "feat-gc", "--owner", "agent-1", "--no-bootstrap"])).json as { handle: string; path: string };
    s.commit({ in: w.path, file: "feat.txt" });
    ok(s.orchard(["release", w.handle, "--owner", "agent-1"]));
    const base = git(s.primary, "rev-parse", "main");
    const path = s.worktree("worktree-agent-gc");
    s.commit({ in: path, file: "agent.txt" });
    // the owner's commit, then reset away: only the reflog holds it (git update-ref can bring it back)
    const owned = s.commit({ file: "owner-draft.txt", content: "the owner's draft\n" });
    git(s.primary, "reset", "-q", "--hard", "HEAD~1");
    for (const [key, value] of [
      ["gc.auto", "1"],
      ["gc.autoDetach", "false"],
      ["gc.pruneExpire", "now"],
      ["gc.reflogExpire", "now"],
      ["gc.reflogExpireUnreachable", "now"],
    ] as const)
      git(s.primary, "config", key, value);

    looseObjectsGcCounts();
    ok(s.orchard(["merge", w.handle]));
    expect(git(s.primary, "log", "-1", "--format=%s")).toContain("feat-gc");
    expect(objectExists(owned), "the reflog-only commit after merge").toBe(true);

    looseObjectsGcCounts();
    const manifest = join(s.root, "wave.json");
    writeFileSync(manifest, JSON.stringify([{ agent_id: "a", worktree_path: path, branch: "worktree-agent-gc", expected_base: base }]));
    ok(s.orchard(["cleanup-wave", "--manifest", manifest]));
    expect(existsSync(path)).toBe(false);
    expect(objectExists(owned), "the reflog-only commit after cleanup-wave").toBe(true);
  });
});

describe("replace refs and grafts that forge main's history", () => {
  /** An Orchard worktree with one commit of its own, never pushed or merged, released. */
  function unmerged(branch: string): { handle: string; path: string; tip: string } {
    const w = ok(s.orchard(["add", branch, "--owner", "agent-1", "--no-bootstrap"])).json as { handle: string; path: string };
    const tip = s.commit({ in: w.path, file: `${branch}.txt`, content: "work that exists only on this branch\n" });
    ok(s.orchard(["release", w.handle, "--owner", "agent-1"]));
    return { ...w, tip };
  }

  /** main's tip (and origin's) with `tips` added as parents: by replace ref, or by a grafts line. */
  function forge(tips: string[], how: "replace" | "graft"): void {
    const [main, ...parents] = git(s.primary, "--no-replace-objects", "rev-list", "--parents", "-n", "1", "main").split(" ");
    if (how === "replace") git(s.primary, "replace", "-f", "--graft", main!, ...parents, ...tips);
    else writeFileSync(join(s.primary, ".git", "info", "grafts"), `${[main, ...parents, ...tips].join(" ")}\n`);
    for (const tip of tips) expect(gitResult(s.primary, "merge-base", "--is-ancestor", tip, "main").code, "the forgery works for git itself").toBe(0);
  }

  for (const how of ["replace", "graft"] as const)
    it(`${how}: remove and cleanup run keep the unmerged branch and its worktree; reap-orphans skips it`, () => {
      const w = unmerged(`feat-${how}`);
      forge([w.tip], how);
      const r = ok(s.orchard(["remove", w.handle]), 3);
      expect(r.json.ok).toBe(false);
      expect(branchExists(`feat-${how}`)).toBe(true);
      s.orchard(["cleanup", "run", "--include", "reclaimable,idle"]);
      expect(branchExists(`feat-${how}`)).toBe(true);
      expect(existsSync(w.path)).toBe(true);

      const path = s.worktree(`worktree-agent-${how}`, { lock: `claude agent a-${how} (pid ${deadPid()})` });
      const tip = s.commit({ in: path, file: "agent.txt" });
      s.ageLock(path, 600);
      forge([w.tip, tip], how);
      const reap = ok(s.orchard(["reap-orphans"]));
      expect(reap.json.entries.find((e: { path: string }) => e.path === path)).toMatchObject({ status: "skipped" });
      expect(existsSync(path)).toBe(true);
    });
});
