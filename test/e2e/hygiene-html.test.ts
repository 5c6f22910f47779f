// `orchard hygiene --html`: the page renders in a real browser (headless Chromium through
// playwright-core), shows one row per worktree with hostile paths escaped, filters work, fetches
// nothing, and the console stays clean. The browser comes from npm (see test/helpers/browser.ts).
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import type { Browser } from "playwright-core";
import { launchChromium } from "../helpers/browser.js";
import { Scenario, deadPid } from "../helpers/scenario.js";

let browser: Browser;
let s: Scenario;

beforeAll(async () => {
  browser = (await launchChromium()).browser;
}, 120_000); // the first run unpacks the npm Chromium (about 200 MB)
afterAll(async () => {
  await browser?.close();
});
beforeEach(() => {
  s = Scenario.create();
});
afterEach(() => s.cleanup());

describe("hygiene --html in Chromium", () => {
  it("renders every worktree, escapes hostile paths, filters, and logs no error", async () => {
    const hostile = join(s.root, "wt", `evil <b>"q"</b> & 'x'\nline2`);
    s.worktree("hostile", { path: hostile });
    s.worktree("worktree-agent-dead", { lock: `claude agent d (pid ${deadPid()})` });
    const live = s.orchard(["add", "live-1", "--owner", "me"]).json;
    s.orchard(["add", "done-1"]);
    const wip = s.orchard(["add", "wip-1", "--owner", "me"]).json;
    s.makeDirty(wip.path);
    s.orchard(["release", wip.handle, "--owner", "me"]);
    mkdirSync(join(s.home, "worktrees", "app@husk"), { recursive: true });
    writeFileSync(join(s.home, "worktrees", "app@husk", "x.txt"), "x");
    const out = join(s.root, "report <1>.html");
    const r = s.orchard(["hygiene", "--disk", "--html", out]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.json.html).toBe(out);
    const html = readFileSync(out, "utf8");
    expect(html).not.toContain('<b>"q"</b>');

    const page = await browser.newPage();
    const errors: string[] = [];
    const requests: string[] = [];
    page.on("console", (m) => {
      if (m.type() === "error" || m.type() === "warning") errors.push(m.text());
    });
    page.on("pageerror", (e) => errors.push(e.message));
    page.on("request", (req) => requests.push(req.url()));
    await page.goto(pathToFileURL(out).href);

    const rows = page.locator("tbody tr.row");
    expect(await rows.count()).toBe(r.json.worktrees.length);
    expect(await rows.count()).toBe(6);
    const hostileBody = page.locator("tbody", { hasText: "evil <b>" });
    expect(await hostileBody.count()).toBe(1);
    expect(await hostileBody.locator("td.worktree").getAttribute("title")).toContain(`evil <b>"q"</b> & 'x'\u240aline2`);
    await hostileBody.locator("button.more").click(); // the details row shows the whole path
    expect(await hostileBody.locator("tr.details dd code.cmd").first().innerText()).toContain(`evil <b>"q"</b> & 'x'\u240aline2`);
    expect(await page.locator("tbody b").count()).toBe(0); // the path's <b> stayed text

    for (const d of ["live", "reclaimable", "reapable", "needs_salvage", "husk"])
      expect(await page.locator(`tbody[data-disposition="${d}"]`).count(), d).toBeGreaterThan(0);
    expect(await page.locator(`tbody[data-disposition="live"]`).innerText()).toContain(live.handle);
    // one OWNER label with the terminal's table: the released lease's last owner, the lock's owner
    const ownerOf = (text: string) => page.locator("tbody", { hasText: text }).locator("td.owner").first().innerText();
    expect(await ownerOf("wip-1")).toBe("me (released)");
    expect(await ownerOf("worktree-agent-dead")).toMatch(/^claude-code \d+$/);
    expect(await ownerOf("live-1")).toBe("me");
    expect(await page.locator("svg[aria-label='worktrees by disposition'] rect").count()).toBe(8);
    expect(await page.locator("svg[aria-label='disk by worktree'] rect").count()).toBeGreaterThan(0);
    expect(await page.locator("code.cmd", { hasText: "orchard reap-orphans" }).count()).toBeGreaterThan(0);

    await page.locator(".filters button[data-filter='reapable']").click();
    expect(await page.locator("tbody:not(.hidden)").count()).toBe(1);
    await page.locator(".filters button[data-filter='all']").click();
    await page.fill("#q", "wip-1");
    expect(await page.locator("tbody:not(.hidden)").count()).toBe(1);
    expect(await page.locator("#shown").innerText()).toBe("1 of 6 shown");

    expect(errors).toEqual([]);
    expect(requests.every((u) => u.startsWith("file:"))).toBe(true);
    await page.close();
  });

  it("an empty fleet still renders", async () => {
    const out = join(s.root, "empty.html");
    expect(s.orchard(["hygiene", "--html", out]).code).toBe(0);
    const page = await browser.newPage();
    const errors: string[] = [];
    page.on("pageerror", (e) => errors.push(e.message));
    await page.goto(pathToFileURL(out).href);
    expect(await page.locator("tbody tr").count()).toBe(0);
    expect(await page.locator("#run").innerText()).toContain("Nothing: every worktree is kept.");
    expect(await page.locator("text=Disk was not measured").count()).toBe(1);
    expect(errors).toEqual([]);
    await page.close();
    rmSync(out);
  });
});
