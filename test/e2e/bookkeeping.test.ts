// Harness bookkeeping is not work (issue 22 item 8): a worktree whose only changes are files a
// harness writes into every worktree (Claude Code's `.claude/settings.local.json`) is removed by
// cleanup and reap with those files saved in its salvage ref, and said so with a reason of its own;
// one other file beside them and it is work again, kept as before. Nothing lost.
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { Scenario, git, liveProcess, waitFor } from "../helpers/scenario.js";

let s: Scenario;
beforeEach(() => {
  s = Scenario.create();
});
afterEach(() => s.cleanup());

const PERMISSIONS = '{\n  "permissions": {\n    "allow": ["Bash(npm test:*)"]\n  }\n}\n';

function approveInside(path: string): void {
  mkdirSync(join(path, ".claude"), { recursive: true });
  writeFileSync(join(path, ".claude", "settings.local.json"), PERMISSIONS);
}

function released(branch: string): string {
  const added = s.orchard(["add", branch, "--owner", "agent-1"]);
  expect(added.code, added.stderr).toBe(0);
  const path = added.json.path as string;
  expect(s.orchard(["release", path, "--owner", "agent-1"]).code).toBe(0);
  return path;
}

describe("cleanup", () => {
  it("removes a released worktree whose only change is .claude/settings.local.json, the file saved in its salvage ref", () => {
    const path = released("feat/perm");
    approveInside(path);
    const report = s.orchard(["hygiene"]).json.worktrees.find((w: any) => w.path === path);
    expect(report.disposition).toBe("needs_salvage");
    expect(report.reasons).toContainEqual(expect.objectContaining({ code: "harness_bookkeeping", files: [".claude/settings.local.json"] }));
    const run = s.orchard(["cleanup", "run"]);
    expect(run.code, run.stderr).toBe(0);
    const item = run.json.items.find((i: any) => i.path === path);
    expect(item).toMatchObject({ action: "salvage_remove", state: "done" });
    expect(existsSync(path)).toBe(false);
    expect(git(s.primary, "show", `${item.salvageRef as string}:.claude/settings.local.json`)).toBe(PERMISSIONS.trimEnd());
    // converged: a second run has nothing left to do
    expect(s.orchard(["cleanup", "run"]).json.items).toEqual([]);
  });

  it("keeps it when anything else changed beside the bookkeeping file (salvage not requested)", () => {
    const path = released("feat/work");
    approveInside(path);
    writeFileSync(join(path, "notes.txt"), "precious\n");
    const report = s.orchard(["hygiene"]).json.worktrees.find((w: any) => w.path === path);
    expect(report.reasons.map((r: any) => r.code)).not.toContain("harness_bookkeeping");
    const run = s.orchard(["cleanup", "run"]);
    expect(run.code, run.stderr).toBe(0);
    expect(existsSync(join(path, "notes.txt"))).toBe(true);
    expect(existsSync(join(path, ".claude", "settings.local.json"))).toBe(true);
  });
});

describe("reap-orphans", () => {
  it("reaps a crashed agent's worktree dirty only with harness bookkeeping, saved in the salvage ref; anything more is skipped", async () => {
    const owners = [liveProcess(), liveProcess()];
    const paths = ["agent/a", "agent/b"].map((branch, i) => {
      const added = s.orchard(["add", branch, "--owner", `agent-${i}`, "--pid", String(owners[i]!.pid)]);
      expect(added.code, added.stderr).toBe(0);
      return added.json.path as string;
    });
    for (const p of paths) approveInside(p);
    writeFileSync(join(paths[1]!, "notes.txt"), "precious\n");
    for (const o of owners) o.stop();
    await waitFor(() => paths.every((p) => s.orchard(["status", p]).json.worktree.liveness.state === "dead"), "the owners to die");
    for (const p of paths) s.ageLock(p, 3600);
    const r = s.orchard(["reap-orphans"]);
    expect(r.code, r.stderr).toBe(0);
    const [a, b] = paths.map((p) => r.json.entries.find((e: any) => e.path === p));
    expect(a).toMatchObject({ status: "reaped", detail: expect.stringContaining("harness_bookkeeping") });
    expect(existsSync(paths[0]!)).toBe(false);
    expect(git(s.primary, "show", `${a.salvageRef as string}:.claude/settings.local.json`)).toBe(PERMISSIONS.trimEnd());
    expect(b).toMatchObject({ status: "skipped", reason: "worktree_dirty" });
    expect(existsSync(join(paths[1]!, "notes.txt"))).toBe(true);
  });
});
