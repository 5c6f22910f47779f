// The kept copies of bootstrap.share managed like worktrees (hygiene lists and counts them,
// cleanup reclaims them, a removal never follows into them), the truth of `hygiene --disk`
// (apparent bytes, what removal frees with hard links), and `disk.minFree` (add refuses
// disk_low, cleanup run --until-free, hygiene warns) — real CLI, real git.
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { existsSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { Scenario, deadPid, waitFor } from "../helpers/scenario.js";
import { TRUSTED, installs, setUpShare } from "../helpers/share.js";

let s: Scenario;
beforeEach(() => {
  s = Scenario.create();
});
afterEach(() => s.cleanup());

const run = (args: string[]): any => {
  const r = s.orchard(args, { env: TRUSTED });
  expect(r.code, r.stdout + r.stderr).toBe(0);
  return r.json;
};
const add = (branch: string): any => run(["add", branch]);
const keptDir = (key: string): string => join(s.home, "share", "app", key);
const row = (r: any, handle: string): any => r.worktrees.find((w: { handle: string }) => w.handle === handle);

describe("kept copies, managed like worktrees", () => {
  it("hygiene lists the copy with its worktrees; cleanup removes worktrees without touching it, then reclaims it once none remains", async () => {
    setUpShare(s, { method: "hardlink" });
    const a = add("feat-a");
    const b = add("feat-b");
    const key = a.bootstrap.share.key as string;
    const report = run(["hygiene", "--disk"]);
    expect(report.keptCopies).toEqual([
      expect.objectContaining({ key, dirs: ["node_modules"], method: "hardlink", worktrees: 2, disposition: "kept", reasons: [] }),
    ]);
    // hard links: B's shared files have their other links in A and the copy, so removing B frees less than B holds
    const rb = row(report, b.handle);
    expect(rb.disk.uniqueBytes).toBeLessThan(rb.disk.allocatedBytes - 3 * 8192);
    expect(report.summary.disk.allocatedBytes).toBeLessThan(
      row(report, a.handle).disk.allocatedBytes + rb.disk.allocatedBytes + report.keptCopies[0].disk.allocatedBytes,
    );

    run(["release", a.handle, "--outcome", "done"]);
    const first = run(["cleanup", "run"]);
    expect(first.items).toEqual([
      expect.objectContaining({ handle: a.handle, action: "remove", state: "done" }),
      expect.objectContaining({ action: "delete_branch" }),
    ]);
    expect(first.keptCopies).toEqual({ removed: [], kept: 1 }); // B still uses it
    const copied = join(keptDir(key), "dirs", "node_modules", "left", "index.js");
    expect(readFileSync(copied, "utf8")).toBe('module.exports = "left@1.0.0";\n'); // the removal never followed into it
    await waitFor(() => statSync(copied).nlink === 2, "A's links are purged from the trash: the copy and B's remain");

    run(["release", b.handle, "--outcome", "done"]);
    const second = run(["cleanup", "run"]);
    expect(second.items).toEqual(expect.arrayContaining([expect.objectContaining({ handle: b.handle, action: "remove", state: "done" })]));
    expect(second.keptCopies.removed).toEqual([
      expect.objectContaining({ key, disposition: "reclaimable", reasons: [expect.objectContaining({ code: "share_unused" })] }),
    ]);
    expect(existsSync(keptDir(key))).toBe(false);
    expect(add("feat-c").bootstrap.status).toBe("ran"); // a new copy, after a new install
    expect(installs(s)).toBe(2);
  });

  it("cleanup plan lists the reclaimable copies; apply judges them again once its items are done and reclaims them", () => {
    setUpShare(s);
    const a = add("feat-a");
    const key = a.bootstrap.share.key as string;
    run(["release", a.handle, "--outcome", "done"]);
    // the plan: A's removal; the copy is still used by A, so it is not reclaimable yet
    const plan = run(["cleanup", "plan"]);
    expect(plan.items).toEqual(expect.arrayContaining([expect.objectContaining({ handle: a.handle, action: "remove" })]));
    expect(plan.keptCopies).toEqual([]);
    // apply removes A, then judges the copy (its last worktree gone) and reclaims it
    const applied = run(["cleanup", "apply", plan.planId]);
    expect(applied.keptCopies.removed).toEqual([expect.objectContaining({ key, reasons: [expect.objectContaining({ code: "share_unused" })] })]);
    expect(existsSync(keptDir(key))).toBe(false);
    // a copy unused at plan time (its worktree removed by `remove`, which never follows into it) is listed by the plan
    const b = add("feat-b"); // installs anew and keeps a new copy
    const keyB = b.bootstrap.share.key as string;
    run(["release", b.handle, "--outcome", "done"]);
    run(["remove", b.handle]);
    expect(existsSync(keptDir(keyB))).toBe(true);
    const human = s.orchard(["cleanup", "plan"], { json: false, env: TRUSTED }).stdout;
    expect(human).toMatch(new RegExp(`^kept copies \\(bootstrap\\.share\\): 1 reclaimable now \\(${keyB.slice(0, 12)}: share_unused\\)`, "m"));
    const planId = /↳ orchard cleanup apply (\S+)/.exec(human)?.[1] as string;
    expect(run(["cleanup", "apply", planId]).keptCopies.removed).toEqual([expect.objectContaining({ key: keyB })]);
    expect(existsSync(keptDir(keyB))).toBe(false);
  });

  it("over disk.shareBudget the least recently used copy goes, even while a worktree uses it", () => {
    setUpShare(s, { disk: { shareBudget: "1B" } });
    const a = add("feat-a");
    const report = run(["hygiene"]);
    expect(report.keptCopies).toEqual([
      expect.objectContaining({ worktrees: 1, disposition: "reclaimable", reasons: [expect.objectContaining({ code: "share_over_budget", budget: 1 })] }),
    ]);
    const r = run(["cleanup", "run"]);
    expect(r.keptCopies.removed).toHaveLength(1);
    expect(existsSync(keptDir(a.bootstrap.share.key))).toBe(false);
    expect(readFileSync(join(a.path, "node_modules", "left", "index.js"), "utf8")).toBe('module.exports = "left@1.0.0";\n'); // the worktree keeps its own
  });

  it("the human view has one disk summary line and the kept copy", () => {
    setUpShare(s);
    add("feat-a");
    add("feat-b");
    const human = s.orchard(["hygiene", "--disk"], { json: false, env: TRUSTED }).stdout;
    expect(human).toMatch(/^disk: 2 worktrees and 1 kept copy: [\d.]+ [KM]iB apparent, [\d.]+ [KM]iB on disk, [\d.]+ (B|KiB) reclaimable now$/m);
    expect(human).toMatch(/^kept copy [0-9a-f]{12} \(node_modules\): 2 worktrees, [\d.]+ KiB$/m);
    // the HTML page has the same copy in a table of its own
    const out = join(s.root, "report.html");
    const key = run(["hygiene", "--disk", "--html", out]).keptCopies[0].key as string;
    const section = /<section id="kept">([\s\S]*?)<\/section>/.exec(readFileSync(out, "utf8"))?.[1] ?? "";
    expect(section).toContain("Kept copies (bootstrap.share) (1)");
    expect(section).toMatch(new RegExp(`<code>${key.slice(0, 12)}</code>[\\s\\S]*<td>node_modules</td>[\\s\\S]*<td class="num">2</td>[\\s\\S]*>kept</span>`));
  });
});

describe("disk.minFree", () => {
  it("below the floor add refuses disk_low (exit 3), saying what cleanup run would free; hygiene warns", () => {
    setUpShare(s, { disk: { minFree: "100%" } }); // more than any filesystem has free: deterministic
    const r = s.orchard(["add", "feat-a"], { env: TRUSTED });
    expect(r.code).toBe(3);
    expect(r.json.action).toBe("refused");
    const low = r.json.reasons[0];
    expect(low).toMatchObject({ code: "disk_low", minFree: "100%", wouldFree: { worktrees: 0, keptCopies: 0, bytes: 0 } });
    expect(low.floor).toBeGreaterThan(low.free);
    expect(existsSync(join(s.home, "worktrees", "app@feat-a"))).toBe(false);
    expect(s.orchard(["add", "feat-a", "--dry-run"], { env: TRUSTED }).code).toBe(3);
    expect(run(["hygiene"]).notes).toEqual(expect.arrayContaining([expect.objectContaining({ code: "disk_low" })]));
  });

  it("a floor that is met admits as before, and the startup sweep says nothing of it", () => {
    setUpShare(s, { disk: { minFree: "1B" } });
    expect(add("feat-a").action).toBe("created");
    expect(run(["reap-orphans"]).notes).toBeUndefined();
  });

  it("below the floor the startup sweep (reap-orphans, Claude Code's SessionStart) notes disk_low with the cleanup that frees space, and reaps only what its proofs allow", () => {
    setUpShare(s, { disk: { minFree: "100%" } });
    const dirty = s.worktree("worktree-agent-x", { lock: `claude agent agent-x (pid ${deadPid()})` });
    s.ageLock(dirty, 600);
    writeFileSync(join(dirty, "notes.txt"), "work\n"); // unique work: the floor never makes it reapable
    const r = run(["reap-orphans"]);
    expect(r.notes).toEqual([expect.objectContaining({ code: "disk_low", minFree: "100%", next: "orchard cleanup run --until-free 100%" })]);
    expect(r.reaped).toBe(0);
    expect(existsSync(join(dirty, "notes.txt"))).toBe(true);
    const human = s.orchard(["reap-orphans"], { json: false, env: TRUSTED }).stdout;
    expect(human).toMatch(/^note disk_low: .*\n\s+↳ orchard cleanup run --until-free 100%$/m);
  });
});

describe("cleanup run --until-free", () => {
  it("a floor already met removes nothing", () => {
    setUpShare(s);
    const a = add("feat-a");
    run(["release", a.handle, "--outcome", "done"]);
    const r = run(["cleanup", "run", "--until-free", "1B"]);
    expect(r.untilFree).toMatchObject({ floor: 1, met: true });
    expect(r.items).toEqual([]);
    expect(existsSync(a.path)).toBe(true);
  });

  it("a floor that cannot be met: removes what cleanup may, then says so", () => {
    setUpShare(s);
    const a = add("feat-a");
    const b = add("feat-b");
    run(["release", a.handle, "--outcome", "done"]);
    const r = run(["cleanup", "run", "--until-free", "100%"]);
    expect(r.items).toEqual(expect.arrayContaining([expect.objectContaining({ handle: a.handle, action: "remove", state: "done" })]));
    expect(existsSync(b.path)).toBe(true); // not reclaimable: never removed for space
    expect(r.untilFree.met).toBe(false);
    expect(r.notes).toEqual(expect.arrayContaining([expect.objectContaining({ code: "until_free_unmet" })]));
    expect(s.orchard(["cleanup", "run", "--until-free", "lots"]).code).toBe(2);
  });
});
