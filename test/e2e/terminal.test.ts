// Human output on a real pseudo-terminal (test/helpers/pty.ts) at 80 and 200 columns, with and
// without colour, and through a pipe: tables fit the width, are measured in display columns and
// sorted by what needs a person first; colour follows NO_COLOR, FORCE_COLOR, --no-color and the
// stream; the progress line never outgrows the terminal and leaves no debris.
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { join } from "node:path";
import { Scenario, deadPid } from "../helpers/scenario.js";
import { orchardInPty, screen } from "../helpers/pty.js";
import { displayWidth, stripAnsi } from "../../src/cli/width.js";

let s: Scenario;
beforeEach(() => {
  s = Scenario.create();
});
afterEach(() => s.cleanup());

const ok = (args: string[]) => {
  const r = s.orchard(args);
  expect(r.code, r.stdout + r.stderr).toBe(0);
  return r.json;
};
const globals = () => ["--home", s.home, "--repo", s.primary];
const pty = (args: string[], cols: number, env: Record<string, string | undefined> = {}) =>
  orchardInPty([...globals(), ...args], { cols, cwd: s.primary, env: { ORCHARD_PROGRESS_DELAY_MS: "0", ...env } });
const ESC = /\x1b\[[0-9;]*m/;

/** A fleet in every disposition hygiene shows a person: a Japanese branch, a long foreign path. */
function fleet(): void {
  ok(["add", "billing", "--owner", "agent-1", "--task", "o/r#7"]);
  ok(["add", "機能/検索-改善", "--owner", "agent-3"]);
  const done = ok(["add", "done-1", "--owner", "agent-4"]);
  ok(["release", done.handle, "--owner", "agent-4"]);
  const wip = ok(["add", "wip-1", "--owner", "agent-5"]);
  s.makeDirty(wip.path);
  ok(["release", wip.handle, "--owner", "agent-5"]);
  s.worktree("worktree-agent-7f3c", { path: foreignPath(), lock: `claude agent d (pid ${deadPid()})` });
}

/** A foreign worktree's path of 99 characters wherever the temp dir is: 80 columns must shorten it, 200 hold it whole. */
function foreignPath(): string {
  const head = join(s.root, "foreign");
  const name = "worktree-agent-7f3c";
  const room = 99 - head.length - name.length - 2;
  if (room < 1) throw new Error(`the scenario's directory is too long for a 99-character path: ${s.root} (set ORCHARD_TEST_TMPDIR)`);
  let middle = "";
  for (const word of "a rather deeply nested directory for one agent of a long fleet".split(" "))
    if (middle.length + word.length + 1 <= room) middle += `${middle ? "/" : ""}${word}`;
  return join(head, middle + "x".repeat(room - middle.length), name);
}

const tableOf = (lines: string[]) => {
  const start = lines.findIndex((l) => l.startsWith("DISPOSITION"));
  const end = lines.findIndex((l, i) => i > start && (l === "" || l.startsWith("(")));
  return lines.slice(start, end);
};

describe("hygiene's table on a terminal", () => {
  it("fits 80 columns, sorts what needs a person first, aligns wide characters, drops the empty disk column", () => {
    fleet();
    const r = pty(["hygiene"], 80);
    expect(r.code, r.raw).toBe(0);
    expect(r.raw).not.toMatch(ESC); // NO_COLOR (the hermetic env sets it)
    for (const line of r.screen) expect(displayWidth(line), line).toBeLessThanOrEqual(80);
    const table = tableOf(r.screen);
    expect(table[0]).not.toContain("DISK"); // not measured: no column
    const dispositions = table.slice(1).map((l) => l.split(/\s+/)[0]);
    expect(dispositions).toEqual(["needs_salvage", "reapable", "reclaimable", "live", "live"]);
    // every column after BRANCH starts at one display column in every row, the Japanese one too
    const reasonsAt = displayWidth((table[0] as string).slice(0, (table[0] as string).indexOf("REASONS")));
    const japanese = table.find((l) => l.includes("機能")) as string;
    expect(japanese).toBeDefined();
    expect(displayWidth(japanese.slice(0, japanese.indexOf("live_owner")))).toBe(reasonsAt);
    // to fit, OWNER, TASK and PATH are hidden before REASONS gives way, and a footer says so
    expect(r.screen).toContain("(OWNER, TASK, PATH hidden to fit 80 columns; --wide shows every column)");
    expect(r.screen.join("\n")).toContain("…"); // the long path lost its middle
  });

  it("shows more at 200 columns, everything with --wide, and every cell whole through a pipe", () => {
    fleet();
    const foreign = ok(["hygiene"]).worktrees.find((w: { handle: string | null }) => w.handle === null).path as string;
    const wide = pty(["hygiene"], 200);
    for (const line of wide.screen) expect(displayWidth(line)).toBeLessThanOrEqual(200);
    expect(wide.screen.join("\n")).toContain(foreign); // 200 columns hold the whole path
    const narrowWide = pty(["hygiene", "--wide"], 80);
    expect(stripAnsi(narrowWide.raw)).toContain(foreign);
    const piped = s.orchard(["hygiene"], { json: false });
    expect(piped.stdout).toContain(foreign);
    expect(piped.stdout).not.toContain("…");
    expect(piped.stdout).not.toMatch(ESC);
    expect(piped.stderr).toBe(""); // no progress in a pipe
  });
});

describe("colour", () => {
  it("colours dispositions on a terminal, not with NO_COLOR, --no-color, TERM=dumb or a pipe, and always with FORCE_COLOR", () => {
    fleet();
    const coloured = pty(["hygiene"], 120, { NO_COLOR: undefined });
    expect(coloured.raw).toContain("\x1b[31m\x1b[1mneeds_salvage");
    expect(coloured.raw).toContain("\x1b[32mlive");
    expect(pty(["hygiene", "--no-color"], 120, { NO_COLOR: undefined }).raw).not.toMatch(ESC);
    expect(pty(["hygiene"], 120, { NO_COLOR: "1" }).raw).not.toMatch(ESC);
    expect(pty(["hygiene"], 120, { NO_COLOR: undefined, TERM: "dumb" }).raw).not.toMatch(ESC);
    const piped = s.orchard(["hygiene"], { json: false, env: { NO_COLOR: "" } });
    expect(piped.stdout).not.toMatch(ESC);
    const forced = s.orchard(["hygiene"], { json: false, env: { NO_COLOR: "", FORCE_COLOR: "1" } });
    expect(forced.stdout).toContain("\x1b[31m\x1b[1mneeds_salvage");
    // per stream: stdout into a file, stderr still a terminal
    const split = orchardInPty([...globals(), "status", "no-such"], { cols: 80, cwd: s.primary, env: { NO_COLOR: undefined }, stdoutTo: "> /dev/null" });
    expect(split.raw).toContain("\x1b[31m\x1b[1morchard:");
  });
});

describe("progress", () => {
  const frames = (raw: string) => raw.split("\r\x1b[2K").map((f) => stripAnsi(f));

  it("draws one line within the width, by handle, and leaves nothing behind (80 columns)", () => {
    for (let i = 0; i < 30; i++) s.worktree(`bulk-${i}`, { path: join(s.root, "foreign", "a-long-directory-name-for-one-agent", `agent-number-${i}`) });
    fleet();
    const r = pty(["hygiene", "--disk"], 80);
    expect(r.code, r.raw).toBe(0);
    const drawn = frames(r.raw).filter((f) => f.startsWith("hygiene"));
    expect(drawn.length).toBeGreaterThan(0);
    for (const f of drawn) {
      expect(displayWidth(f), f).toBeLessThan(80);
      expect(f).not.toContain(s.root); // handles and names, never a path
    }
    expect(r.screen.some((l) => l.startsWith("hygiene"))).toBe(false); // no debris
    expect(r.screen[0]).toMatch(/^\d+ worktrees in app/);
  });

  it("cleanup run's progress leaves no debris at 80 columns", () => {
    // released managed worktrees under a home whose path alone is wider than the terminal
    const home = join(s.root, "a-workspace-directory-with-a-name-long-enough-to-wrap-any-progress-line-that-carried-it");
    const at = ["--home", home];
    for (let i = 0; i < 12; i++) {
      const added = s.orchard([...at, "add", `agent-number-${i}`, "--owner", "me"]).json;
      expect(s.orchard([...at, "release", added.handle, "--owner", "me"]).code).toBe(0);
    }
    const r = orchardInPty(["--home", home, "--repo", s.primary, "cleanup", "run"], { cols: 80, cwd: s.primary, env: { ORCHARD_PROGRESS_DELAY_MS: "0" } });
    expect(r.code, r.raw).toBe(0);
    expect(frames(r.raw).some((f) => f.startsWith("cleanup run"))).toBe(true);
    expect(r.screen.filter((l) => /^cleanup( run:| \d+\/\d+)/.test(l))).toEqual([]); // no progress left on the screen
    expect(r.screen.filter((l) => l.includes("agent-number-"))).toEqual([]); // what went as planned is counted, not a row each
    expect(r.screen.filter((l) => l.startsWith("done:"))).toEqual([]); // all went as the first line said: not said twice
    // before it acts, it says what it will do (on the terminal, for good); the result follows on a clean line
    expect(r.screen[0]).toBe("cleanup run will remove 12 worktree(s), delete 12 merged branch(es)");
    expect(r.raw.indexOf("cleanup run will remove 12")).toBeLessThan(r.raw.indexOf("cleanup run: cleanup "));
    expect(r.screen[1]).toMatch(/^acting on: 12 worktree\(s\) removed/);
  });

  it("never reaches --json or a pipe", () => {
    fleet();
    const json = pty(["hygiene", "--json"], 80);
    expect(json.raw).not.toContain("hygiene:");
    expect(JSON.parse(json.raw).ok).toBe(true);
    const piped = s.orchard(["hygiene"], { json: false, env: { ORCHARD_PROGRESS_DELAY_MS: "0" } });
    expect(piped.stderr).toBe("");
  });
});

describe("screen (the test's terminal)", () => {
  it("wraps a long line and erases only the last row, as a terminal does", () => {
    expect(screen(`${"x".repeat(100)}\r\x1b[2Kdone`, 80)).toEqual(["x".repeat(80), "done"]);
    expect(screen("日本語\r\x1b[2K", 4)).toEqual(["日本"]);
  });
});
