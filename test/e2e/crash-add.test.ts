// A crash at every step of `add` (issue 13.6, SPEC §4.10, §5): the process is SIGKILLed at a fault
// point, then the next `add` of the handle converges — an interrupted checkout is finished or
// rolled back, never refused `dirty` nor handed out; an interrupted bootstrap is re-run, never
// reported `reused`. Plain git confirms nothing was lost.
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { existsSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { Scenario, git } from "../helpers/scenario.js";
import { expectCleanCheckout, expectPresentOrSalvaged, expectStillReachable, killedAt, reachableCommits } from "../helpers/crash.js";

let s: Scenario;
beforeEach(() => {
  s = Scenario.create();
});
afterEach(() => s.cleanup());

const dir = (branch: string) => join(s.home, "worktrees", `app@${branch}`);
const admin = (branch: string) => join(s.primary, ".git", "worktrees", `app@${branch}`);
const noteCodes = (r: { json: { notes: { code: string }[] } }) => r.json.notes.map((n) => n.code);
const HEAD_FILES = ["README.md", ".gitignore", ...[0, 1, 2, 3, 4].map((i) => `src/file${i}.txt`)];

describe("killed during creation: the next add rolls back and creates", () => {
  it.each(["add.row", "add.branch", "add.checkout", "add.checked-out"])("%s", (point) => {
    const before = reachableCommits(s);
    killedAt(s, point, ["add", "feat-x", "--owner", "a1"]);
    if (point === "add.checkout") {
      // git really died mid-checkout: no index, every file staged for deletion, some written
      expect(existsSync(join(admin("feat-x"), "index"))).toBe(false);
      expect(existsSync(join(admin("feat-x"), "index.lock"))).toBe(true);
      expect(git(dir("feat-x"), "status", "--porcelain")).toMatch(/^D {2}README\.md$/m);
      expect(HEAD_FILES.filter((f) => existsSync(join(dir("feat-x"), f))).length).toBe(3);
    }
    const r = s.orchard(["add", "feat-x", "--owner", "a1"]);
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(r.json.action).toBe("created");
    expect(noteCodes(r)).toContain("creating_repaired");
    expect(r.json.bootstrap.status).toBe("ran");
    expectCleanCheckout(r.json.path, admin("feat-x"));
    for (const f of HEAD_FILES) expect(existsSync(join(r.json.path, f)), f).toBe(true);
    expect(git(s.primary, "rev-parse", "feat-x")).toBe(git(s.primary, "rev-parse", "main"));
    expect(
      git(s.primary, "worktree", "list", "--porcelain")
        .split("\n")
        .filter((l) => l.startsWith("worktree ")),
    ).toHaveLength(2);
    const again = s.orchard(["add", "feat-x", "--owner", "a1"]);
    expect(again.json, again.stdout).toMatchObject({ action: "adopted", bootstrap: { status: "reused" } });
    expectStillReachable(s, before);
  });

  it("add.checkout, then --resume: still created from scratch, not adopted half-checked-out", () => {
    killedAt(s, "add.checkout", ["add", "feat-x", "--task", "T-1"]);
    const r = s.orchard(["add", "feat-x", "--task", "T-1", "--resume"]);
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(r.json.action).toBe("created");
    expectCleanCheckout(r.json.path, admin("feat-x"));
  });

  it("add.checkout with a file git was writing when it died (a prefix of its content): rewritten, not work", () => {
    killedAt(s, "add.checkout", ["add", "feat-x"], { ORCHARD_FAULT_FILES: "5" });
    const partial = join(dir("feat-x"), "src", "file1.txt");
    expect(readFileSync(partial, "utf8")).toBe("line 1\n");
    writeFileSync(partial, "li"); // as a kill in the middle of git's write leaves it
    const r = s.orchard(["add", "feat-x"]);
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(r.json.action).toBe("created");
    expect(readFileSync(join(r.json.path, "src", "file1.txt"), "utf8")).toBe("line 1\n");
    expectCleanCheckout(r.json.path, admin("feat-x"));
  });

  it("add.checkout, then someone writes into the half checkout: kept as work (dirty), the checkout finished", () => {
    const before = reachableCommits(s);
    killedAt(s, "add.checkout", ["add", "feat-x", "--task", "T-1"]);
    writeFileSync(join(dir("feat-x"), "notes.txt"), "precious\n");
    writeFileSync(join(dir("feat-x"), "README.md"), "# rewritten by hand\n");
    const r = s.orchard(["add", "feat-x", "--task", "T-1"]);
    expect(r.code, r.stdout + r.stderr).toBe(3);
    expect(r.json.reasons.map((x: { code: string }) => x.code)).toEqual(["dirty"]);
    expect(noteCodes(r)).toContain("creating_repaired");
    expect(git(dir("feat-x"), "status", "--porcelain").split("\n").sort()).toEqual([" M README.md", "?? notes.txt"]);
    for (const f of HEAD_FILES) expect(existsSync(join(dir("feat-x"), f)), f).toBe(true);
    const resumed = s.orchard(["add", "feat-x", "--task", "T-1", "--resume"]);
    expect(resumed.code, resumed.stdout + resumed.stderr).toBe(0);
    expect(resumed.json).toMatchObject({ action: "adopted", bootstrap: { status: "ran" } });
    expectPresentOrSalvaged(s, dir("feat-x"), "notes.txt", "precious\n");
    expectPresentOrSalvaged(s, dir("feat-x"), "README.md", "# rewritten by hand\n");
    expectStillReachable(s, before);
  });

  it("add.checkout of a re-created missing worktree: finished and adopted, not refused", () => {
    const first = s.orchard(["add", "feat-x", "--owner", "a1"]).json;
    rmSync(first.path, { recursive: true, force: true }); // the row stays active; the next add re-creates it
    killedAt(s, "add.checkout", ["add", "feat-x", "--owner", "a1"]);
    const r = s.orchard(["add", "feat-x", "--owner", "a1"]);
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(r.json).toMatchObject({ action: "adopted", bootstrap: { status: "ran" } });
    expect(noteCodes(r)).toContain("creating_repaired");
    expectCleanCheckout(r.json.path, s.adminDir(r.json.path));
  });

  it("add.active (row active, bootstrap never started): the next add bootstraps it", () => {
    killedAt(s, "add.active", ["add", "feat-x", "--owner", "a1"]);
    expect(s.orchard(["status", "app@feat-x"]).json.worktree.fingerprints.bootstrap).toBeNull();
    const r = s.orchard(["add", "feat-x", "--owner", "a1"]);
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(r.json).toMatchObject({ action: "adopted", bootstrap: { status: "ran" } });
    expect(noteCodes(r)).toEqual(["bootstrap_interrupted"]);
    expect(r.json.bootstrap.fingerprint).toMatch(/^[0-9a-f]{64}$/);
    const again = s.orchard(["add", "feat-x", "--owner", "a1"]);
    expect(again.json, again.stdout).toMatchObject({ action: "adopted", bootstrap: { status: "reused", fingerprint: r.json.bootstrap.fingerprint } });
  });
});

describe("killed during bootstrap: the next add re-runs it, never `reused` unfinished", () => {
  const TRUSTED = { ORCHARD_TRUST: "1" };
  beforeEach(() => {
    writeFileSync(join(s.primary, ".gitignore"), "node_modules/\n*.log\n.env\nAGENTS.local.md\n");
    writeFileSync(join(s.primary, "agent-context.md"), "task {{task}} on {{branch}}\n");
    s.git("add", "-A");
    s.git("commit", "-q", "-m", "bootstrap inputs");
    writeFileSync(join(s.primary, ".env"), "SECRET=1\n");
    writeFileSync(
      join(s.primary, ".orchard.json"),
      JSON.stringify({
        bootstrap: { copy: [".env"], run: ["mkdir -p node_modules && echo ran >> node_modules/runs.log"] },
        context: { files: { "AGENTS.local.md": "agent-context.md" } },
      }),
    );
  });
  const runs = (path: string) =>
    readFileSync(join(path, "node_modules", "runs.log"), "utf8")
      .split("\n")
      .filter(Boolean).length;

  it.each([
    ["bootstrap.copy", 1],
    ["bootstrap.context", 1],
    ["bootstrap.run", 2],
    ["bootstrap.fingerprint", 2],
  ])("%s", (point, expectedRuns) => {
    killedAt(s, point, ["add", "feat-x", "--task", "T-1"], TRUSTED);
    expect(s.orchard(["status", "app@feat-x"]).json.worktree.fingerprints).toMatchObject({ bootstrap: null, context: null, runtime: null });
    const r = s.orchard(["add", "feat-x", "--task", "T-1"], { env: TRUSTED });
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(r.json).toMatchObject({ action: "adopted", bootstrap: { status: "ran" } });
    expect(noteCodes(r)).toEqual(["bootstrap_interrupted"]);
    expect(r.json.bootstrap.steps.map((x: { name: string; status: string }) => `${x.name}:${x.status}`)).toEqual([
      "copy:ran",
      "context:ran",
      "run: mkdir -p node_modules && echo ran >> node_modules/runs.log:ran",
    ]);
    expect(readFileSync(join(r.json.path, ".env"), "utf8")).toBe("SECRET=1\n");
    expect(readFileSync(join(r.json.path, "AGENTS.local.md"), "utf8")).toBe("task T-1 on feat-x\n");
    expect(runs(r.json.path)).toBe(expectedRuns);
    expect(s.orchard(["status", "app@feat-x"]).json.worktree.fingerprints.bootstrap).toBe(r.json.bootstrap.fingerprint);
    expect(git(r.json.path, "status", "--porcelain")).toBe("");
    const again = s.orchard(["add", "feat-x", "--task", "T-1"], { env: TRUSTED });
    expect(again.json, again.stdout).toMatchObject({ action: "adopted", bootstrap: { status: "reused", fingerprint: r.json.bootstrap.fingerprint } });
  });

  it("the re-run keeps a copied file that was changed since (never overwritten); --no-bootstrap takes it as it is", () => {
    killedAt(s, "bootstrap.run", ["add", "feat-x", "--task", "T-1"], TRUSTED);
    writeFileSync(join(dir("feat-x"), ".env"), "SECRET=changed by the agent\n");
    const r = s.orchard(["add", "feat-x", "--task", "T-1", "--resume"], { env: TRUSTED });
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(r.json.bootstrap.steps[0]).toMatchObject({ name: "copy", status: "ran", notCopied: [{ path: ".env", why: "differs in the worktree" }] });
    expect(readFileSync(join(dir("feat-x"), ".env"), "utf8")).toBe("SECRET=changed by the agent\n");

    killedAt(s, "bootstrap.context", ["add", "feat-y"], TRUSTED);
    const taken = s.orchard(["add", "feat-y", "--no-bootstrap"], { env: TRUSTED });
    expect(taken.json).toMatchObject({ action: "adopted", bootstrap: { status: "skipped" } });
    expect(s.orchard(["add", "feat-y"], { env: TRUSTED }).json.bootstrap).toMatchObject({ status: "reused", fingerprint: null });
  });
});
