// One-worktree verbs cost one worktree (SPEC v5 §3, issue 48): the git processes `remove`,
// `status`, `heartbeat`, `release` and `merge --dry-run` of one worktree start are as many in a fleet of 3 as in a
// fleet of 12 (counted with ORCHARD_TRACE=1: counts, never times). A remove reads its worktree's
// facts once, under the lock, right before it acts (one status, no ref read again, no plan stored;
// no listing: the worktree's own entry is read from its admin files and its status, by handle or by
// path), and a crash right after its rename is finished by the next remove.
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { existsSync } from "node:fs";
import { Scenario, git, gitResult } from "../helpers/scenario.js";
import { killedAt } from "../helpers/crash.js";
import { atThreeAndTwelve, storedPlans, tracedGits } from "../helpers/counts.js";

let s: Scenario;
beforeEach(() => {
  s = Scenario.create();
});
afterEach(() => s.cleanup());

const add = (branch: string, owner = "agent"): { handle: string; path: string } => {
  const r = s.orchard(["add", branch, "--owner", owner, "--no-bootstrap"]);
  expect(r.code, r.stdout + r.stderr).toBe(0);
  return r.json;
};
const released = (branch: string): { handle: string; path: string } => {
  const w = add(branch);
  expect(s.orchard(["release", w.handle, "--owner", "agent"]).code).toBe(0);
  return w;
};
/** A released worktree with a commit of its own: what `merge` takes. */
const withCommit = (branch: string): { handle: string; path: string } => {
  const w = add(branch);
  s.commit({ in: w.path, file: `${branch}.txt` });
  expect(s.orchard(["release", w.handle, "--owner", "agent"]).code).toBe(0);
  return w;
};
/** The gits a command started, as `[orchard trace]` names them (argv and cwd). */
const gits = (args: string[]): string[] => {
  const r = s.orchard(args, { env: { ORCHARD_TRACE: "1" } });
  expect(r.code, r.stdout + r.stderr).toBe(0);
  return tracedGits(r.stderr);
};
const branchExists = (b: string): boolean => gitResult(s.primary, "rev-parse", "--verify", "--quiet", `refs/heads/${b}`).code === 0;
const plans = (): number => storedPlans(s.home);

describe("one worktree's verbs at 3 and at 12 worktrees", () => {
  it("start as many gits whatever the fleet; a remove reads the status and the refs once and stores no plan", () => {
    const round = (tag: string): Record<string, string[]> => {
      const w = add(`one-${tag}`);
      const counted = {
        status: gits(["status", w.handle]),
        heartbeat: gits(["heartbeat", w.handle, "--owner", "agent"]),
        release: gits(["release", w.handle, "--owner", "agent"]),
        remove: gits(["remove", w.handle]),
        removeByPath: gits(["remove", released(`path-${tag}`).path]),
        merge: gits(["merge", withCommit(`merge-${tag}`).handle, "--dry-run"]),
      };
      expect(existsSync(w.path)).toBe(false);
      expect(branchExists(`one-${tag}`)).toBe(false); // merged, orchard made it: deleted with it
      return counted;
    };
    const { small, large } = atThreeAndTwelve(s, add, round, 2); // and the two merge candidates
    // distinct commands: a query the command line starts early (the repo's dirs, its remotes) runs again when it has not
    // answered by the time it is needed, which is the machine's load, not the fleet's size; and the config vetting
    // (`config --show-origin`) runs once per change of the config files, kept by their identity once they are 2 s old
    // (git/warm/proof-cache.ts): a matter of the clock, not of the fleet
    const distinct = (argvs: string[] | undefined): number => new Set((argvs ?? []).filter((a) => !a.includes('"--show-origin"'))).size;
    for (const verb of Object.keys(small))
      expect(distinct(large[verb]), `${verb}: ${JSON.stringify(large[verb])} against ${JSON.stringify(small[verb])}`).toBe(distinct(small[verb]));
    for (const remove of [small.remove, large.remove, small.removeByPath, large.removeByPath]) {
      const named = (word: string): number => (remove ?? []).filter((argv) => argv.startsWith(`["${word}"`)).length;
      expect(named("status"), JSON.stringify(remove)).toBe(1);
      expect(named("worktree"), JSON.stringify(remove)).toBe(0); // git's entry for it from its admin files (focused-entry.ts), the branches held elsewhere from the other worktrees' HEADs
      expect(named("for-each-ref"), JSON.stringify(remove)).toBe(1); // the branch, its targets, the remotes: one read, never again in an apply
      expect(named("update-ref"), JSON.stringify(remove)).toBe(1);
    }
    expect(plans()).toBe(0); // a plain removal is judged and done in one step: no plan row
    for (const merge of [small.merge, large.merge])
      expect((merge ?? []).filter((argv) => argv.startsWith(`["worktree"`)).length, JSON.stringify(merge)).toBe(1);
  });
});

describe("remove killed right after the rename", () => {
  it("the next remove finishes it: git's entry dropped, the merged branch deleted, the row retired", () => {
    const w = released("feat-killed");
    const head = git(w.path, "rev-parse", "HEAD");
    killedAt(s, "remove.renamed", ["remove", w.handle]);
    expect(existsSync(w.path)).toBe(false);
    const again = s.orchard(["remove", w.handle]);
    expect(again.code, again.stdout + again.stderr).toBe(0);
    expect(again.json).toMatchObject({ ok: true, action: "removed", handle: w.handle });
    expect(git(s.primary, "worktree", "list", "--porcelain")).not.toContain(w.path);
    expect(branchExists("feat-killed")).toBe(false);
    expect(git(s.primary, "merge-base", "--is-ancestor", head, "main")).toBe(""); // its commit is the default branch's
    const gone = s.orchard(["status", w.handle]);
    expect(gone.code).toBe(2); // nothing left by that name
  });
});
