// Every git call is pinned to the worktree it runs in (SPEC v4 §4.1): a core.worktree or core.bare
// in the worktree's own config.worktree, or core.worktree in the repository's config, does not
// move what git reads or changes.
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { git } from "../run.js";
import { pinArgs } from "./pin.js";
import { git as plainGit } from "../../../test/helpers/scenario.js";

let dir: string;
let primary: string;
let linked: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "orchard-pin-"));
  primary = join(dir, "p");
  linked = join(dir, "w");
  plainGit(dir, "init", "-q", "-b", "main", primary);
  writeFileSync(join(primary, "f.txt"), "x\n");
  plainGit(primary, "add", "f.txt");
  plainGit(primary, "commit", "-q", "-m", "first");
  plainGit(primary, "worktree", "add", "-q", "-b", "feat", linked);
  writeFileSync(join(linked, "only-in-linked.txt"), "work\n");
  writeFileSync(join(primary, "only-in-primary.txt"), "other\n");
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const untracked = async (cwd: string): Promise<string[]> =>
  (await git(["status", "--porcelain", "-z", "--untracked-files=all"], { cwd })).stdout
    .split("\0")
    .filter((l) => l.startsWith("?? "))
    .map((l) => l.slice(3));

describe("pinned git calls", () => {
  it("a core.worktree in the linked worktree's config.worktree moves plain git, not Orchard's call", async () => {
    plainGit(linked, "config", "extensions.worktreeConfig", "true");
    plainGit(linked, "config", "--worktree", "core.worktree", primary);
    expect(plainGit(linked, "status", "--porcelain", "--untracked-files=all")).toContain("only-in-primary.txt"); // the attack works on plain git
    expect(await untracked(linked)).toEqual(["only-in-linked.txt"]);
    expect((await git(["rev-parse", "--show-toplevel"], { cwd: linked })).stdout.trim()).toBe(linked);
  });

  it("core.bare in config.worktree does not hide the work tree", async () => {
    plainGit(linked, "config", "extensions.worktreeConfig", "true");
    plainGit(linked, "config", "--worktree", "core.bare", "true");
    expect(await untracked(linked)).toEqual(["only-in-linked.txt"]);
  });

  it("core.worktree in the repository's config does not move the primary", async () => {
    plainGit(primary, "config", "core.worktree", linked);
    expect(await untracked(primary)).toEqual(["only-in-primary.txt"]);
  });

  it("pins a worktree's top level only: a subdirectory or a plain directory gets nothing", () => {
    expect(pinArgs(linked)).toEqual([`--git-dir=${join(primary, ".git", "worktrees", "w")}`, `--work-tree=${linked}`]);
    expect(pinArgs(primary)).toEqual([`--git-dir=${join(primary, ".git")}`, `--work-tree=${primary}`]);
    expect(pinArgs(dir)).toEqual([]);
  });
});
