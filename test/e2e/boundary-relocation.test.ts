// The repository is agent input (SPEC v4 §4.1): a `core.worktree` or `core.bare` an agent writes
// into its own `config.worktree` never redirects Orchard's git calls. Such a worktree is unknown
// (the reason names the key and the file) and is never recycled, reaped or removed; the primary's
// files stay where they are.
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { Scenario, git, liveProcess } from "../helpers/scenario.js";

let s: Scenario;
beforeEach(() => {
  s = Scenario.create();
});
afterEach(() => s.cleanup());

/** What an agent inside `path` can do on its own: turn worktree config on and point its work tree elsewhere. */
function relocate(path: string, key: "core.worktree" | "core.bare", value: string): void {
  git(path, "config", "extensions.worktreeConfig", "true");
  git(path, "config", "--worktree", key, value);
}

/** Ignored files of the primary that exist nowhere else. */
function primaryIgnored(): void {
  writeFileSync(join(s.primary, "debug.log"), "the primary's own log\n");
  mkdirSync(join(s.primary, "node_modules"), { recursive: true });
  writeFileSync(join(s.primary, "node_modules", "dep.js"), "the primary's install\n");
}

const reasonCodes = (reasons: { code: string }[] | undefined): string[] => (reasons ?? []).map((r) => r.code);

describe("core.worktree in an agent's config.worktree", () => {
  it("recycle refuses the worktree and touches nothing of the primary", () => {
    primaryIgnored();
    const added = s.orchard(["add", "feat-a", "--no-bootstrap"]).json;
    s.commit({ in: added.path, message: "work" });
    s.push("feat-a", added.path);
    expect(s.orchard(["release", added.handle]).json.ok).toBe(true);
    relocate(added.path, "core.worktree", s.primary);

    const r = s.orchard(["recycle", added.handle, "--branch", "feat-b"]);
    expect(r.code, r.stdout + r.stderr).toBe(3);
    expect(reasonCodes(r.json.reasons)).toContain("worktree_relocated");
    expect(r.json.reasons.find((x: { code: string }) => x.code === "worktree_relocated")).toMatchObject({ key: "core.worktree" });
    expect(readFileSync(join(s.primary, "debug.log"), "utf8")).toBe("the primary's own log\n");
    expect(existsSync(join(s.primary, "node_modules", "dep.js"))).toBe(true);
    expect(git(s.primary, "rev-parse", "--abbrev-ref", "HEAD")).toBe("main");
    expect(git(s.primary, "branch", "--list", "feat-b")).toBe("");
    expect(existsSync(added.path)).toBe(true);
  });

  it("a crashed agent's dirty worktree is not reaped, and hygiene calls it unknown naming the key", () => {
    const agent = liveProcess();
    const added = s.orchard(["add", "feat-c", "--no-bootstrap", "--owner", "agent-1", "--pid", String(agent.pid)]).json;
    agent.stop(); // the agent crashed
    writeFileSync(join(added.path, "work.txt"), "uncommitted work\n");
    relocate(added.path, "core.worktree", s.primary);

    const h = s.orchard(["hygiene"]);
    expect(h.code, h.stderr).toBe(0);
    const seen = h.json.worktrees.find((w: { path: string }) => w.path === added.path);
    expect(seen.disposition).toBe("unknown");
    expect(reasonCodes(seen.reasons)).toContain("worktree_relocated");

    const reap = s.orchard(["reap-orphans", "--guard", "0s"]);
    expect(reap.code, reap.stderr).toBe(0);
    const cleanup = s.orchard(["cleanup", "run", "--include", "reapable,needs_salvage,reclaimable", "--salvage"]);
    expect([0, 3]).toContain(cleanup.code);
    expect(readFileSync(join(added.path, "work.txt"), "utf8")).toBe("uncommitted work\n");
    expect(git(s.primary, "worktree", "list", "--porcelain")).toContain(`worktree ${added.path}\n`);
  });

  it("core.bare in an agent's config.worktree does not make its status look clean", () => {
    const added = s.orchard(["add", "feat-d", "--no-bootstrap"]).json;
    writeFileSync(join(added.path, "work.txt"), "uncommitted work\n");
    relocate(added.path, "core.bare", "true");
    const st = s.orchard(["status", added.handle]);
    expect(st.code, st.stderr).toBe(0);
    expect(st.json.worktree.blocked).toMatchObject({ code: "worktree_relocated", key: "core.bare", value: "true" });
    expect(st.json.worktree.dirty).toBeNull();
  });
});
