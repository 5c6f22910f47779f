// A scripted day of a fleet (issue 11), with the real CLI against a GitHub-looking origin: twelve
// agents on six tasks, each task written several ways (forge URLs, http/https, scheme-less,
// O/R#N, #N, GH-N, mixed case); merges of every kind (a merge commit, a squash and a rebase
// merge on the forge, a wave merged into local main without a push); a `git fetch` that moves
// origin/main ahead; agents killed with SIGKILL while their pid is in a lease; re-adds. Every
// step asserts the exact candidates, duplicate groups, canonical members and suggestions, and
// every hint is followed to prove it works. Agents are named a1…a12 in the assertions.
//
// The day is one story in one repository, told in six parts: each is a test of its own (its own
// budget: the whole day is ~45 CLI calls over a dozen worktrees, minutes on a busy machine), and each
// starts only where the part before it ended.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { Scenario, git, liveProcess, waitFor } from "../helpers/scenario.js";
import { pidState } from "../../src/core/ownership/process.js";

type Json = Record<string, any>;
type Agent = { pid: number; stop: () => void };

let s: Scenario;
let agents: Agent[];
beforeAll(() => {
  s = Scenario.create();
  agents = [];
});
afterAll(() => {
  for (const a of agents) a.stop();
  s.cleanup();
});

const T = (n: number): string => `github.com/o/r#${n}`;
const who = new Map<string, string>(); // handle → agent name, for short assertions

const run = (args: string[], code = 0): Json => {
  const r = s.orchard(args);
  expect(r.code, `${args.join(" ")}\n${r.stdout}${r.stderr}`).toBe(code);
  return r.json;
};
/** `orchard add` as agent `name`; remembers the handle under that name. */
const add = (name: string, branch: string, task: string, ...extra: string[]): Json => {
  const r = run(["add", branch, "--task", task, "--owner", `agent-${name.slice(1)}`, ...extra]);
  if (r.action === "created") who.set(r.handle, name);
  return r;
};
const agent = (): Agent => {
  const a = liveProcess();
  agents.push(a);
  return a;
};
const crash = async (a: Agent): Promise<void> => {
  a.stop(); // SIGKILL: no release, no cleanup — the pid in its lease is simply gone
  await waitFor(() => pidState(a.pid) === "dead", `agent pid ${a.pid} to die`);
};
const commit = (path: string, file: string): void => {
  writeFileSync(join(path, file), `${file}\n`);
  git(path, "add", file);
  git(path, "commit", "-qm", `work on ${file}`);
};
const name = (handle: string): string => who.get(handle) ?? handle;
/** Candidates as `[agent, kind, lifecycle, reason codes]` (eligible ⇔ no codes). */
const candidates = (r: Json): [string, string, string, string[]][] =>
  (r.candidates as Json[]).map((c) => {
    expect(c.eligible).toBe(c.reasons.length === 0);
    return [name(c.handle), c.kind, c.lifecycle, (c.reasons as Json[]).map((x) => x.code)];
  });
/** Every managed worktree as `agent: [disposition, suggested command]`. */
const board = (report: Json): Record<string, [string, string | null]> =>
  Object.fromEntries((report.worktrees as Json[]).map((w) => [name(w.handle), [w.disposition, w.suggestion.command]]));
/** Duplicate-task groups as `[task number, members, canonical, conflict]`. */
const groups = (report: Json): [string, string[], string, boolean][] =>
  (report.duplicateTaskGroups as Json[]).map((g) => {
    expect(g.others).toEqual(g.handles.filter((h: string) => h !== g.canonical));
    return [g.task.replace("github.com/o/r", ""), g.handles.map(name).sort(), name(g.canonical), g.conflict];
  });

describe("a day of a fleet: twelve agents, six tasks in mixed spellings, every kind of merge, a fetch, crashes and re-adds", () => {
  // what the parts hand on to each other
  let bare: string, perfCommit: string;
  let p3: Agent, p6: Agent, p8: Agent;
  let a1: Json, a2: Json, a3: Json, a4: Json, a5: Json, a6: Json, a7: Json, a8: Json, a9: Json, a10: Json, a12: Json, noon: Json;
  /** The part of the day that ended last: a part starts only where the one before it ended. */
  let ended = 0;
  const part = (n: number): void => expect(ended, "an earlier part of the day failed").toBe(n - 1);

  it("morning: twelve agents start six tasks, each written another way; an exclusive add is refused; a re-add keeps its pid", () => {
    part(1);
    bare = s.origin;
    s.git("remote", "set-url", "origin", "git@github.com:o/r.git"); // a GitHub origin: #N and GH-N resolve against it
    s.git("config", `url.${bare}.insteadOf`, "git@github.com:o/r.git"); // …while fetch and push reach the bare repo
    const p1 = agent();
    p3 = agent();
    p6 = agent();
    p8 = agent();

    a1 = add("a1", "login", "https://github.com/o/r/issues/101", "--pid", String(p1.pid));
    expect(a1).toMatchObject({ action: "created", task: T(101), base: { ref: "refs/heads/main" }, candidates: [] });
    a2 = add("a2", "login-ui", "O/R#101");
    expect([a2.task, candidates(a2)]).toEqual([T(101), [["a1", "same_task", "active", ["live_owner"]]]]);
    a3 = add("a3", "billing", "http://github.com/o/r/issues/102/", "--pid", String(p3.pid));
    a4 = add("a4", "search", "GH-103");
    a5 = add("a5", "search-2", "https://GitHub.com/O/R/issues/103");
    expect([a3.task, a4.task, a5.task, candidates(a5)]).toEqual([T(102), T(103), T(103), [["a4", "same_task", "active", ["live_owner"]]]]);
    a6 = add("a6", "cache", "o/r#104", "--pid", String(p6.pid));
    a7 = add("a7", "docs", "HTTPS://github.com/o/R/pull/105");
    a8 = add("a8", "perf", "GitHub.com/O/R/issues/106", "--pid", String(p8.pid));
    expect([a6.task, a7.task, a8.task]).toEqual([T(104), T(105), T(106)]);
    expect([a3, a4, a6, a7, a8].map(candidates)).toEqual([[], [], [], [], []]); // each the first of its task
    // agent-9 wants #101 to itself: two live leases hold it
    const refused = run(["add", "login-x", "--task", "github.com/o/r/pull/101", "--owner", "agent-9", "--policy", "exclusive-task"], 3);
    expect(refused.reasons.map((r: Json) => [r.code, name(r.handle), r.owner])).toEqual([
      ["task_held_elsewhere", "a2", "agent-2"],
      ["task_held_elsewhere", "a1", "agent-1"],
    ]);
    expect(s.git("branch", "--list", "login-x")).toBe(""); // a refusal changes nothing
    const p9 = agent();
    a9 = add("a9", "perf-2", "#106", "--pid", String(p9.pid));
    expect([a9.task, candidates(a9)]).toEqual([T(106), [["a8", "same_task", "active", ["live_owner"]]]]);
    // agent-1 re-adds its handle (a restart of its tool, same process) without --pid: the pid stays in the lease
    expect(add("a1", "login", "O/R#101")).toMatchObject({ action: "adopted", handle: a1.handle, lease: { owner: "agent-1", pid: p1.pid } });
    ended = 1;
  });

  it("late morning: work, then three agents are killed with SIGKILL; agent-11 takes over a crashed agent's task", async () => {
    part(2);
    commit(a1.path, "login.txt");
    commit(a4.path, "search.txt");
    commit(a4.path, "search-ui.txt"); // two commits: the forge squashes them into one
    s.push("search", a4.path);
    commit(a6.path, "cache.txt");
    s.push("cache", a6.path);
    commit(a7.path, "docs.txt");
    commit(a8.path, "perf.txt"); // never pushed
    perfCommit = git(a8.path, "rev-parse", "HEAD");
    s.makeDirty(a3.path); // uncommitted
    await crash(p3);
    await crash(p6);
    await crash(p8);
    const morning = run(["hygiene"]);
    expect(board(morning)).toEqual({
      a1: ["live", null],
      a2: ["live", null],
      a3: ["needs_salvage", "orchard cleanup run --include needs_salvage --salvage"],
      a4: ["live", null],
      a5: ["live", null],
      a6: ["reclaimable", "orchard cleanup run"], // dead, clean, every commit pushed
      a7: ["live", null],
      a8: ["needs_salvage", "orchard cleanup run --include needs_salvage --salvage"],
      a9: ["live", null],
    });
    expect(groups(morning)).toEqual([
      ["#101", ["a1", "a2"], "a1", false], // a1's commit is on no remote: the work is there
      ["#103", ["a4", "a5"], "a4", false], // pushed work outranks the empty newcomer
      ["#106", ["a8", "a9"], "a8", false], // the dead agent's unpushed commit
    ]);
    // agent-11 takes over the crashed agent-6's task: its worktree is clean and pushed, the lease dead
    const a11 = add("a11", "cache-2", "github.com/o/r/issues/104", "--policy", "reuse-compatible");
    expect(a11).toMatchObject({ action: "reused", handle: a6.handle, branch: "cache", owner: "agent-11" });
    expect(candidates(a11)).toEqual([["a6", "same_task", "active", []]]);
    ended = 2;
  });

  it("noon: a merge commit from the primary, a squash and a rebase merge on the forge, a fetch; re-adds", () => {
    part(3);
    s.mergeIntoMain("login");
    // agent-1's lease names its live pid: this test stands in for that process, so it passes the override
    run(["release", a1.handle, "--owner", "agent-1", "--force"]);
    const forge = join(s.root, "forge");
    git(s.root, "clone", "-q", bare, forge);
    git(forge, "merge", "-q", "--squash", "origin/search");
    git(forge, "commit", "-qm", "Search (#103)");
    git(forge, "cherry-pick", "origin/cache"); // a rebase merge: the same patch, another commit
    git(forge, "push", "-q", "origin", "main");
    run(["release", a4.handle, "--owner", "agent-4"]);
    run(["release", a6.handle, "--owner", "agent-11"]);
    const before = s.git("rev-parse", "origin/main");
    s.git("fetch", "-q", "origin");
    const fetched = s.git("rev-parse", "origin/main");
    expect(fetched).not.toBe(before);
    expect(s.git("rev-parse", "main")).toBe(before); // local main is behind what was fetched
    // agent-2 restarts and re-adds its handle; agent-10 starts #102, whose first worktree is the crashed one
    expect(add("a2", "login-ui", "github.com/o/r/issues/101")).toMatchObject({ action: "adopted", handle: a2.handle, owner: "agent-2" });
    a10 = add("a10", "billing-2", "#102");
    expect(a10).toMatchObject({ action: "created", task: T(102), base: { ref: "refs/remotes/origin/main", commit: fetched } });
    expect(candidates(a10)).toEqual([["a3", "same_task", "active", ["dirty", "base_drift"]]]);
    noon = run(["hygiene"]);
    const merged = Object.fromEntries((noon.worktrees as Json[]).filter((w) => w.merged.how).map((w) => [name(w.handle), w.merged.how]));
    expect(merged).toMatchObject({ a1: "ancestor", a4: "merge_adds_nothing", a6: "patch_equivalent" });
    expect(board(noon)).toEqual({
      a1: ["reclaimable", "orchard cleanup run"], // released, merged by a merge commit
      a2: ["live", null],
      a3: ["needs_salvage", "orchard cleanup run --include needs_salvage --salvage"],
      a4: ["reclaimable", "orchard cleanup run"], // released, squash-merged on the forge
      a5: ["live", null],
      a6: ["reclaimable", "orchard cleanup run"], // agent-11 released it after the rebase merge
      a7: ["live", null],
      a8: ["needs_salvage", "orchard cleanup run --include needs_salvage --salvage"],
      a9: ["live", null],
      a10: ["live", null],
    });
    expect(groups(noon)).toEqual([
      ["#101", ["a1", "a2"], "a2", false], // a1's work is merged: the live member is kept
      ["#102", ["a10", "a3"], "a3", false], // the crashed agent's uncommitted work
      ["#103", ["a4", "a5"], "a5", false],
      ["#106", ["a8", "a9"], "a8", false],
    ]);
    // a released merged worktree is recyclable whatever its old base: eligible, so ranked first
    const probe = run(["add", "login-3", "--task", "#101", "--owner", "agent-12", "--dry-run"]);
    expect(candidates(probe)).toEqual([
      ["a1", "same_task", "terminal", []],
      ["a2", "same_task", "active", ["live_owner", "base_drift"]],
    ]);
    ended = 3;
  });

  it("afternoon: local main catches up, a wave is merged into it and not pushed; the preventable duplicate's hint, followed", () => {
    part(4);
    s.git("merge", "-q", "--ff-only", "origin/main");
    commit(a10.path, "billing.txt");
    run(["release", a7.handle, "--owner", "agent-7"]);
    run(["release", a10.handle, "--owner", "agent-10"]);
    s.git("merge", "-q", "--no-ff", "--no-edit", "docs");
    s.git("merge", "-q", "--no-ff", "--no-edit", "billing-2");
    const wave = s.git("rev-parse", "main");
    // agent-12 starts #105 without a policy: the released, merged docs worktree could have been recycled
    a12 = add("a12", "docs-2", "#105");
    expect(a12).toMatchObject({ action: "created", base: { ref: "refs/heads/main", commit: wave } });
    expect(candidates(a12)).toEqual([["a7", "same_task", "terminal", []]]);
    const afternoon = run(["hygiene"]);
    expect(afternoon.preventableDuplicates.count).toBe(1);
    expect(afternoon.preventableDuplicates.recent).toMatchObject([
      { handle: a12.handle, task: T(105), owner: "agent-12", suggestion: { policy: "recycle-terminal", handle: a7.handle } },
    ]);
    const human = s.orchard(["hygiene"], { json: false }).stdout;
    expect(human).toContain("--policy recycle-terminal would have spared 1 of the recent ones");
    expect(board(afternoon)).toEqual({
      ...board(noon),
      a7: ["reclaimable", "orchard cleanup run"], // released, merged in the wave
      a10: ["reclaimable", "orchard cleanup run"],
      a12: ["live", null],
    });
    expect(groups(afternoon)).toEqual([...groups(noon).slice(0, 3), ["#105", ["a12", "a7"], "a12", false], groups(noon)[3]]);
    for (const w of afternoon.worktrees as Json[]) if (["a7", "a10"].includes(name(w.handle))) expect(w.unpushed).toBe(0); // the wave's commits are main's
    // the hint, followed: agent-12 drops its duplicate and asks again for #105 with the policy the hint
    // names — it gets the very worktree the hint named (the oldest release), not its own fresh one
    run(["release", a12.handle, "--owner", "agent-12"]);
    const followed = run(["add", "docs-3", "--task", "https://github.com/o/r/issues/105", "--owner", "agent-12", "--policy", "recycle-terminal"]);
    expect(followed).toMatchObject({
      action: "recycled",
      base: { ref: "refs/heads/main", commit: wave },
      head: wave,
      lineage: { from: { handle: a7.handle } },
    });
    expect(candidates(followed)).toEqual([
      ["a12", "same_task", "terminal", []],
      ["a7", "same_task", "terminal", []],
    ]);
    who.set(followed.handle, "a12'");
    ended = 4;
  });

  it("evening: the crashed agent-3 restarts with a new process and resumes its own dirty work", () => {
    part(5);
    const p3b = agent();
    const back = add("a3", "billing", "#102", "--pid", String(p3b.pid), "--resume");
    expect(back).toMatchObject({ action: "adopted", handle: a3.handle, lease: { owner: "agent-3", pid: p3b.pid } });
    expect(back.notes.map((n: Json) => n.code)).toEqual(["base_drift"]);
    commit(a9.path, "perf-2.txt"); // agent-9 commits its own take on #106 and pushes nothing either
    const evening = run(["hygiene"]);
    expect(board(evening)).toEqual({
      a1: ["reclaimable", "orchard cleanup run"],
      a2: ["live", null],
      a3: ["live", null],
      a4: ["reclaimable", "orchard cleanup run"],
      a5: ["live", null],
      a6: ["reclaimable", "orchard cleanup run"],
      "a12'": ["live", null],
      a8: ["needs_salvage", "orchard cleanup run --include needs_salvage --salvage"],
      a9: ["live", null],
      a10: ["reclaimable", "orchard cleanup run"],
      a12: ["reclaimable", "orchard cleanup run"],
    });
    expect(groups(evening)).toEqual([
      ["#101", ["a1", "a2"], "a2", false],
      ["#102", ["a10", "a3"], "a3", false],
      ["#103", ["a4", "a5"], "a5", false],
      ["#105", ["a12", "a12'"], "a12'", false],
      ["#106", ["a8", "a9"], "a9", true], // two hold work nobody else has: remove neither by group
    ]);
    expect(s.orchard(["hygiene"], { json: false }).stdout).toContain("duplicate task github.com/o/r#106: conflict");
    ended = 5;
  });

  it("night: each suggestion followed, and nothing lost", () => {
    part(6);
    const night = run(["cleanup", "run"]);
    const done = (r: Json): string[][] => (r.items as Json[]).filter((i) => i.state === "done").map((i) => [i.action, name(i.handle)]);
    expect(done(night).sort()).toEqual([
      ["delete_branch", "a1"], // merged by ancestry; the squashed and rebased branches stay (they are on the remote)
      ["delete_branch", "a10"],
      ["delete_branch", "a12"],
      ["remove", "a1"],
      ["remove", "a10"],
      ["remove", "a12"],
      ["remove", "a4"],
      ["remove", "a6"],
    ]);
    const kept = Object.fromEntries((night.kept as Json[]).map((k) => [name(k.handle), k.reasons.map((r: Json) => r.code)]));
    expect(kept).toEqual({
      a2: ["live_owner"],
      a3: ["live_owner"],
      a5: ["live_owner"],
      a8: ["not_included", "dead_owner", "work_not_preserved"],
      a9: ["live_owner"],
      "a12'": ["live_owner"],
    });
    const salvage = run(["cleanup", "run", "--include", "needs_salvage", "--salvage"]);
    expect(done(salvage)).toEqual([["salvage_remove", "a8"]]);
    // nothing lost: the crashed agent's unpushed commit is kept in its salvage ref
    expect(run(["salvage", "list"]).salvages).toMatchObject([{ handle: a8.handle, head: perfCommit }]);
    const end = run(["hygiene"]);
    expect(board(end)).toEqual({ a2: ["live", null], a3: ["live", null], a5: ["live", null], "a12'": ["live", null], a9: ["live", null] });
    expect(groups(end)).toEqual([]);
    expect(end.preventableDuplicates.count).toBe(1); // history, not backlog: the recycle added none
    ended = 6;
  });
});
