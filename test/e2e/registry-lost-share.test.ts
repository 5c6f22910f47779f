// A lost registry changes no answer (SPEC v5 §3, issue 50): with orchard.db* deleted mid-day, the
// kept copies the worktrees still use are read from disk (each worktree's recorded fingerprints),
// so cleanup keeps them; the trust that went with the registry makes the next bootstrap skip its
// install, which add says (never "ran"); `orchard bootstrap` runs it once trusted again.
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { existsSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { Scenario, git, liveProcess, waitFor } from "../helpers/scenario.js";
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
    expect(s.orchard(["trust", "--yes"]).code).toBe(0);
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

    expect(s.orchard(["trust", "--yes"]).code).toBe(0);
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

describe("orchard bootstrap", () => {
  it("runs an existing worktree's bootstrap (by task) once trusted; never over work; a dry run runs nothing", () => {
    setUpShare(s);
    const a = s.orchard(["add", "feat-a", "--task", "T-9"]); // untrusted: the install skipped
    expect(a.json.bootstrap.status).toBe("skipped");
    const untrusted = s.orchard(["bootstrap", "T-9"]);
    expect(untrusted.code).toBe(3);
    expect(untrusted.json).toMatchObject({
      ok: false,
      action: "refused",
      handle: a.json.handle,
      reasons: [expect.objectContaining({ code: "config_untrusted", next: "orchard trust" })],
    });
    expect(installs(s)).toBe(0);

    expect(s.orchard(["trust", "--yes"]).code).toBe(0);
    writeFileSync(join(a.json.path, "notes.txt"), "mine\n"); // work
    const refused = s.orchard(["bootstrap", a.json.handle]);
    expect(refused.code).toBe(3);
    expect(refused.json).toMatchObject({ ok: false, action: "refused", reasons: [expect.objectContaining({ code: "dirty" })] });
    expect(installs(s)).toBe(0);
    rmSync(join(a.json.path, "notes.txt"));

    const planned = s.orchard(["bootstrap", "feat-a", "--dry-run"]);
    expect(planned.json).toMatchObject({ ok: true, action: "planned", reasons: [] });
    expect(installs(s)).toBe(0);
    const done = s.orchard(["bootstrap", a.json.path]);
    expect(done.code, done.stdout + done.stderr).toBe(0);
    expect(done.json).toMatchObject({ ok: true, action: "bootstrapped", bootstrap: { status: "ran", share: { action: "kept" } } });
    expect(installs(s)).toBe(1);
    expect(existsSync(join(a.json.path, "node_modules", "left", "index.js"))).toBe(true);
    expect(run(["add", "feat-a", "--task", "T-9"], {}).bootstrap.status).toBe("reused"); // nothing owed any more
    // what it installed is its own, not work: its directories gone, a second run takes them from the kept copy
    rmSync(join(a.json.path, "node_modules"), { recursive: true });
    expect(s.orchard(["bootstrap", "T-9"]).json).toMatchObject({ action: "bootstrapped", bootstrap: { status: "shared" } });
    expect(installs(s)).toBe(1);
    expect(s.orchard(["bootstrap", "no-such-thing"]).code).toBe(2);
  });
});

describe("one verdict whatever asks, without the registry", () => {
  it("status resolves a branch; reap-orphans calls a killed agent's worktree dead (as hygiene and status do), not liveness_unknown", async () => {
    const agent = liveProcess();
    const a = s.orchard(["add", "feat/killed", "--owner", "agent-1", "--pid", String(agent.pid), "--no-bootstrap"]);
    expect(a.code, a.stdout + a.stderr).toBe(0);
    agent.stop();
    await waitFor(() => s.orchard(["status", a.json.handle]).json.worktree.liveness.state === "dead", "the agent's death");
    git(s.primary, "worktree", "add", "-q", join(s.root, "plain"), "-b", "plain");
    expect(s.orchard(["status", "plain"]).json.worktree).toMatchObject({ branch: "plain", managed: false });
    dropRegistry();

    const st = s.orchard(["status", "feat/killed"]);
    expect(st.code, st.stdout + st.stderr).toBe(0);
    expect(st.json.worktree).toMatchObject({ handle: a.json.handle, managed: true, liveness: { state: "dead" } });
    const h = s.orchard(["hygiene"]);
    expect(h.json.worktrees.find((w: { handle: string }) => w.handle === a.json.handle).liveness.state).toBe("dead");
    const reap = s.orchard(["reap-orphans", "--dry-run", "--guard", "0s"]);
    const entry = reap.json.entries.find((e: { path: string }) => e.path === a.json.path);
    expect(entry).toMatchObject({ status: "planned", reason: "pid_dead_and_merged" });
  });
});
