// Shell completion in the real bash, zsh and fish (test/helpers/shells.ts): commands, options,
// option values (never a handle after `--strategy`), the codes of `explain`, the shells of
// `completion` and `shell-init`, live handles, task ids and branches, plan ids and salvage refs; and
// a ref or branch an agent named `x$(cmd)` is neither offered nor run.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { Scenario, git } from "../helpers/scenario.js";
import { orchardOnPath } from "../helpers/claude-code.js";
import { SHELLS, completeIn, requireShell, shellRuns, type ShellRun } from "../helpers/shells.js";

let s: Scenario;
let run: ShellRun;
let a: { handle: string; branch: string };
let ref: string;
let plan: string;
const pwned = () => ["PWNED-ref", "PWNED-branch"].filter((f) => existsSync(join(s.primary, f)));

beforeAll(() => {
  s = Scenario.create();
  a = s.orchard(["add", "billing", "--owner", "agent-1", "--task", "T-42"]).json;
  const wip = s.orchard(["add", "wip", "--owner", "me"]).json;
  s.makeDirty(wip.path);
  s.orchard(["release", wip.handle, "--owner", "me"]);
  expect(s.orchard(["cleanup", "run", "--include", "needs_salvage", "--salvage"]).code).toBe(0);
  ref = s.orchard(["salvage", "list"]).json.salvages[0].ref;
  plan = s.orchard(["cleanup", "plan"]).json.planId;
  // what an agent may name: a salvage ref and a branch whose names are shell code
  const tip = git(s.primary, "rev-parse", "HEAD").trim();
  git(s.primary, "update-ref", "refs/orchard/salvage/x$(touch${IFS}PWNED-ref)/1", tip);
  git(s.primary, "worktree", "add", "-q", "-b", "y$(touch${IFS}PWNED-branch)", join(s.root, "evil"));
  run = { cwd: s.primary, env: orchardOnPath(s.root, s.home) };
}, 120_000);
afterAll(() => s.cleanup());

describe("__complete prints only names of Orchard's shape", () => {
  it("an unknown shell is bad input (exit 2)", () => {
    expect(s.orchard(["completion", "tcsh"], { json: false }).code).toBe(2);
  });

  it("the salvage ref and the branch named as shell code are left out", () => {
    const refs = s.orchard(["__complete", "salvage-refs"], { json: false }).stdout.split("\n").filter(Boolean);
    expect(refs).toContain(ref);
    expect(refs.some((r) => r.includes("$"))).toBe(false);
    expect(s.orchard(["salvage", "list"]).json.salvages.some((x: { ref: string }) => x.ref.includes("$("))).toBe(true); // it is there
    const targets = s.orchard(["__complete", "targets"], { json: false }).stdout.split("\n").filter(Boolean);
    expect(targets).toEqual(expect.arrayContaining([a.handle, a.branch, "t-42"]));
    expect(targets.some((t) => t.includes("$"))).toBe(false);
  });
});

for (const shell of SHELLS) {
  describe.runIf(shellRuns(shell, "completion.test.ts"))(`${shell} completion`, () => {
    const complete = (line: string) => {
      requireShell(shell);
      return completeIn(shell, line, run);
    };

    it("commands, options and option values; never a handle after --strategy", () => {
      expect(complete("orchard cleanup-w")).toEqual(["cleanup-wave"]);
      expect(complete("orchard add --pol")).toEqual(["--policy"]);
      expect(complete("orchard merge --strategy ")).toEqual(["merge", "rebase", "squash"]);
      expect(complete("orchard merge --strategy sq")).toEqual(["squash"]);
      expect(complete("orchard cleanup-wave --strategy r")).toEqual(["rebase"]);
      expect(complete("orchard add --policy rec")).toEqual(["recycle-terminal"]);
      expect(complete("orchard cleanup plan --include needs")).toEqual(["needs_salvage"]);
      expect(complete("orchard release --outcome ab")).toEqual(["abandoned"]);
      expect(complete("orchard claude-code install --via n")).toEqual(["npx"]);
      expect(complete("orchard explain live_o")).toEqual(["live_owner"]);
      expect(complete("orchard completion ")).toEqual(["bash", "fish", "zsh"]);
      expect(complete("orchard shell-init z")).toEqual(["zsh"]);
    });

    it("handles, task ids and branches for cd, path and merge; plan ids; salvage refs; nothing an agent named as code", () => {
      expect(complete("orchard release ")).toContain(a.handle);
      for (const verb of ["cd", "path", "merge"]) expect(complete(`orchard ${verb} `), verb).toEqual(expect.arrayContaining([a.handle, a.branch, "t-42"]));
      expect(complete("orchard merge --dry-run bil")).toEqual([a.branch]);
      expect(complete("orchard cleanup apply ")).toContain(plan);
      expect(complete("orchard cleanup apply ").every((p) => /^\d{8}T/.test(p))).toBe(true);
      const refs = complete("orchard salvage restore ");
      expect(refs).toContain(ref);
      expect(refs.some((r) => r.includes("$"))).toBe(false);
      expect(complete("orchard cd y")).toEqual([]);
      expect(pwned()).toEqual([]);
    });
  });
}
