// `orchard salvage prune` (SPEC v4 §3): a salvage ref goes when its content is preserved elsewhere
// (reachable from the default branch: same commit, ancestor, or a merge that adds nothing; never by
// patch-id, SPEC v5 §4), or, asked by age, when it is older
// than --older-than; never silently: each pruned ref is listed with why and its commit.
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { Scenario, gitResult } from "../helpers/scenario.js";

let s: Scenario;
beforeEach(() => {
  s = Scenario.create();
});
afterEach(() => s.cleanup());

/** A worktree holding one untracked file, removed with --salvage: its salvage ref. */
function salvaged(branch: string, file: string, content: string): string {
  const w = s.orchard(["add", branch]).json as { handle: string; path: string };
  writeFileSync(join(w.path, file), content);
  const r = s.orchard(["remove", w.handle, "--salvage"]);
  expect(r.code, r.stdout + r.stderr).toBe(0);
  return r.json.salvageRef as string;
}
const refExists = (ref: string) => gitResult(s.primary, "rev-parse", "--verify", "--quiet", ref).code === 0;

describe("orchard salvage prune", () => {
  it("prunes what the default branch holds, keeps the rest with its reason, lists both; --older-than takes the rest by age", () => {
    const unique = salvaged("wip-a", "notes.txt", "only here\n");
    const landed = salvaged("wip-b", "landed.txt", "landed\n");
    s.commit({ file: "landed.txt", content: "landed\n" }); // the same file reached main another way

    const dry = s.orchard(["salvage", "prune", "--dry-run"]);
    expect(dry.code, dry.stdout).toBe(0);
    expect(dry.json).toMatchObject({ ok: true, dryRun: true, pruned: [{ ref: landed, why: "preserved", how: "merge_adds_nothing" }], kept: [{ ref: unique }] });
    expect(dry.json.kept[0].reasons.map((r: { code: string }) => r.code)).toEqual(["work_not_preserved"]);
    expect(dry.json.notes).toEqual([]);
    expect(dry.json.pruned[0].uniqueWork).toBeUndefined();
    expect(refExists(landed)).toBe(true);

    const human = s.orchard(["salvage", "prune"], { json: false });
    expect(human.code).toBe(0);
    expect(human.stdout).toContain(`pruned ${landed}`);
    expect(human.stdout).toContain(`kept ${unique}: work_not_preserved`);
    expect(refExists(landed)).toBe(false);
    expect(refExists(unique)).toBe(true);

    const young = s.orchard(["salvage", "prune", "--older-than", "30d"]);
    expect(young.json.pruned).toEqual([]);
    expect(young.json.kept[0].reasons.map((r: { code: string }) => r.code)).toEqual(["work_not_preserved", "too_recent"]);
    // by age, a ref holding work that exists nowhere else is marked, and the result says so (issue 50 item 7)
    const oldDry = s.orchard(["salvage", "prune", "--older-than", "0s", "--dry-run"]);
    expect(oldDry.json.pruned).toMatchObject([{ ref: unique, why: "older_than", uniqueWork: true }]);
    expect(oldDry.json.notes).toEqual([expect.objectContaining({ code: "salvage_unique_work", count: 1, refs: [unique] })]);
    const oldHuman = s.orchard(["salvage", "prune", "--older-than", "0s", "--dry-run"], { json: false }).stdout;
    expect(oldHuman).toMatch(/^would prune 1, kept 0 \(1 hold work that exists nowhere else\)$/m);
    expect(oldHuman).toContain("unique work: exists nowhere else");
    expect(refExists(unique)).toBe(true);
    const old = s.orchard(["salvage", "prune", "--older-than", "0s"]);
    expect(old.json.pruned).toMatchObject([{ ref: unique, why: "older_than" }]);
    expect(refExists(unique)).toBe(false);
    expect(s.orchard(["salvage", "list"]).json.salvages).toEqual([]);
  });

  it("a bad --older-than is bad input and prunes nothing", () => {
    const ref = salvaged("wip-c", "notes.txt", "x\n");
    const r = s.orchard(["salvage", "prune", "--older-than", "soon"]);
    expect(r.code).toBe(2);
    expect(refExists(ref)).toBe(true);
  });
});
