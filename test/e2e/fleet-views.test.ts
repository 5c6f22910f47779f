// Views at fleet size (issue 38 items 1-3) on a real pseudo-terminal at 80, 120 and 200 columns:
// 68 worktrees (50 released and merged, 6 released with work in them, 8 live, 4 crashed foreign
// ones). Every table fits the width without wrapping (a footer names the hidden columns), and
// hygiene shows row by row only what needs a person, the rest counted by group.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Scenario, deadPid } from "../helpers/scenario.js";
import { orchardInPty } from "../helpers/pty.js";
import { makeProcessEnvHermetic } from "../helpers/env.js";
import { displayWidth } from "../../src/cli/width.js";
import { Orchard } from "../../src/index.js";

let s: Scenario;
const WIDTHS = [80, 120, 200];

beforeAll(async () => {
  makeProcessEnvHermetic(); // the fleet is built in-process: git starts with process.env
  s = Scenario.create();
  const orchard = await Orchard.open({ repo: s.primary, home: s.home });
  try {
    for (let i = 0; i < 64; i++) {
      const kind = i < 50 ? "done" : i < 56 ? "wip" : "busy";
      const a = await orchard.add({
        branch: `feature/${kind}-${String(i).padStart(2, "0")}-a-fairly-long-branch-name`,
        owner: `agent-${i}`,
        task: `o/r#${i}`,
        bootstrap: false,
      });
      if (!a.ok) throw new Error(JSON.stringify(a));
      if (kind === "wip") s.makeDirty(a.path);
      if (kind !== "busy") await orchard.release({ target: a.handle, owner: `agent-${i}` });
    }
  } finally {
    await orchard.close();
  }
  for (let i = 0; i < 4; i++) s.ageLock(s.worktree(`worktree-agent-${i}`, { lock: `claude agent a-${i} (pid ${deadPid()})` }), 600);
}, 120_000);
afterAll(() => s?.cleanup());

const pty = (args: string[], cols: number) => {
  const r = orchardInPty(["--home", s.home, "--repo", s.primary, ...args], { cols, cwd: s.primary });
  expect(r.code, r.raw).toBe(0);
  for (const line of r.screen) expect(displayWidth(line), line).toBeLessThanOrEqual(cols);
  return r.screen;
};

describe.each(WIDTHS)("at %i columns", (cols) => {
  it("hygiene shows what needs a person row by row and counts the rest by group; --all shows every row", () => {
    const screen = pty(["hygiene"], cols);
    const text = screen.join("\n");
    expect(text).toContain("6 need you (work at risk, unknown, or live and untouched for a day):");
    const rows = screen.filter((l) => /^(needs_salvage|reclaimable|reapable|live|idle|unknown) /.test(l));
    expect(rows.map((l) => l.split(/\s+/)[0])).toEqual(Array(6).fill("needs_salvage"));
    expect(screen.filter((l) => l.includes("↳ orchard cleanup run --include needs_salvage --salvage"))).toHaveLength(6); // each on its row
    expect(text).toMatch(/^\s+50 reclaimable: orchard cleanup run \(also deletes 50 merged branches\)$/m);
    expect(text).toMatch(/^\s+4 reapable: orchard reap-orphans$/m);
    expect(text).toMatch(/^\s+8 live \(keep\)$/m);
    expect(text).toContain("↳ orchard hygiene --all shows every row");
    const all = pty(["hygiene", "--all"], cols).filter((l) => /^(needs_salvage|reclaimable|reapable|live) /.test(l));
    expect(all).toHaveLength(68); // one line each: nothing wrapped
  });

  it("list and reap-orphans fit without wrapping: one line per worktree", () => {
    const list = pty(["list"], cols);
    expect(list.filter((l) => l.startsWith("app@") || l.startsWith("(foreign)"))).toHaveLength(68);
    if (cols === 80) expect(list.at(-1)).toMatch(/^\(.*PATH.* hidden(?: to fit 80 columns)?; --wide shows every column\)$/);
    if (cols === 200) expect(list[0]).toMatch(/ OWNER +TASK /); // who holds each, and for what
    if (cols === 200) expect(list.join("\n")).not.toContain("hidden to fit");
    const reap = pty(["reap-orphans", "--dry-run"], cols);
    expect(reap[0]).toBe("would reap 4, skipped 0, live 8");
    expect(reap.filter((l) => /^live /.test(l))).toHaveLength(8); // the rows say live, as the count does
  });
});

it("JSON is unchanged by the grouping: every worktree, each reason with its next step", () => {
  const r = s.orchard(["hygiene"]);
  expect(r.json.worktrees).toHaveLength(68);
  for (const w of r.json.worktrees) for (const reason of w.reasons) expect(reason).toHaveProperty("next");
});

it("cleanup run at 80 columns counts what it did and groups what it left alone, each line within the width", () => {
  const screen = pty(["cleanup", "run"], 80);
  expect(screen[0]).toMatch(/^cleanup run will remove 50 worktree\(s\), reap 4 orphan\(s\), delete 50 merged/); // before it acted, cut to the width
  expect(screen[1]).toBe("acting on: 50 worktree(s) removed, 4 reaped, 50 merged branch(es) deleted");
  expect(screen).toContain("14 worktree(s) left alone, by reason:");
  expect(screen.filter((l) => /^\s+\d+ (needs_salvage|live) /.test(l))).toHaveLength(2); // one line per group, not per worktree
  expect(screen).toContain("       ↳ orchard cleanup run --include needs_salvage --salvage");
});
