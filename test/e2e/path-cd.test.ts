// `orchard path`, `orchard shell-init` and the `orchard cd` it defines, in the real shells: bash
// evals the emitted function and `pwd` after `orchard cd` is the worktree. zsh and fish run the same
// way (test/helpers/shells.ts: skipped loudly where one is missing, a failure under CI).
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { spawnSync } from "node:child_process";
import { rmSync } from "node:fs";
import { Scenario } from "../helpers/scenario.js";
import { hermeticEnv } from "../helpers/env.js";
import { orchardOnPath } from "../helpers/claude-code.js";
import { requireShell, shellRuns } from "../helpers/shells.js";

let s: Scenario;
beforeEach(() => {
  s = Scenario.create();
});
afterEach(() => s.cleanup());

const add = (...args: string[]): { handle: string; path: string; branch: string } => {
  const r = s.orchard(["add", ...args]);
  expect(r.code, r.stdout + r.stderr).toBe(0);
  return r.json;
};

/** Runs `script` in `shell` with `orchard` on PATH and the scenario's workspace; stdout, stderr and status. */
function inShell(shell: string, script: string): { stdout: string; stderr: string; status: number | null } {
  const env = hermeticEnv(orchardOnPath(s.root, s.home));
  const r = spawnSync(shell, ["-c", script], { cwd: s.primary, env, encoding: "utf8" });
  return { stdout: r.stdout, stderr: r.stderr, status: r.status };
}

describe("orchard path", () => {
  it("prints the path of a handle, a branch, or a task in any spelling", () => {
    const a = add("feat-a", "--task", "https://github.com/acme/app/issues/7");
    for (const name of [a.handle, "feat-a", "acme/app#7", "https://github.com/ACME/app/issues/7"]) {
      const r = s.orchard(["path", name], { json: false });
      expect(r.code, `${name}: ${r.stderr}`).toBe(0);
      expect(r.stdout).toBe(`${a.path}\n`);
    }
    expect(s.orchard(["path", "acme/app#7"]).json).toMatchObject({ ok: true, path: a.path, handle: a.handle, via: "task", task: "github.com/acme/app#7" });
  });

  it("no target, ^ or the default branch: the primary", () => {
    add("feat-p");
    for (const args of [["path"], ["path", "^"], ["path", "main"]]) {
      const r = s.orchard(args, { json: false });
      expect(r.code, `${args.join(" ")}: ${r.stderr}`).toBe(0);
      expect(r.stdout).toBe(`${s.primary}\n`);
    }
    expect(s.orchard(["path"]).json).toMatchObject({ ok: true, path: s.primary, handle: null, branch: "main", via: "primary" });
  });

  it("prefers the active worktree of a task over a released one", () => {
    const old = add("old-1", "--task", "T-9", "--owner", "a");
    expect(s.orchard(["release", old.handle, "--owner", "a"]).code).toBe(0);
    const current = add("new-1", "--task", "T-9");
    expect(s.orchard(["path", "t-9"]).json).toMatchObject({ path: current.path, others: [old.handle] });
  });

  it("refuses a worktree whose directory is gone (exit 3, the add that recreates it), and an unknown name (exit 2)", () => {
    const a = add("feat-gone");
    rmSync(a.path, { recursive: true, force: true });
    const gone = s.orchard(["path", a.handle]);
    expect(gone.code).toBe(3);
    expect(gone.json).toMatchObject({ ok: false, next: "orchard add feat-gone" });
    const unknown = s.orchard(["path", "no-such-thing"]);
    expect(unknown.code).toBe(2);
    expect(unknown.json.error.code).toBe("not_a_worktree");
  });
});

describe("orchard path resolves without assessing (SPEC v5 §3)", () => {
  /** The git processes a command ran (its trace on stderr). */
  const gits = (stderr: string): string[] => stderr.split("\n").filter((l) => l.startsWith("[orchard trace] git "));

  it("answers a handle, a path, a branch and a task from the registry: no git process, the full path's answer", () => {
    const a = add("feat-q", "--task", "T-17");
    add("feat-other");
    for (const name of [a.handle, a.path, "feat-q", "t-17"]) {
      const quick = s.orchard(["path", name], { env: { ORCHARD_TRACE: "1" } });
      expect(quick.code, quick.stderr).toBe(0);
      expect(gits(quick.stderr), `${name}: ${quick.stderr}`).toEqual([]);
      // the whole command line answers the same (`--` is a spelling the quick path leaves to it)
      const full = s.orchard(["path", "--", name], { env: { ORCHARD_TRACE: "1" } });
      expect(gits(full.stderr).length, name).toBeGreaterThan(0);
      expect(quick.json, name).toEqual(full.json);
    }
    const handles = s.orchard(["__complete", "handles"], { json: false, env: { ORCHARD_TRACE: "1" } });
    expect(gits(handles.stderr)).toEqual([]);
    expect(handles.stdout.trim().split("\n").sort()).toEqual(
      s
        .orchard(["list"])
        .json.worktrees.flatMap((w: { handle: string | null }) => (w.handle ? [w.handle] : []))
        .sort(),
    );
  });

  it("no target, ^ and the default branch are the primary", () => {
    add("feat-p");
    for (const args of [["path"], ["path", "^"], ["path", "main"]]) {
      const text = s.orchard(args, { json: false });
      expect(text.stdout, args.join(" ")).toBe(`${s.primary}\n`);
      expect(s.orchard(args).json, args.join(" ")).toEqual({ ok: true, path: s.primary, handle: null, branch: "main", task: null, via: "primary" });
    }
  });

  it("a worktree the registry does not know is found by git's listing; nothing is assessed", () => {
    const plain = `${s.root}/plain-wt`;
    s.git("worktree", "add", "-q", "-b", "plain", plain);
    const r = s.orchard(["path", plain], { env: { ORCHARD_TRACE: "1" } });
    expect(r.json).toMatchObject({ ok: true, path: plain, handle: null, branch: "plain", via: "target" });
    expect(gits(r.stderr).some((l) => l.includes('"status"'))).toBe(false);
  });
});

describe("orchard shell-init and orchard cd", () => {
  it("bash: `orchard cd` changes the shell's directory; other verbs pass through; a failure leaves it where it was", () => {
    const a = add("feat-cd", "--task", "T-42");
    const r = inShell(
      "bash",
      `set -u; eval "$(orchard shell-init bash)"; orchard cd t-42 && pwd; orchard cd no-such-thing; echo "status $? in $(pwd)"; orchard --version >/dev/null && echo passed; orchard cd && pwd; orchard cd t-42 && orchard cd ^ && pwd; orchard cd t-42 && orchard cd main && pwd`,
    );
    expect(r.stdout.split("\n")).toEqual([a.path, `status 2 in ${a.path}`, "passed", s.primary, s.primary, s.primary, ""]);
    expect(r.stderr).toContain("no-such-thing");
  });

  it("without the function, `orchard cd` says how to get it (exit 2); an unknown shell is bad input", () => {
    const r = s.orchard(["cd", "x"], { json: false });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("orchard shell-init");
    const bad = s.orchard(["shell-init", "tcsh"]);
    expect(bad.code).toBe(2);
    expect(bad.json.error.code).toBe("invalid_argument");
  });

  for (const shell of ["zsh", "fish"]) {
    it.runIf(shellRuns(shell, "path-cd.test.ts"))(`${shell}: the emitted function parses and \`orchard cd\` changes the directory`, () => {
      requireShell(shell);
      const a = add("feat-cd", "--task", "T-43");
      const script =
        shell === "fish"
          ? "orchard shell-init fish | source; orchard cd t-43; and pwd; and orchard cd; and pwd; and orchard cd t-43; and orchard cd ^; and pwd"
          : 'eval "$(orchard shell-init zsh)"; orchard cd t-43 && pwd && orchard cd && pwd && orchard cd t-43 && orchard cd ^ && pwd';
      const r = inShell(shell, script);
      expect(r.stdout.trim().split("\n"), r.stderr).toEqual([a.path, s.primary, s.primary]);
    });
  }
});
