// `orchard cleanup apply` killed with SIGKILL at four moments of an item, then `cleanup resume`:
// every item finishes, every commit stays reachable, every dirty file is preserved or salvaged.
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { Scenario, git, gitResult } from "../helpers/scenario.js";
import { cleanupCalls, type Item } from "../helpers/cleanup.js";

let s: Scenario;
beforeEach(() => {
  s = Scenario.create();
});
afterEach(() => s.cleanup());

const { add, plan, itemStates } = cleanupCalls(() => s);

// One test per moment of the kill, each with a fresh fleet and its own time budget (four rounds of
// fleet building and ~10 CLI calls in one test ran past the budget on a loaded machine). Whether a
// kill lands inside an item is up to the scheduler, so no single moment asserts it; the last test
// asserts that most did, once all the moments have run.
describe("kill -9 during apply, then resume", () => {
  type States = { state: string; phase: string | null }[];
  const moments: [string, (states: States) => boolean][] = [
    ["the first item claimed", (st) => st.some((x) => x.state === "applying")],
    ["a removal under way", (st) => st.some((x) => x.phase === "acting")],
    ["a salvage made", (st) => st.some((x) => x.phase === "salvaged")],
    ["after the first item", (st) => st.some((x) => x.state === "done")],
  ];
  let ran = 0;
  let killedMidItem = 0;

  it.each(moments.map(([label, when], index) => ({ label, when, index })))(
    "at $label: finishes every item; every commit stays reachable; every dirty file is preserved or salvaged",
    async ({ label, when, index }) => {
      const fleet = [0, 1, 2].map((n) => {
        const w = add(`k${index}-${n}`, "--owner", "agent");
        mkdirSync(join(w.path, "node_modules", "pkg"), { recursive: true });
        for (let f = 0; f < 400; f++) writeFileSync(join(w.path, "node_modules", "pkg", `f${f}.js`), "x".repeat(200));
        writeFileSync(join(w.path, ".gitignore"), "node_modules/\n");
        git(w.path, "add", ".gitignore");
        git(w.path, "commit", "-q", "-m", "ignore");
        if (n === 2) s.makeDirty(w.path, { untracked: true, tracked: true });
        s.orchard(["release", w.handle, "--owner", "agent"]);
        return { ...w, head: git(w.path, "rev-parse", "HEAD"), dirty: n === 2 };
      });
      for (const w of fleet) s.push(`k${index}-${w.handle.slice(-1)}`, w.path); // work preserved on the remote
      const p = plan("--include", "reclaimable,needs_salvage", "--salvage");
      expect(p.items.length, `${label}: ${JSON.stringify(p.skipped)}`).toBe(3);
      const killed = await s.orchardKilledWhen(["cleanup", "apply", p.planId], () => when(itemStates(p.planId)));
      if (killed && itemStates(p.planId).some((x) => x.state === "applying")) killedMidItem++;
      const resumed = s.orchard(["cleanup", "resume", p.planId]);
      expect(resumed.code, `${label}: ${resumed.stdout}${resumed.stderr}`).toBe(0);
      expect(resumed.json, label).toMatchObject({
        status: "completed",
        failed: 0,
        remaining: 0,
      });
      const again = s.orchard(["cleanup", "resume", p.planId]).json; // idempotent
      expect(again, label).toMatchObject({
        status: "completed",
        done: resumed.json.done,
        skipped: resumed.json.skipped,
      });
      for (const w of fleet) {
        expect(gitResult(s.primary, "cat-file", "-e", `${w.head}^{commit}`).code, label).toBe(0);
        expect(git(s.primary, "for-each-ref", "--contains", w.head, "--format=%(refname)").length, `${label}: ${w.head} reachable`).toBeGreaterThan(0);
        if (!w.dirty) continue;
        const item = resumed.json.items.find((i: Item) => i.path === w.path);
        if (existsSync(w.path)) expect(readFileSync(join(w.path, "untracked-work.txt"), "utf8")).toBe("precious\n");
        else expect(git(s.primary, "show", `${item.salvageRef}:untracked-work.txt`), label).toBe("precious");
      }
      ran++;
    },
  );

  it("the kills really landed inside items", (ctx) => {
    ctx.skip(ran < moments.length, "needs every moment above to have run and passed");
    expect(killedMidItem).toBeGreaterThanOrEqual(2);
  });
});
