// The human renderings of `hygiene` (table and HTML) and `cleanup run` (SPEC §3.6, §3.7): owner
// and task on every row, no suggestion about work at risk ever dropped, and cleanup saying what it
// left alone and why.
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { Scenario, deadPid, git } from "../helpers/scenario.js";

let s: Scenario;
beforeEach(() => {
  s = Scenario.create();
});
afterEach(() => s.cleanup());

const ok = (args: string[], json = true) => {
  const r = s.orchard(args, { json });
  expect(r.code, r.stdout + r.stderr).toBe(0);
  return r;
};

describe("hygiene human output", () => {
  it("shows owner and task on every row, in the table and the HTML page", () => {
    ok(["add", "billing", "--owner", "agent-a", "--task", "o/r#7"]);
    ok(["add", "search", "--owner", "agent-b", "--task", "SRCH-12"]);
    s.worktree("foreign-1");
    const human = ok(["hygiene"], false).stdout;
    const header = human.split("\n").find((l) => l.startsWith("DISPOSITION"));
    expect(header).toMatch(/OWNER\s+TASK/);
    const line = (handle: string) => human.split("\n").find((l) => l.includes(` ${handle} `)) ?? "";
    expect(line("billing")).toMatch(/agent-a\s+github\.com\/o\/r#7/); // the canonical task
    const search = ok(["status", "search"]).json.worktree;
    expect(line("search")).toContain(`agent-b  ${search.task}`);
    const out = join(s.root, "report.html");
    const report = ok(["hygiene", "--html", out]).json;
    const html = readFileSync(out, "utf8");
    const rows = html.split("<tbody data-disposition=").slice(1);
    expect(rows).toHaveLength(report.worktrees.length);
    for (const row of rows) {
      expect(row).toMatch(/<td class="owner[ "]/); // (hidden below 600 px: the details row has it)
      expect(row).toMatch(/<td class="task[ "]/);
    }
    expect(rows.find((r) => r.includes("billing"))).toMatch(/<td class="owner[^"]*"[^>]*>agent-a<\/td><td class="task[^"]*"[^>]*>github\.com\/o\/r#7<\/td>/);
    expect(html).toMatch(/<th class="owner[^"]*"[^>]*><button[^>]*>owner<\/button><\/th><th class="task/);
  });

  it("never drops a suggestion about work at risk, however many others there are", () => {
    writeFileSync(join(s.primary, ".orchard.json"), JSON.stringify({ idleAfter: "1ms" }));
    // seven foreign clean worktrees: seven distinct `git worktree remove` suggestions, one each
    for (let i = 0; i < 7; i++) s.worktree(`a-clean-${i}`);
    // a foreign worktree of a crashed agent with unmerged work: the adopt-then-salvage hint (one of its kind)
    const risky = s.worktree("z-risky", { lock: `claude agent d (pid ${deadPid()})` });
    writeFileSync(join(risky, "work.txt"), "work\n");
    git(risky, "add", "work.txt");
    git(risky, "commit", "-qm", "unmerged work");
    s.makeDirty(risky);
    // a released managed worktree with work: the salvage run
    const wip = ok(["add", "wip", "--owner", "me"]).json;
    s.makeDirty(wip.path);
    ok(["release", wip.handle, "--owner", "me"]);
    const report = ok(["hygiene"]).json;
    const atRisk = report.worktrees.filter((w: { disposition: string }) => w.disposition === "needs_salvage" || w.disposition === "unknown");
    expect(atRisk.length, JSON.stringify(report.worktrees.map((w: { path: string; disposition: string }) => [w.path, w.disposition]))).toBeGreaterThanOrEqual(
      2,
    );
    const human = ok(["hygiene"], false).stdout;
    for (const w of atRisk) expect(human).toContain(w.suggestion.command);
    expect(human).toContain("orchard cleanup run --include needs_salvage --salvage");
    expect(human).toMatch(/orchard adopt .*z-risky/);
    expect(human).toMatch(/more suggestion\(s\) in --json/); // the rest are grouped, and say so
  });
});

describe("cleanup run human output", () => {
  it("says what it left alone and why", () => {
    const live = ok(["add", "busy", "--owner", "agent-a"]).json;
    const wip = ok(["add", "wip", "--owner", "me"]).json;
    s.makeDirty(wip.path);
    ok(["release", wip.handle, "--owner", "me"]);
    const done = ok(["add", "done", "--owner", "me"]).json;
    ok(["release", done.handle, "--owner", "me"]);
    const out = ok(["cleanup", "run"], false).stdout;
    expect(out.split("\n")[0]).toBe("acting on: 1 worktree(s) removed, 1 merged branch(es) deleted"); // counted, not a row each
    expect(out).not.toContain(done.handle);
    expect(out).toMatch(/\n2 worktree\(s\) left alone, by reason:\n/);
    const line = (handle: string) => out.split("\n").find((l) => l.includes(handle)) ?? "";
    expect(line(live.handle)).toMatch(/^\s+1 live live_owner: \S+$/);
    expect(line(wip.handle)).toMatch(/^\s+1 needs_salvage not_included: \S+$/);
    expect(out).toContain("↳ orchard cleanup run --include needs_salvage --salvage"); // its next step, under its group
  });
});
