// `orchard demo`: builds its sandbox and fleet, runs green, names every disposition it created,
// and touches nothing outside the sandbox — even on a machine with no git identity at all.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readdirSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { CLI, git } from "../helpers/scenario.js";
import { hermeticEnv } from "../helpers/env.js";
import { PROCESS_TIMEOUT_MS } from "../helpers/time.js";

let root: string;

/** A fresh machine: an empty HOME, no global git config, no identity, ORCHARD_HOME elsewhere. */
function freshMachineEnv(): NodeJS.ProcessEnv {
  const env = hermeticEnv({ HOME: join(root, "empty-home"), ORCHARD_HOME: join(root, "user-workspace"), XDG_CONFIG_HOME: join(root, "empty-home", ".config") });
  for (const key of Object.keys(env)) if (/^GIT_(AUTHOR|COMMITTER)_|^GIT_CONFIG_GLOBAL$|^GIT_CONFIG_NOSYSTEM$/.test(key)) delete env[key];
  return env;
}

function demo(args: string[]): { code: number | null; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, [CLI, "demo", ...args], { cwd: root, env: freshMachineEnv(), encoding: "utf8", timeout: PROCESS_TIMEOUT_MS });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

beforeAll(() => {
  root = realpathSync(mkdtempSync(join(tmpdir(), "orchard-demo-test-")));
  mkdirSync(join(root, "empty-home"));
  mkdirSync(join(root, "user-workspace"));
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe("orchard demo", () => {
  let human: { code: number | null; stdout: string; stderr: string };
  let json: any;

  beforeAll(() => {
    human = demo(["--dir", join(root, "sandbox-a")]);
    const r = demo(["--dir", join(root, "sandbox-b"), "--json"]);
    expect(r.code, r.stderr).toBe(0);
    json = JSON.parse(r.stdout);
  });

  it("runs green and says where the sandbox is", () => {
    expect(human.code, human.stderr).toBe(0);
    expect(human.stdout).toContain(join(root, "sandbox-a"));
    expect(human.stdout).toContain("rm -rf");
  });

  it("builds a fleet whose agents get the dispositions their stories call for", () => {
    expect(json).toMatchObject({ ok: true, dir: join(root, "sandbox-b") });
    expect(json.files).toBeGreaterThanOrEqual(200);
    const stories = json.agents.map((a: { story: string }) => a.story);
    expect(stories).toEqual(
      expect.arrayContaining(["merged_released", "crashed_merged", "crashed_dirty", "crashed_unmerged", "duplicate_idle", "abandoned_dirty", "live"]),
    );
    for (const agent of json.agents) expect({ agent: agent.name, disposition: agent.before }).toEqual({ agent: agent.name, disposition: agent.expected });
  });

  it("names every disposition it created", () => {
    const created = new Set<string>(json.agents.map((a: { expected: string }) => a.expected));
    expect([...created].sort()).toEqual(["idle", "live", "missing", "needs_salvage", "reapable", "reclaimable"]);
    for (const disposition of created) expect(human.stdout).toMatch(new RegExp(`^\\s+${disposition}\\s`, "m"));
  });

  it("reaps the crashed sessions, cleans up what is reclaimable, and loses nothing of value", () => {
    const byBranch = (branch: string) => json.agents.find((a: { branch: string }) => a.branch === branch);
    const reaped = json.reap.entries.filter((e: { status: string }) => e.status === "reaped").map((e: { branch: string }) => e.branch);
    expect(reaped.sort()).toEqual(["worktree-agent-a1b2c3", "worktree-agent-d4e5f6"]);
    expect(json.salvageRefs).toHaveLength(1);
    expect(json.cleanup.items.every((i: { status: string }) => i.status === "done")).toBe(true);
    for (const agent of json.agents) {
      const kept = ["live", "idle", "needs_salvage"].includes(agent.expected) && agent.story !== "crashed_dirty";
      expect({ branch: agent.branch, after: agent.after }).toEqual({ branch: agent.branch, after: kept ? agent.expected : null });
    }
    const shop = join(json.dir, "shop");
    expect(git(shop, "show", `${json.salvageRefs[0]}:NOTES-from-the-session.md`)).toBe("half-finished thoughts nobody committed");
    expect(git(shop, "log", "--format=%s", "-1", "worktree-agent-0badc0")).toBe("agent 0badc0: search tweak");
    expect(git(byBranch("exp/spike").path, "status", "--porcelain")).toBe(" M src/jobs/jobs-0.ts");
    expect(git(byBranch("feat/search-2").path, "log", "--format=%s", "-1")).toBe("search: ranking, second try");
    expect(human.stdout).toContain("Nothing of value was lost");
    expect(human.stdout).toMatch(/refs\/orchard\/salvage\//);
  });

  it("touches nothing outside the sandbox", () => {
    expect(readdirSync(join(root, "empty-home"))).toEqual([]);
    expect(readdirSync(join(root, "user-workspace"))).toEqual([]);
    expect(readdirSync(root).sort()).toEqual(["empty-home", "sandbox-a", "sandbox-b", "user-workspace"]);
  });

  it("refuses a --dir that already holds files (exit 2)", () => {
    const occupied = join(root, "occupied");
    mkdirSync(occupied);
    writeFileSync(join(occupied, "precious.txt"), "keep me\n");
    const r = demo(["--dir", occupied, "--json"]);
    expect(r.code).toBe(2);
    expect(JSON.parse(r.stdout).error.code).toBe("invalid_argument");
    expect(readdirSync(occupied)).toEqual(["precious.txt"]);
    rmSync(occupied, { recursive: true });
  });
});
