// SPEC v3 §4.2: an argument that is not valid UTF-8 is exit 2 `invalid_input` (node would hand git
// other bytes than were given); a repository whose path holds a newline works, every path git
// prints being read NUL-terminated (or, for rev-parse, split where only one split is possible).
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, renameSync } from "node:fs";
import { join } from "node:path";
import { CLI, Scenario, deadPid, git, gitResult } from "../helpers/scenario.js";
import { hermeticEnv } from "../helpers/env.js";
import { PROCESS_TIMEOUT_MS } from "../helpers/time.js";

let s: Scenario;
beforeEach(() => {
  s = Scenario.create();
});
afterEach(() => s.cleanup());

/** The CLI with raw bytes in its arguments (a shell's printf makes them; node's spawn would encode UTF-8). */
function orchardBytes(args: string): { code: number; json: { ok: boolean; error?: { code: string } } } {
  const r = spawnSync("sh", ["-c", `exec "${process.execPath}" "${CLI}" --home "${s.home}" --repo "${s.primary}" --json ${args}`], {
    env: hermeticEnv(),
    encoding: "utf8",
    timeout: PROCESS_TIMEOUT_MS,
  });
  return { code: r.status ?? -1, json: JSON.parse(r.stdout) };
}

describe("arguments that are not UTF-8", () => {
  it("are exit 2 invalid_input and create nothing; a branch that exists under such a name is refused the same way", () => {
    const r = orchardBytes(`add "$(printf 'x\\377')"`);
    expect(r).toEqual({ code: 2, json: { ok: false, error: expect.objectContaining({ code: "invalid_input" }) } });
    expect(git(s.primary, "for-each-ref", "--format=%(refname)", "refs/heads")).toBe("refs/heads/main"); // no x\uFFFD branch
    spawnSync("sh", ["-c", `git branch "$(printf 'bad\\377')" main`], { cwd: s.primary, env: hermeticEnv() });
    expect(orchardBytes(`add "$(printf 'bad\\377')" --owner o`)).toMatchObject({ code: 2, json: { error: { code: "invalid_input" } } });
    expect(orchardBytes(`add --task "$(printf 't\\300')" feat-a`)).toMatchObject({ code: 2, json: { error: { code: "invalid_input" } } });
    // such a branch on the remote: every read still works (refs go back to git by object id)
    spawnSync("sh", ["-c", `git push -q origin "$(printf 'bad\\377')" && git fetch -q origin`], { cwd: s.primary, env: hermeticEnv() });
    const add = s.orchard(["add", "feat-b", "--owner", "o", "--no-bootstrap"]);
    expect(s.orchard(["release", add.json.handle, "--owner", "o"]).code).toBe(0);
    for (const args of [["list", "--full"], ["hygiene"], ["cleanup", "run"]]) expect(s.orchard(args).code, args.join(" ")).toBe(0);
    expect(existsSync(add.json.path)).toBe(false);
    // U+FFFD itself is valid UTF-8: a branch may carry it
    expect(orchardBytes(`add "$(printf 'ok\\357\\277\\275')" --dry-run`).code).toBe(0);
  });
});

describe("a repository whose path holds a newline", () => {
  it("lists, adds, reports, cleans and reaps like any other", () => {
    const parent = join(s.root, "new\nline");
    mkdirSync(parent);
    const primary = join(parent, "app");
    renameSync(s.primary, primary);
    const run = (...args: string[]) => s.orchard([...args, "--repo", primary], { cwd: primary });
    const foreign = join(parent, "agent\nwt");
    git(primary, "worktree", "add", "-q", "-b", "worktree-agent-1", foreign, "main");
    git(primary, "worktree", "lock", "--reason", `claude agent agent-1 (pid ${deadPid()})`, foreign);

    const list = run("list");
    expect(list.code, list.stdout + list.stderr).toBe(0);
    expect(list.json.repo.primary).toBe(primary);
    expect(list.json.worktrees.map((w: { path: string }) => w.path)).toEqual([foreign]);
    const add = run("add", "feat-a", "--owner", "o1", "--no-bootstrap");
    expect(add.code, add.stdout + add.stderr).toBe(0);
    expect(run("status", add.json.handle).json.worktree).toMatchObject({ branch: "feat-a", dirty: expect.objectContaining({ tracked: 0 }) });
    const hygiene = run("hygiene");
    expect(hygiene.code).toBe(0);
    expect(hygiene.json.worktrees.find((w: { path: string }) => w.path === foreign)).toMatchObject({ branch: "worktree-agent-1" });
    expect(run("release", add.json.handle, "--owner", "o1").code).toBe(0);
    expect(run("cleanup", "run").code).toBe(0);
    expect(existsSync(add.json.path)).toBe(false); // released, merged and clean: removed
    s.ageLock(foreign, 600);
    const reap = run("reap-orphans");
    expect(reap.json.entries).toEqual([expect.objectContaining({ path: foreign, status: "reaped" })]);
    expect(existsSync(foreign)).toBe(false);
    expect(
      gitResult(primary, "worktree", "list", "--porcelain", "-z")
        .stdout.split("\0")
        .filter((l) => l.startsWith("worktree ")),
    ).toEqual([`worktree ${primary}`]);
  });
});
