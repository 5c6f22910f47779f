// A warm server's exact add decides on git's entry for its own worktree, told from that worktree's
// admin files and git's status there (core/facts/focused-entry.ts), without listing every worktree:
// its trace shows no `git worktree list` while the worktree is registered as git lists it, and each
// decision is still the one git's state calls for — a new commit, a dirty file, another branch, a
// lock that names another live process; where the worktree is not registered so (its admin dir gone), the listing is
// read again and the answer is the listing's.
import { beforeEach, describe, expect, it } from "vitest";
import { rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { git, type Scenario } from "../helpers/scenario.js";
import { tracedScenarios } from "../helpers/mcp-traced.js";

const traced = tracedScenarios();
let s: Scenario;
beforeEach(() => {
  s = traced.scenario();
});

const LISTING = '"worktree","list"';

describe("a warm server's exact add", () => {
  it("reads no listing while its worktree is registered as git lists it, and decides as git's state says", async () => {
    const server = await traced.open();
    const add = (branch: string, owner = "agent-a"): Promise<any> => server.call("orchard_add", { branch, owner });
    const first = await add("feat-a");
    expect(first.action, JSON.stringify(first)).toBe("created");
    s.orchard(["add", "feat-b", "--owner", "agent-b"]);
    const listings = server.traced(LISTING);

    // a commit of the agent's own: adopted at git's HEAD, nothing listed
    s.commit({ in: first.path, file: "work.txt", content: "work\n" });
    const again = await add("feat-a");
    expect(again.action, JSON.stringify(again)).toBe("adopted");
    expect(again.head).toBe(git(first.path, "rev-parse", "HEAD"));
    expect(server.traced(LISTING)).toBe(listings);

    // a dirty file: refused
    writeFileSync(join(first.path, "work.txt"), "changed\n");
    const dirty = await add("feat-a");
    expect(dirty.action).toBe("refused");
    expect(dirty.reasons.map((r: { code: string }) => r.code)).toContain("dirty");
    git(first.path, "checkout", "-q", "--", "work.txt");

    // another branch checked out there: refused with git's branch
    git(first.path, "switch", "-q", "-c", "elsewhere");
    const moved = await add("feat-a");
    expect(moved.action).toBe("refused");
    expect(moved.reasons.find((r: { code: string }) => r.code === "branch_mismatch")).toMatchObject({ actual: "elsewhere" });
    git(first.path, "switch", "-q", "feat-a");

    // its lock now names another process that is alive (this test's), as a pid: refused live_owner
    writeFileSync(join(s.adminDir(first.path), "locked"), `${process.pid}\n`);
    const held = await add("feat-a");
    expect(
      held.reasons?.map((r: { code: string }) => r.code),
      JSON.stringify(held),
    ).toContain("live_owner");
    expect(server.traced(LISTING)).toBe(listings);
  });

  it("lists the worktrees again where its worktree is not registered as git lists it, and answers as the listing says", async () => {
    const server = await traced.open();
    const first = await server.call("orchard_add", { branch: "feat-c", owner: "agent-c" });
    expect(first.action, JSON.stringify(first)).toBe("created");
    const listings = server.traced(LISTING);
    // the admin dir is gone: git no longer lists the directory as a worktree
    rmSync(s.adminDir(first.path), { recursive: true, force: true });
    expect(git(s.primary, "worktree", "list", "--porcelain")).not.toContain(first.path);
    const occupied = await server.call("orchard_add", { branch: "feat-c", owner: "agent-c" });
    expect(occupied.action, JSON.stringify(occupied)).toBe("refused");
    expect(occupied.reasons.map((r: { code: string }) => r.code)).toEqual(["path_occupied"]);
    expect(server.traced(LISTING)).toBe(listings + 1);
  });
});
