// `orchard remove`'s refusal lists only what blocks (never a fact in its favour such as `clean`
// beside the one blocker), coloured like every refusal on a terminal, the dirty files named as
// `git status --short` names them, and the caller's own shell inside the worktree named as that.
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { spawnSync } from "node:child_process";
import { Scenario, CLI } from "../helpers/scenario.js";
import { hermeticEnv } from "../helpers/env.js";

let s: Scenario;
beforeEach(() => {
  s = Scenario.create();
});
afterEach(() => s.cleanup());

const codes = (r: { json: { reasons: { code: string }[] } }) => r.json.reasons.map((x) => x.code);

describe("orchard remove: what blocks, and only that", () => {
  it("a foreign worktree: not_managed alone, without clean, not_live or work_preserved", () => {
    const path = s.worktree("foreign");
    const r = s.orchard(["remove", path]);
    expect(r.code).toBe(3);
    expect(codes(r)).toEqual(["not_managed"]);
    const human = s.orchard(["remove", path], { json: false }).stdout;
    expect(human).toContain("refused: not_managed");
    expect(human).not.toMatch(/refused: (clean|work_preserved|not_live)/);
  });

  it("dirty work: the files as git status --short names them, quoted where git quotes; red and cyan on a terminal", () => {
    const a = s.orchard(["add", "feat-d", "--owner", "me"]).json;
    writeFileSync(join(a.path, "new file.txt"), "x\n");
    writeFileSync(join(a.path, "README.md"), "changed\n");
    mkdirSync(join(a.path, "dir"));
    writeFileSync(join(a.path, "dir", "é.txt"), "x\n");
    s.orchard(["release", a.handle, "--owner", "me"]);
    const r = s.orchard(["remove", a.handle]);
    expect(codes(r)).toEqual(["salvage_not_requested", "dirty"]);
    expect(r.json.reasons[1].files).toEqual([" M README.md", '?? "dir/\\303\\251.txt"', '?? "new file.txt"']);
    const painted = s.orchard(["remove", a.handle], { json: false, env: { NO_COLOR: "", FORCE_COLOR: "1" } }).stdout;
    expect(painted).toContain("\u001b[31mrefused:\u001b[39m dirty");
    expect(painted).toContain('      ?? "new file.txt"');
    expect(painted).toMatch(/\u001b\[36m {2}↳ orchard remove \S+ --salvage\u001b\[39m/);
  });

  it("the caller's own shell inside the worktree is named as that, not as another owner", () => {
    const a = s.orchard(["add", "feat-here", "--owner", "me"]).json;
    s.orchard(["release", a.handle, "--owner", "me"]);
    // the caller's shell stands in the worktree and runs orchard from there
    const sh = spawnSync("sh", ["-c", `"$0" "$1" --home "$2" --json remove "$3"; echo "exit $?" >&2`, process.execPath, CLI, s.home, a.handle], {
      cwd: a.path,
      env: hermeticEnv(),
      encoding: "utf8",
    });
    expect(sh.stderr).toContain("exit 3");
    const r = { json: JSON.parse(sh.stdout) };
    expect(r.json.reasons[0]).toMatchObject({ code: "live_owner", message: `the shell you run orchard from works inside the worktree (${a.path})` });
    expect(r.json.next).toBe(`cd ${s.primary} && orchard remove ${a.handle}`);
  });
});
