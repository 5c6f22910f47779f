// A scripted day of a fleet (issue 11): agents on a few tasks written in mixed spellings against a
// GitHub-looking origin, work pushed and merged, a crash (a dead pid's lease), re-adds — asserting
// the candidates, duplicate groups, canonical members and suggestions, with the real CLI.
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { Scenario, git, liveProcess, waitFor } from "../helpers/scenario.js";
import { pidState } from "../../src/core/shared/process.js";

let s: Scenario;
beforeEach(() => {
  s = Scenario.create();
});
afterEach(() => s.cleanup());

const T7 = "github.com/o/r#7";
const T8 = "github.com/o/r#8";
const T9 = "github.com/o/r#9";

type Json = Record<string, any>;
const ok = (args: string[]): Json => {
  const r = s.orchard(args);
  expect(r.code, `${args.join(" ")}\n${r.stdout}${r.stderr}`).toBe(0);
  return r.json;
};
const commit = (path: string, file: string): void => {
  writeFileSync(join(path, file), `${file}\n`);
  git(path, "add", file);
  git(path, "commit", "-qm", `work on ${file}`);
};
const candidates = (r: Json): [string, string][] => (r.candidates as Json[]).map((c): [string, string] => [c.handle, c.kind]).sort();

describe("a day of a fleet", () => {
  it("mixed spellings, merges, a crash and re-adds: the exact candidates, groups, canonical members and suggestions", async () => {
    const origin = s.origin;
    s.git("remote", "set-url", "origin", "git@github.com:o/r.git"); // a GitHub origin for task references
    s.git("remote", "set-url", "--push", "origin", origin); // pushes still reach the bare repo

    // morning: three agents on task 7, written three ways
    const a1 = ok(["add", "fix-7", "--task", "https://github.com/o/r/issues/7", "--owner", "agent-1"]);
    expect(a1).toMatchObject({ action: "created", task: T7, candidates: [] });
    const a2 = ok(["add", "fix-7-b", "--task", "o/r#7", "--owner", "agent-2"]);
    expect(a2.task).toBe(T7);
    expect(candidates(a2)).toEqual([[a1.handle, "same_task"]]);
    // task 8: one agent pushes work, a second starts the same task written as GH-8
    const a3 = ok(["add", "fix-8", "--task", "GH-8", "--owner", "agent-3"]);
    expect(a3.task).toBe(T8);
    commit(a3.path, "eight.txt");
    s.push("fix-8", a3.path);
    const a4 = ok(["add", "fix-8-b", "--task", "http://github.com/O/R/issues/8/", "--owner", "agent-4"]);
    expect(a4.task).toBe(T8);
    expect(candidates(a4)).toEqual([[a3.handle, "same_task"]]);
    // task 9: an agent with a pid crashes with uncommitted work
    const proc = liveProcess();
    const a5 = ok(["add", "spike-9", "--task", "#9", "--owner", "agent-5", "--pid", String(proc.pid)]);
    expect(a5.task).toBe(T9);
    s.makeDirty(a5.path);
    proc.stop();
    await waitFor(() => pidState(proc.pid) === "dead", "the crashed agent to exit");

    // noon: agent-1's work is merged into main and pushed, agent-1 releases
    commit(a1.path, "seven.txt");
    s.mergeIntoMain("fix-7");
    ok(["release", a1.handle, "--owner", "agent-1", "--outcome", "done"]);
    // agent-2 re-adds its handle (a restart): adopted, still its lease
    const again = ok(["add", "fix-7-b", "--task", "github.com/o/r/issues/7", "--owner", "agent-2"]);
    expect(again).toMatchObject({ action: "adopted", handle: a2.handle, owner: "agent-2" });

    const report = ok(["hygiene"]);
    const byHandle = new Map((report.worktrees as Json[]).map((w) => [w.handle, w]));
    const disposition = (h: string) => byHandle.get(h)?.disposition;
    expect({
      [a1.handle]: disposition(a1.handle),
      [a2.handle]: disposition(a2.handle),
      [a3.handle]: disposition(a3.handle),
      [a4.handle]: disposition(a4.handle),
      [a5.handle]: disposition(a5.handle),
    }).toEqual({ [a1.handle]: "reclaimable", [a2.handle]: "live", [a3.handle]: "live", [a4.handle]: "live", [a5.handle]: "needs_salvage" });
    // task 7: the live empty re-added member outranks the released merged one; task 8: pushed work wins
    expect(report.duplicateTaskGroups).toEqual([
      { repo: "github.com/o/r", task: T7, handles: [a1.handle, a2.handle], canonical: a2.handle, others: [a1.handle], conflict: false },
      { repo: "github.com/o/r", task: T8, handles: [a3.handle, a4.handle], canonical: a3.handle, others: [a4.handle], conflict: false },
    ]);
    const suggestions = Object.fromEntries((report.worktrees as Json[]).map((w) => [w.handle, w.suggestion.command]));
    expect(suggestions).toEqual({
      [a1.handle]: "orchard cleanup run",
      [a2.handle]: null,
      [a3.handle]: null,
      [a4.handle]: null,
      [a5.handle]: "orchard cleanup run --include needs_salvage --salvage",
    });
    expect(report.preventableDuplicates.count).toBe(0);

    // afternoon: a new agent takes task 7 as `#7` without a policy — a preventable duplicate
    const a6 = ok(["add", "fix-7-c", "--task", "#7", "--owner", "agent-6"]);
    expect(a6).toMatchObject({ action: "created", task: T7 });
    expect(candidates(a6)).toEqual([
      [a1.handle, "same_task"],
      [a2.handle, "same_task"],
    ]);
    // neither could have been taken: a live lease, and a released one whose base has moved on
    const why = Object.fromEntries((a6.candidates as Json[]).map((c) => [c.handle, [c.eligible, (c.reasons as Json[]).map((r) => r.code)]]));
    expect(why).toEqual({ [a1.handle]: [false, ["base_drift"]], [a2.handle]: [false, ["live_owner", "base_drift"]] });
    const later = ok(["hygiene"]);
    expect(later.preventableDuplicates.count).toBe(0);
    expect(later.duplicateTaskGroups[0]).toEqual({
      repo: "github.com/o/r",
      task: T7,
      handles: [a1.handle, a2.handle, a6.handle],
      canonical: a2.handle, // live, then oldest: the newcomer never outranks it
      others: [a1.handle, a6.handle],
      conflict: false,
    });

    // evening: the crashed agent restarts and re-adds its handle without --pid (and --resume, its work is dirty): the dead pid is
    // dropped (it would make the fresh lease look dead), the worktree and its work are live again
    const back = ok(["add", "spike-9", "--task", "o/r#9", "--owner", "agent-5", "--resume"]); // its own dirty work: --resume
    expect(back).toMatchObject({ action: "adopted", handle: a5.handle, lease: { owner: "agent-5", pid: null } });
    const night = ok(["hygiene"]);
    const spike = (night.worktrees as Json[]).find((w) => w.handle === a5.handle) as Json;
    expect(spike).toMatchObject({ disposition: "live", task: T9, owner: "agent-5", suggestion: { command: null } });
    expect(spike.dirty.untracked).toBe(1);
    // cleanup takes only the released, merged member; everything with an owner or work stays
    const run = ok(["cleanup", "run"]);
    expect((run.items as Json[]).filter((i) => i.state === "done").map((i) => [i.action, i.handle])).toEqual([
      ["remove", a1.handle],
      ["delete_branch", a1.handle],
    ]);
    expect((run.kept as Json[]).map((k) => k.handle).sort()).toEqual([a2.handle, a3.handle, a4.handle, a5.handle, a6.handle].sort());
  }, 60_000);
});
