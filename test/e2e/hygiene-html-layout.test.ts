// The HTML report's layout in a real browser (headless Chromium, test/helpers/browser.ts), read
// from the DOM at 1280 and 800 px: what to run comes first and inside the first screen, above the
// table; the table is in attention order, one line a row, sortable by a header's button (mouse and
// keyboard), with details on demand; commands never wrap and one click selects a whole one. A
// 1,000-worktree report, rendered from a synthetic report, stays one line a row.
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import type { Browser, Page } from "playwright-core";
import { launchChromium } from "../helpers/browser.js";
import { Scenario, deadPid } from "../helpers/scenario.js";
import { SAMPLE_FACTS } from "../helpers/facts.js";
import { ATTENTION_ORDER } from "../../src/core/hygiene/attention.js";
import { renderHygieneHtml } from "../../src/core/hygiene/html.js";
import { summarize } from "../../src/core/hygiene/groups.js";
import { suggest } from "../../src/core/hygiene/suggest.js";
import { reason, type ReasonCode } from "../../src/core/shared/reasons/reasons.js";
import type { Disposition, HygieneReport, HygieneWorktree } from "../../src/core/hygiene/types.js";

let browser: Browser;
let s: Scenario;
let shots: string;

beforeAll(async () => {
  browser = (await launchChromium()).browser;
  shots = mkdtempSync(join(tmpdir(), "orchard-html-shots-"));
}, 120_000); // the first run unpacks the npm Chromium (about 200 MB)
afterAll(async () => {
  await browser?.close();
  rmSync(shots, { recursive: true, force: true });
});
beforeEach(() => {
  s = Scenario.create();
});
afterEach(() => s.cleanup());

const VIEWPORT_HEIGHT = 900;

interface Box {
  top: number;
  bottom: number;
  height: number;
}
interface Layout {
  run: Box;
  firstTodo: Box;
  table: Box;
  charts: number[];
  rowHeights: number[];
  /** Each visible command: how many line boxes its text lies on (1: it did not wrap), its line height and its content's height. */
  commands: { text: string; lines: number; lineHeight: number; inner: number }[];
  pageWidth: number;
  pageHeight: number;
}

/** Layout facts of the page, read from the DOM in page coordinates (a string: the project's types have no DOM). */
const LAYOUT = `(() => {
  const box = (el) => { const r = el.getBoundingClientRect(); return { top: r.top + window.scrollY, bottom: r.bottom + window.scrollY, height: r.height }; };
  const lines = (el) => { const range = document.createRange(); range.selectNodeContents(el); return new Set([...range.getClientRects()].map((r) => Math.round(r.top))).size; };
  const commands = [...document.querySelectorAll("code.cmd")].filter((el) => el.offsetParent !== null);
  return {
    run: box(document.getElementById("run")),
    firstTodo: box(document.querySelector("#run li")),
    table: box(document.getElementById("wt")),
    charts: [...document.querySelectorAll("main svg")].map((el) => box(el).top),
    rowHeights: [...document.querySelectorAll("tbody tr.row")].map((el) => box(el).height),
    commands: commands.map((el) => {
      const style = getComputedStyle(el);
      const inner = style.display === "inline" ? box(el).height : el.clientHeight - parseFloat(style.paddingTop) - parseFloat(style.paddingBottom);
      return { text: el.textContent, lines: lines(el), lineHeight: parseFloat(style.lineHeight), inner };
    }),
    pageWidth: document.documentElement.scrollWidth,
    pageHeight: document.documentElement.scrollHeight,
  };
})()`;

const layout = (page: Page): Promise<Layout> => page.evaluate(LAYOUT);

/** The rows' cells of one column, top to bottom: their sort value (data-v) or text. */
const column = (page: Page, key: string) =>
  page.$$eval(`tbody tr.row td.${key}`, (cells) => cells.map((td) => td.getAttribute("data-v") ?? td.textContent ?? ""));

const sorted = (values: readonly string[], cmp: (a: string, b: string) => number) => values.every((v, i) => i === 0 || cmp(values[i - 1] as string, v) <= 0);
const byText = (a: string, b: string) => a.toLowerCase().localeCompare(b.toLowerCase());
const byNumber = (a: string, b: string) => parseFloat(a) - parseFloat(b);

/** PNG width and height, from its IHDR chunk. */
function pngSize(file: string): { width: number; height: number } {
  const png = readFileSync(file);
  return { width: png.readUInt32BE(16), height: png.readUInt32BE(20) };
}

describe("hygiene --html at phone and desktop widths", () => {
  it("fits a 390 px phone; gives owner and reasons room at 1280 and 1400 px; names stay told apart; times read local and relative, ISO on hover", async () => {
    for (const n of [1, 2])
      s.orchard(["add", `feature/a-rather-long-branch-name-that-only-differs-at-the-end-${n}`, "--owner", `agent-with-a-long-name-${n}`, "--task", `o/r#${n}`]);
    const wip = s.orchard(["add", "wip-1", "--owner", "me"]).json;
    s.makeDirty(wip.path);
    s.orchard(["release", wip.handle, "--owner", "me"]);
    const out = join(s.root, "report.html");
    expect(s.orchard(["hygiene", "--html", out]).code).toBe(0);
    for (const width of [390, 900, 1280, 1400]) {
      const page = await browser.newPage({ viewport: { width, height: VIEWPORT_HEIGHT } });
      await page.goto(pathToFileURL(out).href);
      const l = await layout(page);
      expect(l.pageWidth, `${width}: nothing wider than the window`).toBeLessThanOrEqual(width);
      const cellWidth = (key: string) => page.$$eval(`tbody tr.row td.${key}`, (tds) => Math.min(...tds.map((td) => td.getBoundingClientRect().width)));
      expect(await cellWidth("worktree"), `${width}: the worktree column is readable`).toBeGreaterThan(100);
      if (width >= 1280) {
        // about 8 characters at 1280 before: now a name like agent-with-a-long-name-1 and three reason codes fit
        expect(await cellWidth("owner"), `${width}: owner`).toBeGreaterThan(130);
        expect(await cellWidth("reasons"), `${width}: reasons`).toBeGreaterThan(180);
      }
      // two handles that differ only at their end look different (the name gives way in its middle)
      const tails = await page.$$eval("tbody tr.row td.worktree .name .t", (els) =>
        els.filter((e) => (e as unknown as { offsetWidth: number }).offsetWidth > 0).map((e) => e.textContent),
      );
      expect(new Set(tails).size, `${width}: every name's end shows`).toBe(tails.length);
      const time = await page.$eval("header time", (t) => ({
        text: t.textContent,
        title: t.getAttribute("title") ?? "",
        datetime: t.getAttribute("datetime"),
      }));
      expect(time.text).toMatch(/^(now|\d+s ago|\d+ min ago)$/);
      expect(time.title).toContain(time.datetime);
      await page.close();
    }
  });
  it("the fleet page reads its times local and relative too, the ISO time on hover", async () => {
    s.orchard(["add", "feat-a", "--owner", "me"], { env: { ORCHARD_HOST: "solo" } });
    const out = join(s.root, "fleet.html");
    expect(s.orchard(["hygiene", "--fleet", "--html", out], { env: { ORCHARD_HOST: "solo" } }).code).toBe(0);
    const page = await browser.newPage({ viewport: { width: 1280, height: VIEWPORT_HEIGHT } });
    await page.goto(pathToFileURL(out).href);
    const times = await page.$$eval("time[datetime]", (ts) =>
      ts.map((t) => ({ text: t.textContent, title: t.getAttribute("title") ?? "", datetime: t.getAttribute("datetime") })),
    );
    expect(times.length).toBeGreaterThanOrEqual(2); // generated, and the host's published summary
    for (const t of times) {
      expect(t.text).toMatch(/^(now|\d+s ago|\d+ min ago|in \d+(s| min|h))$/);
      expect(t.title).toContain(t.datetime);
    }
    await page.close();
  });
});

describe("hygiene --html layout in Chromium", () => {
  it("what to run first, one-line rows in attention order, sortable headers, details on demand, unbroken commands", async () => {
    s.worktree("worktree-agent-dead", { lock: `claude agent d (pid ${deadPid()})` });
    s.worktree("scratch", { path: join(s.root, "foreign", "a", "rather", "deeply", "nested", "directory", "for", "one", "agent", "scratch") });
    s.orchard(["add", "live-1", "--owner", "me", "--task", "o/r#7"]);
    s.orchard(["add", "done-1"]);
    const wip = s.orchard(["add", "wip-1", "--owner", "me"]).json;
    s.makeDirty(wip.path);
    s.orchard(["release", wip.handle, "--owner", "me"]);
    const out = join(s.root, "report.html");
    const r = s.orchard(["hygiene", "--disk", "--html", out]);
    expect(r.code, r.stderr).toBe(0);

    for (const width of [1280, 800]) {
      const page = await browser.newPage({ viewport: { width, height: VIEWPORT_HEIGHT } });
      const errors: string[] = [];
      page.on("pageerror", (e) => errors.push(e.message));
      await page.goto(pathToFileURL(out).href);
      const shot = join(shots, `hygiene-${width}.png`);
      await page.screenshot({ path: shot, fullPage: true });
      expect(pngSize(shot).width, `${width}: nothing wider than the window`).toBe(width);

      const l = await layout(page);
      expect(l.pageWidth).toBe(width);
      expect(l.run.bottom, `${width}: what to run ends above the table`).toBeLessThanOrEqual(l.table.top);
      expect(l.firstTodo.bottom, `${width}: what to run is on the first screen`).toBeLessThan(VIEWPORT_HEIGHT);
      expect(l.table.top, `${width}: the table starts on the first screen`).toBeLessThan(VIEWPORT_HEIGHT);
      for (const top of l.charts) expect(top, `${width}: charts come after the table`).toBeGreaterThan(l.table.bottom);
      expect(l.rowHeights).toHaveLength(r.json.worktrees.length);
      for (const h of l.rowHeights) expect(h, `${width}: a row is one line`).toBeLessThan(40);
      expect(l.commands.length).toBeGreaterThan(3);
      for (const c of l.commands) {
        expect(c.lines, `${width}: ${c.text} stays on one line`).toBe(1);
        expect(c.inner, `${width}: ${c.text} is one line high`).toBeLessThan(1.5 * c.lineHeight);
      }
      const todo = await page.$$eval("#run code.cmd", (els) => els.map((e) => e.textContent));
      expect(todo[0]).toBe("orchard cleanup run --include needs_salvage --salvage"); // work at risk first
      expect(todo).toContain(
        `git worktree remove -- ${join(s.root, "foreign", "a", "rather", "deeply", "nested", "directory", "for", "one", "agent", "scratch")}`,
      );

      // attention order, as the terminal: needs_salvage first, live last
      const rank = (d: string) => ATTENTION_ORDER.indexOf(d as Disposition);
      const dispositions = await page.$$eval("tbody", (bodies) => bodies.map((b) => b.getAttribute("data-disposition") ?? ""));
      expect(dispositions[0]).toBe("needs_salvage");
      expect(sorted(dispositions, (a, b) => rank(a) - rank(b))).toBe(true);
      const names = await column(page, "worktree");
      expect(sorted(names, byText)).toBe(false); // the fleet's attention order is not its name order

      // a click on a header sorts by it, a second click reverses; the keyboard does the same
      await page.locator("th.worktree button").click();
      const ascending = await column(page, "worktree");
      expect(sorted(ascending, byText)).toBe(true);
      expect([...ascending].sort()).toEqual([...names].sort());
      expect(await page.locator("th.worktree").getAttribute("aria-sort")).toBe("ascending");
      await page.locator("th.worktree button").click();
      expect(sorted(await column(page, "worktree"), (a, b) => byText(b, a))).toBe(true);
      expect(await page.locator("th.worktree").getAttribute("aria-sort")).toBe("descending");
      await page.locator("th.disk button").focus();
      await page.keyboard.press("Enter");
      const disk = await column(page, "disk");
      expect(sorted(disk, byNumber)).toBe(true);
      expect(new Set(disk).size).toBeGreaterThan(1);
      expect(await page.locator("th.worktree").getAttribute("aria-sort")).toBeNull();

      // details on demand: the whole path and every reason's sentence, the row stays one line
      const wipBody = page.locator("tbody", { hasText: "wip-1" });
      expect(await wipBody.locator("tr.details").isVisible()).toBe(false);
      await wipBody.locator("button.more").click();
      expect(await wipBody.locator("button.more").getAttribute("aria-expanded")).toBe("true");
      const details = await wipBody.locator("tr.details").innerText();
      expect(details).toContain(wip.path);
      expect(details).toContain("the worktree has tracked changes or untracked files");
      expect((await wipBody.locator("tr.row").boundingBox())?.height).toBeLessThan(40);
      await page.screenshot({ path: join(shots, `hygiene-${width}-details.png`), fullPage: true });

      // one click selects a whole command, ready to copy
      const first = page.locator("#run code.cmd").first();
      await first.click();
      expect(await page.evaluate("window.getSelection().toString()")).toBe(await first.textContent());
      expect(errors).toEqual([]);
      await page.close();
    }
  });
});

/** A report of `n` worktrees in every disposition, its suggestions from the real suggest(). */
function syntheticReport(n: number): HygieneReport {
  const mix: [Disposition, ReasonCode[]][] = [
    ["live", ["live_owner"]],
    ["live", ["live_owner"]],
    ["reclaimable", ["not_live", "clean", "work_preserved"]],
    ["reapable", ["dead_owner", "clean", "merged"]],
    ["needs_salvage", ["terminal", "dirty"]],
    ["idle", ["not_live", "dirty"]],
    ["unknown", ["liveness_unknown"]],
    ["missing", ["missing_directory"]],
  ];
  const worktrees = Array.from({ length: n }, (_, i): HygieneWorktree => {
    const [disposition, codes] = mix[i % mix.length] as [Disposition, ReasonCode[]];
    const managed = i % 5 !== 0;
    const handle = managed ? `app@agent-${String(i).padStart(4, "0")}` : null;
    const path = managed
      ? `/home/ci/.orchard/worktrees/${handle}`
      : `/srv/agents/pool-${i % 7}/a/rather/deeply/nested/directory/worktree-agent-${i.toString(16)}`;
    const facts = {
      ...SAMPLE_FACTS,
      path,
      handle,
      managed,
      branch: `feature/agent-${i}-${"x".repeat(i % 40)}`,
      owner: disposition === "live" ? `agent-${i}` : null,
    };
    const verdict = { disposition, reasons: codes.map((c) => reason(c)) };
    return {
      ...facts,
      task: i % 3 ? `github.com/acme/app#${i}` : null,
      unpushed: i % 4,
      disk: {
        bytes: (i % 97) * 1_200_000,
        allocatedBytes: (i % 97) * 1_048_576,
        uniqueBytes: (i % 13) * 1_048_576,
        apparentBytes: (i % 97) * 1_200_000,
        reflinks: "none",
      },
      repo: "app",
      ...verdict,
      suggestion: suggest({ ...facts, lock: { locked: disposition === "reapable", reason: null, owner: null } }, verdict, { repoPrimary: null }),
    };
  });
  return {
    ok: true,
    generatedAt: "2026-01-01T00:00:00.000Z",
    repos: [{ identity: "app", name: "app", primary: "/home/ci/app", defaultBranch: "main" }],
    summary: summarize(worktrees),
    worktrees,
    duplicateTaskGroups: [],
    patchEquivalentGroups: [],
    preventableDuplicates: { count: 0, recent: [] },
    cleanupBacklog: { count: 0, bytes: null, byDisposition: {} },
    notes: [],
  };
}

describe("a 1,000-worktree report", () => {
  it("stays one line a row, what to run first, and sorts", async () => {
    const file = join(shots, "big.html");
    writeFileSync(file, renderHygieneHtml(syntheticReport(1000)));
    const page = await browser.newPage({ viewport: { width: 1280, height: VIEWPORT_HEIGHT } });
    await page.goto(pathToFileURL(file).href);
    const l = await layout(page);
    expect(l.rowHeights).toHaveLength(1000);
    expect(Math.max(...l.rowHeights)).toBeLessThan(40);
    expect(l.firstTodo.bottom).toBeLessThan(VIEWPORT_HEIGHT);
    expect(l.run.bottom).toBeLessThanOrEqual(l.table.top);
    expect(l.table.top, "a long list of commands does not push the table off the first screen").toBeLessThan(VIEWPORT_HEIGHT);
    expect(await page.locator("#run > ol > li").count()).toBe(10);
    expect(await page.locator("#run details summary").innerText()).toMatch(/^\d+ more, \d+ of them about work at risk$/);
    expect(l.pageHeight).toBeLessThan(1000 * 40 + 4000); // rows of one line, not 170 px each
    expect(l.pageWidth).toBe(1280);
    for (const c of l.commands) expect(c.lines, c.text ?? "").toBe(1);
    await page.locator("th.disk button").click();
    expect(sorted(await column(page, "disk"), byNumber)).toBe(true);
    await page.close();
  });
});
