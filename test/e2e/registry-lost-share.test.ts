// A lost registry changes no answer (SPEC v5 §3, issue 50): with orchard.db* deleted mid-day, the
// kept copies the worktrees still use are read from disk (each worktree's recorded fingerprints),
// so cleanup keeps them; the trust that went with the registry makes the next bootstrap skip its
// install, which add says (never "ran"); `orchard bootstrap` runs it once trusted again.
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { existsSync, readdirSync, rmSync } from "node:fs";
import { join } from "node:path";
import { Scenario } from "../helpers/scenario.js";
import { TRUSTED, installs, setUpShare } from "../helpers/share.js";

let s: Scenario;
beforeEach(() => {
  s = Scenario.create();
});
afterEach(() => s.cleanup());

const run = (args: string[], env: Record<string, string> = TRUSTED): any => {
  const r = s.orchard(args, { env });
  expect(r.code, r.stdout + r.stderr).toBe(0);
  return r.json;
};
const dropRegistry = (): void => {
  for (const name of readdirSync(s.home)) if (name.startsWith("orchard.db")) rmSync(join(s.home, name));
};

describe("the registry deleted mid-day", () => {
  it("cleanup keeps the kept copy that worktrees still use (read from their recorded fingerprints)", () => {
    setUpShare(s);
    const a = run(["add", "feat-a"]);
    const b = run(["add", "feat-b"]);
    expect(b.bootstrap.status).toBe("shared");
    const key = a.bootstrap.share.key as string;
    dropRegistry();

    const report = run(["hygiene"]);
    expect(report.keptCopies).toEqual([expect.objectContaining({ key, worktrees: 2, disposition: "kept" })]);
    const plan = run(["cleanup", "plan"]);
    expect(plan.keptCopies).toEqual([]);
    const applied = run(["cleanup", "apply", plan.planId]);
    expect(applied.keptCopies.removed).toEqual([]);
    expect(existsSync(join(s.home, "share", "app", key))).toBe(true);
    expect(run(["add", "feat-c"]).bootstrap.status).toBe("shared"); // the next worktree does not install
    expect(installs(s)).toBe(1);
  });
});

describe("trust went with the registry", () => {
  it("the next add says its install skipped (never ran); adopting it once trusted runs the bootstrap it owes", () => {
    setUpShare(s);
    expect(s.orchard(["trust"]).code).toBe(0);
    const a = run(["add", "feat-a"], {});
    expect(a.bootstrap.status).toBe("ran");
    dropRegistry();

    const b = s.orchard(["add", "feat-b"]);
    expect(b.code).toBe(0);
    expect(b.json.bootstrap.status).toBe("skipped");
    expect(b.json.bootstrap.steps).toEqual(expect.arrayContaining([expect.objectContaining({ status: "skipped", reason: "config_untrusted" })]));
    expect(existsSync(join(b.json.path, "node_modules"))).toBe(false);
    const human = s.orchard(["add", "feat-b"], { json: false });
    expect(human.stdout).not.toMatch(/bootstrap (ran|reused)/);
    expect(human.stdout).toMatch(/config_untrusted/);
    const again = s.orchard(["add", "feat-b"]);
    expect(again.json).toMatchObject({ action: "adopted", bootstrap: { status: "skipped" } });

    expect(s.orchard(["trust"]).code).toBe(0);
    const adopted = run(["add", "feat-b"], {});
    expect(adopted).toMatchObject({
      action: "adopted",
      bootstrap: { status: "shared" },
      notes: expect.arrayContaining([expect.objectContaining({ code: "bootstrap_owed" })]),
    });
    expect(existsSync(join(adopted.path, "node_modules", "left", "index.js"))).toBe(true);
    expect(installs(s)).toBe(1);
    expect(run(["add", "feat-b"], {}).bootstrap.status).toBe("reused"); // owed no more
  });
});
