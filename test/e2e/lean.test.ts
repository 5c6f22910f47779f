// add, release, heartbeat, status and remove through the lean command line (src/cli/start/lean.ts,
// dist/bin/orchard-lean.cjs): the same answers, exit codes and effects as the whole command line,
// which runs instead for anything the lean one does not parse. `--` before the argument is a
// spelling only the whole command line takes, so `<verb> -- <argument>` is its answer to compare with.
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { existsSync } from "node:fs";
import { Scenario, type CliResult } from "../helpers/scenario.js";

let s: Scenario;
beforeEach(() => {
  s = Scenario.create();
});
afterEach(() => s.cleanup());

/** Which bundle ran the command: the last one loaded (the code cache's trace names each). */
const bundle = (r: CliResult): string | null => [...r.stderr.matchAll(/^\[orchard trace\] code cache .*\((orchard-[a-z]+\.cjs)\)$/gm)].pop()?.[1] ?? null;
const traced = (args: string[], json = true): CliResult => s.orchard(args, { env: { ORCHARD_TRACE: "1" }, json });
/** What a command printed, its worktree's own names and the times replaced, to compare two worktrees' answers. */
const named = (r: CliResult, w: { handle: string; path: string; branch?: string }): string =>
  `${r.stdout}\n${r.stderr.replace(/^\[orchard trace\].*\n/gm, "")}`
    .replaceAll(w.path, "<path>")
    .replaceAll(w.handle, "<handle>")
    .replaceAll(w.branch ?? "<handle>", "<branch>")
    .replace(/\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z/g, "<time>")
    .replace(/\b(in|for|since|expires) [^,\n)]*/g, "$1 <when>");

describe("add, release, heartbeat and status, the lean command line", () => {
  it("adds (create, exact repeat, dry run), renews, tells and releases as the whole command line does", () => {
    const lean = traced(["add", "feat-a", "--owner", "agent", "--no-bootstrap"]);
    expect(bundle(lean)).toBe("orchard-lean.cjs");
    const full = traced(["add", "--owner", "agent", "--no-bootstrap", "--", "feat-b"]);
    expect(bundle(full)).toBe("orchard-cli.cjs");
    expect(lean.code, lean.stderr).toBe(0);
    const a = { ...lean.json, branch: "feat-a" };
    const b = { ...full.json, branch: "feat-b" };
    expect(named(lean, a)).toEqual(named(full, b));
    for (const args of [
      ["--owner", "agent"],
      ["--owner=agent", "--dry-run"],
      ["--owner", "other", "--task", "T-1"],
    ]) {
      const again = [traced(["add", "feat-a", ...args]), traced(["add", ...args, "--", "feat-b"])];
      expect(bundle(again[0]!)).toBe("orchard-lean.cjs");
      expect(again[0]!.code, args.join(" ")).toBe(again[1]!.code);
      expect(named(again[0]!, a), args.join(" ")).toEqual(named(again[1]!, b));
    }
    const beat = [
      traced(["heartbeat", a.handle, "--owner", "agent", "--ttl", "30m"]),
      traced(["heartbeat", "--owner", "agent", "--ttl", "30m", "--", b.handle]),
    ];
    expect(bundle(beat[0]!)).toBe("orchard-lean.cjs");
    expect(beat[0]!.code, beat[0]!.stderr).toBe(0);
    expect(named(beat[0]!, a)).toEqual(named(beat[1]!, b));
    const status = [traced(["status", a.handle]), traced(["status", "--", b.handle])];
    expect(bundle(status[0]!)).toBe("orchard-lean.cjs");
    expect(status[0]!.code, status[0]!.stderr).toBe(0);
    expect(named(status[0]!, a)).toEqual(named(status[1]!, b));
    const text = [
      traced(["release", a.handle, "--owner", "agent", "--outcome", "failed"], false),
      traced(["release", "--owner", "agent", "--outcome", "failed", "--", b.handle], false),
    ];
    expect(bundle(text[0]!)).toBe("orchard-lean.cjs");
    expect(text[0]!.code, text[0]!.stderr).toBe(0);
    expect(named(text[0]!, a)).toEqual(named(text[1]!, b));
    expect(s.orchard(["status", a.handle]).json.worktree.lifecycle).toBe("terminal");
  });

  it("a refusal is the same refusal: a live lease of another owner, exit 3", () => {
    const a = s.added("feat-a", "--owner", "agent", "--no-bootstrap");
    const b = s.added("feat-b", "--owner", "agent", "--no-bootstrap");
    const lean = traced(["release", a.handle, "--owner", "intruder"]);
    const full = traced(["release", "--owner", "intruder", "--", b.handle]);
    expect(bundle(lean)).toBe("orchard-lean.cjs");
    expect(lean.code).toBe(3);
    expect(lean.code).toBe(full.code);
    expect(named(lean, { ...a, branch: "feat-a" })).toEqual(named(full, { ...b, branch: "feat-b" }));
  });
});

describe("orchard remove, the lean command line", () => {
  it("removes as the whole command line does: the same answer, exit code and effects", () => {
    const [a, b] = [s.released("feat-a"), s.released("feat-b")];
    const lean = traced(["remove", a.handle]);
    expect(bundle(lean)).toBe("orchard-lean.cjs");
    const full = traced(["remove", "--", b.handle]);
    expect(bundle(full)).toBe("orchard-cli.cjs");
    expect(lean.code, lean.stderr).toBe(0);
    expect(full.code, full.stderr).toBe(0);
    expect(named(lean, a)).toEqual(named(full, b));
    expect(lean.json).toMatchObject({ ok: true, action: "removed", steps: ["remove", "delete_branch"] });
    expect(existsSync(a.path) || existsSync(b.path)).toBe(false);
    // the human rendering too (flags after the target, as the command line takes them)
    const [c, d] = [s.released("feat-c"), s.released("feat-d")];
    const leanText = traced(["remove", c.path, "--no-color"], false);
    const fullText = traced(["remove", "--no-color", "--", d.path], false);
    expect(bundle(leanText)).toBe("orchard-lean.cjs");
    expect(leanText.code).toBe(0);
    expect(named(leanText, c)).toEqual(named(fullText, d));
  });

  it("refuses as the whole command line does: dirty work kept, exit 3, the same reasons and next step; --dry-run alike", () => {
    const [a, b] = [s.released("feat-a"), s.released("feat-b")];
    s.makeDirty(a.path);
    s.makeDirty(b.path);
    for (const extra of [[], ["--dry-run"]]) {
      const lean = traced(["remove", a.handle, ...extra]);
      const full = traced(["remove", ...extra, "--", b.handle]);
      expect(bundle(lean)).toBe("orchard-lean.cjs");
      expect(lean.code, lean.stderr).toBe(3);
      expect(full.code).toBe(3);
      expect(lean.json).toMatchObject({ ok: false, action: "refused" });
      expect(named(lean, a)).toEqual(named(full, b));
    }
    expect(existsSync(a.path)).toBe(true);
    const text = [traced(["remove", a.handle, "--no-color"], false), traced(["remove", "--no-color", "--", b.handle], false)];
    expect(text[0]!.code).toBe(3);
    expect(named(text[0]!, a)).toEqual(named(text[1]!, b));
  });

  it("a bad target is the same usage error (exit 2)", () => {
    const lean = traced(["remove", "no-such@thing"]);
    const full = traced(["remove", "--", "no-such@thing"]);
    expect(bundle(lean)).toBe("orchard-lean.cjs");
    expect(lean.code).toBe(2);
    expect(lean.json).toEqual(full.json);
  });

  it("leaves to the whole command line what it does not parse: --help, another flag, a flag before `remove`, a second target", () => {
    const a = s.released("feat-a");
    const help = traced(["remove", "--help"], false);
    expect(bundle(help)).toBe("orchard-cli.cjs");
    expect(help.code).toBe(0);
    expect(help.stdout).toContain("--salvage");
    const unknown = traced(["remove", a.handle, "--force"]);
    expect(bundle(unknown)).toBe("orchard-cli.cjs");
    expect(unknown.code).toBe(2);
    const before = traced(["--dry-run", "remove", a.handle]);
    expect(bundle(before)).toBe("orchard-cli.cjs");
    expect(before.code).toBe(2); // the command line's own answer: `--dry-run` is remove's, not a global flag
    const two = traced(["remove", a.handle, a.path]);
    expect(bundle(two)).toBe("orchard-cli.cjs");
    expect(two.code).toBe(2);
    expect(existsSync(a.path)).toBe(true);
  });
});

describe("orchard list, the lean command line", () => {
  /** Its answer with the times replaced (two runs a moment apart may tell a lease's age differently). */
  const timeless = (r: CliResult): string =>
    `${r.code}\n${r.stdout}\n${r.stderr.replace(/^\[orchard trace\].*\n/gm, "")}`
      .replace(/\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z/g, "<time>")
      .replace(/\b(in|for|since|expires|ago) [^,\n)│|]*/g, "$1 <when>")
      .replace(/\b\d+[smhd]( ago)?\b/g, "<age>");

  it("lists (JSON, table, --wide, --repo from another directory) as the whole command line does", () => {
    s.added("feat-a", "--owner", "agent", "--no-bootstrap");
    s.released("feat-b");
    s.worktree("foreign-c");
    s.lockAs(s.worktree("foreign-d"), "kept by hand");
    for (const [args, json] of [
      [[], true],
      [["--no-color"], false],
      [["--wide", "--no-color"], false],
      [["--no-color", "--wide"], true],
    ] as const) {
      const lean = traced(["list", ...args], json);
      const full = traced(["list", ...args, "--"], json); // `--`: a spelling only the whole command line takes
      expect(bundle(lean), args.join(" ")).toBe("orchard-lean.cjs");
      expect(bundle(full), args.join(" ")).toBe("orchard-cli.cjs");
      expect(lean.code, lean.stderr).toBe(0);
      expect(timeless(lean), args.join(" ")).toEqual(timeless(full));
    }
    // --home and --repo before the verb, from outside the repo
    const elsewhere = (args: string[]): CliResult =>
      s.orchard(["--home", s.home, "--repo", s.primary, "list", ...args], { cwd: s.root, env: { ORCHARD_TRACE: "1" }, json: false });
    const [lean, full] = [elsewhere([]), elsewhere(["--"])];
    expect(bundle(lean)).toBe("orchard-lean.cjs");
    expect(timeless(lean)).toEqual(timeless(full));
    expect(lean.stdout).toContain("(foreign)");
  });

  it("an empty repo and a repo that is not one answer as the whole command line does", () => {
    const [lean, full] = [traced(["list"], false), traced(["list", "--"], false)];
    expect(bundle(lean)).toBe("orchard-lean.cjs");
    expect(timeless(lean)).toEqual(timeless(full));
    const nowhere = (args: string[]): CliResult => s.orchard(["--repo", s.root, "list", ...args], { env: { ORCHARD_TRACE: "1" } });
    const [leanBad, fullBad] = [nowhere([]), nowhere(["--"])];
    expect(bundle(leanBad)).toBe("orchard-lean.cjs");
    expect(leanBad.code).not.toBe(0);
    expect(timeless(leanBad)).toEqual(timeless(fullBad));
  });

  it("leaves --full, --all-repos, --help, an argument and `salvage list` to the whole command line", () => {
    s.added("feat-a", "--owner", "agent", "--no-bootstrap");
    for (const args of [["--full"], ["--all-repos"], ["--help"], ["extra"]]) {
      const r = traced(["list", ...args], false);
      expect(bundle(r), args.join(" ")).toBe("orchard-cli.cjs");
    }
    // `salvage list` is salvage's: the lean bundle is not even loaded
    const salvage = traced(["salvage", "list"]);
    expect(salvage.code, salvage.stderr).toBe(0);
    expect(salvage.stderr).not.toContain("orchard-lean.cjs");
    expect(traced(["list", "--full"]).json.worktrees[0].dirty).toMatchObject({ tracked: 0, untracked: 0 }); // the whole command line ran it
  });
});
