// `orchard merge`'s next steps are steps that work for merge (SPEC v5 §3.9, §2): each distinct one
// is taken from the refusal's JSON, run exactly as written, and the merge then goes through (or,
// for a live owner, the step is `orchard status`, which shows who holds it). The MCP spelling is a
// tool call of the same step. The human refusal has no raw ISO time and no word of a wave.
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { spawnSync } from "node:child_process";
import { existsSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { Scenario, git, liveProcess, type CliResult } from "../helpers/scenario.js";
import { hermeticEnv } from "../helpers/env.js";
import { withNext } from "../../src/core/next/index.js";

let s: Scenario;
beforeEach(() => {
  s = Scenario.create();
});
afterEach(() => s.cleanup());

function words(command: string): string[] {
  const r = spawnSync("sh", ["-c", `eval "set -- $1"; printf '%s\\0' "$@"`, "sh", command], { encoding: "utf8" });
  return r.stdout.split("\0").slice(0, -1);
}

/** Runs a next step as a person would: `orchard …` through the CLI (JSON), anything else in a shell. */
function run(next: unknown, ok = 0): CliResult {
  expect(next, "a next step").toEqual(expect.any(String));
  const argv = words(next as string);
  if (argv[0] === "orchard") return s.orchard(argv.slice(1));
  const r = spawnSync("sh", ["-c", next as string], { cwd: s.primary, env: hermeticEnv(), encoding: "utf8" });
  expect(r.status, `${String(next)}: ${r.stderr}`).toBe(ok);
  return { code: r.status ?? -1, stdout: r.stdout, stderr: r.stderr, json: null };
}

const refusal = (r: CliResult, code: string): { code: string; next: string | null } => {
  expect(r.code, r.stdout + r.stderr).toBe(3);
  expect(r.json).toMatchObject({ ok: false, action: "blocked" });
  const found = r.json.reasons.find((x: { code: string }) => x.code === code);
  expect(found, JSON.stringify(r.json.reasons)).toBeDefined();
  return found;
};

const add = (branch: string, owner?: string) => s.orchard(["add", branch, ...(owner ? ["--owner", owner] : [])]).json as { handle: string; path: string };

describe("orchard merge: each next step works for merge", () => {
  it("a live owner: the step is orchard status (who holds it, until when), never a take-over; the human line has no ISO time", () => {
    const w = add("feat-live", "agent-1");
    s.commit({ in: w.path, file: "live.txt" });
    const r = s.orchard(["merge", w.handle]);
    const live = refusal(r, "live_owner");
    expect(live.next).toBe(`orchard status ${w.handle}`);
    const status = run(live.next);
    expect(status.code).toBe(0);
    expect(status.json.worktree).toMatchObject({ handle: w.handle, owner: expect.objectContaining({}), liveness: { state: "live" } });
    const human = s.orchard(["merge", w.handle], { json: false });
    expect(human.stdout).toContain(`↳ orchard status ${w.handle}`);
    expect(human.stdout).not.toMatch(/\d{4}-\d\d-\d\dT|--owner|wave/);
    expect(human.stdout).toMatch(/heartbeat valid for another \d/);
  });

  it("a process inside: --allow-live, which merges", () => {
    const w = add("feat-proc");
    s.commit({ in: w.path, file: "proc.txt" });
    const inside = liveProcess(w.path);
    try {
      const step = refusal(s.orchard(["merge", w.handle]), "live_process");
      expect(step.next).toBe(`orchard merge ${w.handle} --allow-live`);
      expect(run(step.next).json).toMatchObject({ ok: true, action: "merged" });
    } finally {
      inside.stop();
    }
  });

  it("uncommitted work: the step commits it on the branch, and the merge then lands it", () => {
    const w = add("feat-dirty");
    writeFileSync(join(w.path, "notes.txt"), "precious\n");
    const r = s.orchard(["merge", w.handle]);
    const dirty = refusal(r, "worktree_dirty");
    expect(dirty.next).not.toMatch(/reap-orphans|salvage/);
    expect(s.orchard(["merge", w.handle], { json: false }).stdout).toMatch(/: 1 change\n/);
    run(dirty.next);
    expect(s.orchard(["merge", w.handle]).json).toMatchObject({ ok: true, action: "merged" });
    expect(git(s.primary, "show", "main:notes.txt")).toBe("precious");
  });

  it("a conflict: the step brings the target into the branch in its worktree; resolved and committed, the merge goes through", () => {
    const w = add("feat-c");
    s.commit({ in: w.path, file: "README.md", content: "mine\n" });
    s.commit({ file: "README.md", content: "theirs\n" });
    const conflict = refusal(s.orchard(["merge", w.handle]), "merge_conflict");
    expect(conflict.next).toBe(`git -C ${w.path} merge main`);
    expect(s.orchard(["merge", w.handle], { json: false }).stdout).not.toMatch(/wave/);
    run(conflict.next, 1); // git stops at the conflict, as it does for a person
    expect(existsSync(join(s.adminDir(w.path), "MERGE_HEAD"))).toBe(true);
    writeFileSync(join(w.path, "README.md"), "both\n");
    git(w.path, "commit", "-q", "-a", "--no-edit");
    expect(s.orchard(["merge", w.handle]).json).toMatchObject({ ok: true, action: "merged" });
    expect(git(s.primary, "show", "main:README.md")).toBe("both");
  });

  it("deletions: --allow-deletions, which merges", () => {
    const w = add("feat-del");
    git(w.path, "rm", "-q", "README.md");
    git(w.path, "commit", "-q", "-m", "drop the readme");
    const step = refusal(s.orchard(["merge", w.handle]), "branch_contains_deletions");
    expect(step.next).toBe(`orchard merge ${w.handle} --allow-deletions`);
    expect(run(step.next).json).toMatchObject({ ok: true, action: "merged" });
  });

  it("MCP spells the same step as a tool call", () => {
    const result = withNext(
      "merge",
      { target: "app@x" },
      { ok: false, handle: "app@x", path: "/w/x", branch: "x", reasons: [{ code: "live_process", message: "", next: null }] },
      "mcp",
    );
    expect(result.reasons[0]?.next).toBe('orchard_merge {"target":"app@x","allowLive":true}');
  });
});
