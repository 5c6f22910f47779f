// One worktree's hooks and verbs cost one worktree (SPEC v5 §3, issue 48 item 2), beside
// remove-once.test.ts: Claude Code's WorktreeRemove and SubagentStop hooks, `status` of an unmerged
// worktree, `remove --salvage` and a real `merge` start as many distinct gits in a fleet of 3 as in
// a fleet of 12 (ORCHARD_TRACE=1: counts, never times). A hook reads its worktree's status and refs
// once, under the lock, lists the worktrees once (for its release; the judgement after it reads its own entry) and stores no plan; `status` asks git each merge proof once per target
// commit (local main and origin/main agree: once); `merge` reads no file of another worktree's admin
// dir in-process (where a branch is checked out is git's own listing, read once at the delete).
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { spawnSync } from "node:child_process";
import { existsSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { CLI, Scenario, gitResult } from "../helpers/scenario.js";
import { hermeticEnv } from "../helpers/env.js";
import { atThreeAndTwelve, storedPlans, tracedGits } from "../helpers/counts.js";
import { codexWorktree as codexWorktreeIn } from "../helpers/codex.js";

let s: Scenario;
beforeEach(() => {
  s = Scenario.create();
});
afterEach(() => s.cleanup());

const FS_TRACE = new URL("../helpers/fs-trace.mjs", import.meta.url).pathname;
interface Counted {
  /** The gits it started, argv and cwd as `[orchard trace]` names them. */
  gits: string[];
  /** Paths under the repository's admin dirs it looked at in-process (`[fs trace] <call> <path>`). */
  files: string[];
}
const counted = (stderr: string): Counted => {
  const lines = stderr.split("\n");
  return {
    gits: tracedGits(stderr),
    files: lines.filter((l) => l.startsWith("[fs trace] ")).map((l) => l.slice("[fs trace] ".length)),
  };
};
const traceEnv = (): Record<string, string> => ({
  ORCHARD_TRACE: "1",
  NODE_OPTIONS: `--import=${FS_TRACE}`,
  ORCHARD_FS_TRACE: `${join(s.primary, ".git", "worktrees")}/`,
});
const run = (args: string[]): Counted => {
  const r = s.orchard(args, { env: traceEnv() });
  expect(r.code, r.stdout + r.stderr).toBe(0);
  return counted(r.stderr);
};
/** A Claude Code hook as Claude Code runs it: its JSON on stdin, in the primary. */
const hook = (command: string, payload: Record<string, unknown>): { code: number | null; stdout: string; stderr: string } => {
  const r = spawnSync(process.execPath, [CLI, "--home", s.home, "claude-code", command], {
    cwd: s.primary,
    env: hermeticEnv(traceEnv()),
    input: JSON.stringify({ session_id: "s-1", transcript_path: "/nowhere.jsonl", cwd: s.primary, ...payload }),
    encoding: "utf8",
  });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
};
const hookRun = (command: string, payload: Record<string, unknown>): Counted => {
  const r = hook(command, payload);
  expect(r.code, r.stdout + r.stderr).toBe(0);
  return counted(r.stderr);
};
const add = (branch: string, owner = "agent"): { handle: string; path: string } => {
  const r = s.orchard(["add", branch, "--owner", owner, "--no-bootstrap"]);
  expect(r.code, r.stdout + r.stderr).toBe(0);
  return r.json;
};
const created = (name: string): string => {
  const r = hook("worktree-create", { hook_event_name: "WorktreeCreate", name });
  expect(r.code, r.stderr).toBe(0);
  return r.stdout.trim();
};
const branchExists = (b: string): boolean => gitResult(s.primary, "rev-parse", "--verify", "--quiet", `refs/heads/${b}`).code === 0;
const plans = (): number => storedPlans(s.home);
// distinct commands, as remove-once.test.ts compares them: an early query may run again under load, and the config
// vetting (`config --show-origin`) runs once per change of the config files (a matter of the clock, not of the fleet)
const distinct = (argvs: readonly string[]): number => new Set(argvs.filter((a) => !a.includes('"--show-origin"'))).size;
const named = (argvs: readonly string[], word: string): string[] => argvs.filter((a) => a.startsWith(`["${word}"`));

describe("one worktree's hooks and verbs at 3 and at 12 worktrees", () => {
  it("start as many distinct gits whatever the fleet; each reads its own worktree, once", () => {
    const round = (tag: string): Record<string, Counted> => {
      const session = created(`cc-${tag}`);
      const agent = created(`agent-a${tag}`);
      const unmerged = add(`unmerged-${tag}`);
      s.commit({ in: unmerged.path, file: `unmerged-${tag}.txt` });
      const dirty = add(`salvage-${tag}`);
      writeFileSync(join(dirty.path, "work.txt"), "precious\n");
      expect(s.orchard(["release", dirty.handle, "--owner", "agent"]).code).toBe(0);
      const merging = add(`merge-${tag}`);
      s.commit({ in: merging.path, file: `merge-${tag}.txt` });
      expect(s.orchard(["release", merging.handle, "--owner", "agent"]).code).toBe(0);
      const out = {
        worktreeRemove: hookRun("worktree-remove", { hook_event_name: "WorktreeRemove", worktree_path: session }),
        subagentStop: hookRun("subagent-stop", {
          hook_event_name: "SubagentStop",
          agent_id: `a${tag}`,
          agent_type: "general-purpose",
          stop_hook_active: false,
          agent_transcript_path: "/nowhere-agent.jsonl",
        }),
        status: run(["status", unmerged.handle]),
        salvage: run(["remove", dirty.handle, "--salvage"]),
        merge: run(["merge", merging.handle]),
      };
      s.push("main"); // origin/main at main again: the next round proves against one target commit, as this one did
      expect(existsSync(session) || existsSync(agent) || existsSync(dirty.path) || existsSync(merging.path)).toBe(false);
      expect(branchExists(`worktree-cc-${tag}`) || branchExists(`worktree-agent-a${tag}`) || branchExists(`merge-${tag}`)).toBe(false);
      return out;
    };
    const { small, large } = atThreeAndTwelve(s, add, round, 2); // and the two unmerged
    for (const verb of Object.keys(small)) {
      const [a, b] = [small[verb]?.gits ?? [], large[verb]?.gits ?? []];
      expect(distinct(b), `${verb}: ${JSON.stringify(b)} against ${JSON.stringify(a)}`).toBe(distinct(a));
    }
    for (const counts of [small, large]) {
      // a hook's removal: its worktree's status and refs read once, under the lock, acted on at once; no plan stored
      for (const hookGits of [counts.worktreeRemove?.gits ?? [], counts.subagentStop?.gits ?? []]) {
        expect(named(hookGits, "status"), JSON.stringify(hookGits)).toHaveLength(1);
        // git's listing once: read under the lock for the release; the judgement reads the worktree's own entry (focused-entry.ts)
        expect(
          named(hookGits, "worktree").filter((a) => a.includes('"list"')),
          JSON.stringify(hookGits),
        ).toHaveLength(1);
        expect(named(hookGits, "for-each-ref"), JSON.stringify(hookGits)).toHaveLength(1);
        expect(named(hookGits, "update-ref"), JSON.stringify(hookGits)).toHaveLength(1);
      }
      // status of an unmerged worktree: each merge proof asked once (main and origin/main are one commit)
      const status = counts.status?.gits ?? [];
      const proofs = status.filter((a) => a.includes('"--cherry-mark"') || a.startsWith('["merge-tree"') || a.includes("^{tree}"));
      expect(new Set(proofs).size, JSON.stringify(status)).toBe(proofs.length);
      expect(status.filter((a) => a.includes('"--cherry-mark"')).length, JSON.stringify(status)).toBeGreaterThan(0);
      // merge reads no file of another worktree's admin dir in-process (git's listing says where a branch is checked out)
      const mergeId = `app@merge-${counts === small ? "small" : "large"}`;
      const others = (counts.merge?.files ?? []).filter((f) => /^(openSync|readFileSync|readlinkSync) /.test(f) && !f.includes(`/worktrees/${mergeId}/`));
      expect(others, JSON.stringify(counts.merge?.files)).toEqual([]);
    }
    expect(plans()).toBe(2); // each salvage goes through a stored plan and apply's re-checks; the hooks store none
  });
});

describe("Codex's session hooks at 3 and at 12 worktrees", () => {
  it("adopt and release the session's own worktree with as many distinct gits whatever the fleet", () => {
    const codexHome = join(s.root, "codex-home");
    /** A worktree as `codex exec --worktree` leaves it for thread `thread` (codex-hooks.test.ts). */
    const codexWorktree = (thread: string, id: string): string => codexWorktreeIn(s, codexHome, thread, id);
    const codex = (command: string, payload: Record<string, unknown>): Counted => {
      const r = spawnSync(process.execPath, [CLI, "--home", s.home, "--json", "codex", command], {
        cwd: s.primary,
        env: hermeticEnv({ ...traceEnv(), CODEX_HOME: codexHome }),
        input: JSON.stringify(payload),
        encoding: "utf8",
      });
      expect(r.status, r.stdout + r.stderr).toBe(0);
      expect(JSON.parse(r.stdout)).toMatchObject({ ok: true });
      return counted(r.stderr);
    };
    const round = (tag: string, id: string): Record<string, Counted> => {
      const path = codexWorktree(`t-${tag}`, id);
      return {
        start: codex("session-start", {
          session_id: `t-${tag}`,
          transcript_path: null,
          cwd: path,
          hook_event_name: "SessionStart",
          model: "m",
          source: "startup",
        }),
        end: codex("session-end", { session_id: `t-${tag}`, cwd: path, hook_event_name: "SessionEnd", reason: "other" }),
      };
    };
    for (let i = 0; i < 3; i++) add(`fleet-${i}`, `a${i}`);
    const small = round("small", "a1b2");
    for (let i = 3; i < 12; i++) add(`fleet-${i}`, `a${i}`);
    const large = round("large", "c3d4");
    for (const verb of Object.keys(small)) {
      const [a, b] = [small[verb]?.gits ?? [], large[verb]?.gits ?? []];
      expect(distinct(b), `${verb}: ${JSON.stringify(b)} against ${JSON.stringify(a)}`).toBe(distinct(a));
    }
  });
});
