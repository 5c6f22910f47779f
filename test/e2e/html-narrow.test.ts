// The HTML pages on a phone (390 px, headless Chromium: test/helpers/browser.ts): the document is no
// wider than the viewport (no sideways scroll), for the hygiene page and the fleet page, with a
// long branch, a long foreign path and a kept copy of bootstrap.share; the fleet page shows the
// kept copies too.
import { afterAll, beforeAll, beforeEach, afterEach, describe, expect, it } from "vitest";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import type { Browser } from "playwright-core";
import { launchChromium } from "../helpers/browser.js";
import { Scenario } from "../helpers/scenario.js";
import { TRUSTED, setUpShare } from "../helpers/share.js";

let browser: Browser;
let s: Scenario;
beforeAll(async () => {
  browser = (await launchChromium()).browser;
}, 120_000);
afterAll(async () => {
  await browser?.close();
});
beforeEach(() => {
  s = Scenario.create();
});
afterEach(() => s.cleanup());

const run = (args: string[]): any => {
  const r = s.orchard(args, { env: TRUSTED });
  expect(r.code, r.stdout + r.stderr).toBe(0);
  return r.json;
};

async function widthAt(file: string, width: number): Promise<{ page: number; text: string }> {
  const page = await browser.newPage({ viewport: { width, height: 844 } });
  try {
    await page.goto(pathToFileURL(file).href);
    return await page.evaluate("({ page: document.documentElement.scrollWidth, text: document.body.innerText })");
  } finally {
    await page.close();
  }
}

describe("the HTML pages fit 390 px", () => {
  it("hygiene and fleet pages: no wider than the viewport; the fleet page lists the kept copies", async () => {
    setUpShare(s, { method: "copy" });
    run(["add", `feat/${"x".repeat(60)}-a-very-long-branch-name`, "--owner", "agent-1", "--task", "acme/app#7"]);
    run(["add", "feat-b", "--owner", "agent-2", "--task", "acme/app#7"]);
    s.worktree("worktree-agent-7f3c", { path: join(s.root, "a", "rather", "deeply", "nested", "directory", "for", "one", "agent", "worktree-agent-7f3c") });
    const hygiene = join(s.root, "hygiene.html");
    const fleet = join(s.root, "fleet.html");
    run(["hygiene", "--disk", "--html", hygiene]);
    run(["hygiene", "--fleet", "--html", fleet]);
    for (const file of [hygiene, fleet])
      for (const width of [390, 900]) expect((await widthAt(file, width)).page, `${file} at ${width}`).toBeLessThanOrEqual(width);
    expect((await widthAt(fleet, 1280)).text).toContain("Kept copies");
  });
});
