// What the command line tells a person next: the next step under a refusal, `orchard explain`,
// relative lease times, `cleanup run --dry-run` and its counts, and the examples and global options
// in every --help (shell completion: completion.test.ts).
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { Scenario } from "../helpers/scenario.js";

let s: Scenario;
beforeEach(() => {
  s = Scenario.create();
});
afterEach(() => s.cleanup());

const human = (args: string[]) => s.orchard(args, { json: false });

describe("next steps", () => {
  it("a refusal names the next command, a skipped bootstrap names orchard trust, a lease reads relative", () => {
    const a = s.orchard(["add", "billing", "--owner", "agent-1"]).json;
    const refused = human(["release", a.handle]);
    expect(refused.code).toBe(3);
    expect(refused.stdout).toContain("refused: live_owner");
    expect(refused.stdout).toContain(`↳ orchard status ${a.handle}`); // who holds it, never how to take it (SPEC v5)
    expect(refused.stdout).not.toContain("--owner");
    // a 2 h lease read a moment later: 1h59m, or 2h00m when less than half a second has passed (seconds round)
    expect(refused.stdout).toMatch(/expires in (1h5\dm|2h00m)\n/);
    expect(refused.stdout).not.toMatch(/\d{4}-\d\d-\d\dT/); // no ISO time in human output
    expect(s.orchard(["release", a.handle]).json.lease.expiresAt).toMatch(/^\d{4}-\d\d-\d\dT/); // JSON keeps ISO
    writeFileSync(join(s.primary, ".orchard.json"), JSON.stringify({ bootstrap: { run: ["true"] } }));
    const added = human(["add", "search", "--owner", "agent-2"]);
    expect(added.code).toBe(0);
    expect(added.stdout).toMatch(/skipped \(config_untrusted\)\n\s+↳ orchard trust/);
  });

  it("orchard explain prints the sentence and the remedy; an unknown code is exit 2", () => {
    const r = human(["explain", "config_untrusted"]);
    expect(r.stdout).toBe("config_untrusted: the repository's commands run only after `orchard trust`\n↳ orchard trust\n");
    expect(s.orchard(["explain", "live_owner"]).json).toMatchObject({ ok: true, code: "live_owner", remedy: expect.stringContaining("orchard status") });
    expect(human(["explain", "no_such_code"]).code).toBe(2);
  });
});

describe("times read relative", () => {
  it("lineage and salvage list show relative times, JSON keeps ISO", () => {
    const wip = s.orchard(["add", "wip", "--owner", "me"]).json;
    s.makeDirty(wip.path);
    s.orchard(["release", wip.handle, "--owner", "me"]);
    expect(s.orchard(["cleanup", "run", "--include", "needs_salvage", "--salvage"]).code).toBe(0);
    for (const args of [
      ["lineage", wip.handle],
      ["salvage", "list"],
    ]) {
      const out = human(args).stdout;
      expect(out, args.join(" ")).toMatch(/\b(now|\d+s ago|\d+ min ago)\b/);
      expect(out, args.join(" ")).not.toMatch(/\d{4}-\d\d-\d\dT/);
    }
    expect(s.orchard(["lineage", wip.handle]).json.events[0].at).toMatch(/^\d{4}-\d\d-\d\dT/);
  });
});

describe("cleanup run says what it will delete", () => {
  it("--dry-run prints the plan and its counts and removes nothing; hygiene names the branches; run opens with its counts", () => {
    const done = s.orchard(["add", "done-1", "--owner", "me"]).json;
    s.orchard(["release", done.handle, "--owner", "me"]);
    expect(human(["hygiene"]).stdout).toMatch(/1× orchard cleanup run \(also deletes 1 merged branch\)/);
    const dry = human(["cleanup", "run", "--dry-run"]);
    expect(dry.code, dry.stderr).toBe(0);
    expect(dry.stdout).toMatch(/^dry run: cleanup run would act on: 1 worktree\(s\) removed, 1 merged branch\(es\) deleted; nothing was removed/);
    expect(s.orchard(["status", done.handle]).json.worktree.missing).toBeFalsy(); // still there
    const run = human(["cleanup", "run"]);
    expect(run.stdout.split("\n")[0]).toBe("acting on: 1 worktree(s) removed, 1 merged branch(es) deleted");
  });
});

describe("help and completion", () => {
  it("every command's help shows examples and the global options", () => {
    for (const command of [
      ["add"],
      ["hygiene"],
      ["cleanup", "run"],
      ["reap-orphans"],
      ["explain"],
      ["completion"],
      ["remove"],
      ["merge"],
      ["path"],
      ["shell-init"],
      ["salvage", "prune"],
    ]) {
      const r = human([...command, "--help"]);
      expect(r.stdout, command.join(" ")).toMatch(/Examples:\n {2}\$ orchard /);
      for (const flag of ["--json", "--repo", "--home"]) expect(r.stdout, `${command.join(" ")} ${flag}`).toContain(flag);
    }
  });
});
