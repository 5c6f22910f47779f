// One worktree's entry told without the listing (focused-entry.ts) is git's own entry for it: for each
// state a real repository is put in, `git worktree list --porcelain -z` run then is the oracle; where
// the module says it cannot tell (null), the caller lists, and the test says which states those are.
import { beforeAll, describe, expect, it } from "vitest";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { git, gitBytes, makeFifo } from "../../../test/helpers/scenario.js";
import { decodeGitBytes } from "../../git/bytes.js";
import { parseWorktreeList, type WorktreeEntry } from "../../git/parse/worktrees.js";
import { parseStatusV2 } from "../../git/parse/status.js";
import { statusArgs } from "../../git/status-args.js";
import { focusedEntry, registeredAdmin } from "./focused-entry.js";

let primary = "";
let common = "";
let n = 0;

const raw = (cwd: string, ...args: string[]): string => decodeGitBytes(gitBytes(cwd, ...args));

/** git's entry for `path`, from the whole listing now. */
function listed(path: string): WorktreeEntry | undefined {
  return parseWorktreeList(raw(primary, "worktree", "list", "--porcelain", "-z")).find((e) => e.path === path);
}

/** The entry told from the admin files and git's status there, or null (the caller would list). */
function focused(path: string): WorktreeEntry | null {
  const admin = registeredAdmin(common, path);
  if (admin === null) return null;
  return focusedEntry(path, admin, parseStatusV2(raw(path, ...statusArgs(true))));
}

function worktree(branch = `b${++n}`): { path: string; admin: string } {
  const path = join(primary, "..", `wt-${n}-${branch.replace(/\W/g, "")}`);
  git(primary, "worktree", "add", "-q", "-b", branch, path);
  return { path, admin: registeredAdmin(common, path) as string };
}

beforeAll(() => {
  const root = realpathSync(mkdtempSync(join(tmpdir(), "orchard-focused-")));
  primary = join(root, "app");
  git(root, "init", "-q", "-b", "main", primary);
  writeFileSync(join(primary, "a.txt"), "a\n");
  git(primary, "add", "-A");
  git(primary, "commit", "-q", "-m", "base");
  common = join(primary, ".git");
});

describe("the focused entry is git's listing entry", () => {
  it("a worktree on its branch", () => {
    const { path } = worktree();
    expect(listed(path)).toBeDefined();
    expect(focused(path)).toEqual(listed(path));
  });

  it("a branch named with non-ASCII bytes and slashes, and one named as git's status says a HEAD outside refs/heads", () => {
    const { path } = worktree("fé/ünï-ß");
    expect(focused(path)).toEqual(listed(path));
    expect(focused(path)?.branch).toBe("refs/heads/fé/ünï-ß");
    const odd = worktree("(null)").path;
    expect(focused(odd)).toEqual(listed(odd));
  });

  it("locked with a reason, without one, and with one git trims (space, tab, LF, CR) or keeps (VT, FF, bytes not UTF-8)", () => {
    const reasons: (string | Buffer | null)[] = [
      'orchard-lease {"owner":"a b"}',
      null,
      "  \t padded reason \r\n\n",
      "\vvertical\f",
      Buffer.from([0x20, 0xff, 0x6f, 0x6b, 0x0a]),
      "",
    ];
    for (const reason of reasons) {
      const { path, admin } = worktree();
      if (reason === null) git(primary, "worktree", "lock", path);
      else if (typeof reason === "string" && reason.trim() === reason && reason !== "") git(primary, "worktree", "lock", "--reason", reason, path);
      else writeFileSync(join(admin, "locked"), reason);
      const entry = listed(path);
      expect(entry?.locked).toBe(true);
      expect(focused(path)).toEqual(entry);
    }
  });

  it("a detached HEAD, and a worktree moved by git", () => {
    const { path } = worktree();
    git(path, "checkout", "-q", "--detach");
    expect(focused(path)).toEqual(listed(path));
    expect(focused(path)?.detached).toBe(true);
    const moved = `${path}-moved`;
    git(primary, "worktree", "move", path, moved);
    expect(focused(moved)).toEqual(listed(moved));
    expect(focused(path)).toBeNull();
  });

  it("a new commit there is seen by both", () => {
    const { path } = worktree();
    writeFileSync(join(path, "b.txt"), "b\n");
    git(path, "add", "-A");
    git(path, "commit", "-q", "-m", "b");
    expect(focused(path)).toEqual(listed(path));
    expect(focused(path)?.head).toBe(git(path, "rev-parse", "HEAD"));
  });
});

describe("where it cannot tell, there is no entry (the caller lists)", () => {
  it("an unborn branch (git lists HEAD as zeros)", () => {
    const { path } = worktree();
    git(path, "checkout", "-q", "--orphan", `orphan-${n}`);
    expect(listed(path)?.head).toMatch(/^0+$/);
    expect(focused(path)).toBeNull();
  });

  it("a HEAD outside refs/heads", () => {
    const { path } = worktree();
    git(path, "update-ref", "refs/other/x", "HEAD");
    git(path, "symbolic-ref", "HEAD", "refs/other/x");
    expect(listed(path)?.branch).toBe("refs/other/x");
    expect(focused(path)).toBeNull();
  });

  it("a gitdir file git ≥ 2.48 would write relative, or with anything else on its line", () => {
    const { path, admin } = worktree();
    writeFileSync(join(admin, "gitdir"), `${relative(admin, path)}/.git\n`);
    expect(registeredAdmin(common, path)).toBeNull();
    writeFileSync(join(admin, "gitdir"), `${path}/.git \n`);
    expect(registeredAdmin(common, path)).toBeNull();
    writeFileSync(join(admin, "gitdir"), `${path}/.git\n`);
    expect(registeredAdmin(common, path)).toBe(admin);
  });

  it("a .git file that names another admin dir", () => {
    const a = worktree();
    const b = worktree();
    writeFileSync(join(a.path, ".git"), `gitdir: ${b.admin}\n`);
    expect(registeredAdmin(common, a.path)).toBeNull();
  });

  it("a lock that is a directory (git cannot read it)", () => {
    const { path, admin } = worktree();
    mkdirSync(join(admin, "locked"));
    expect(focused(path)).toBeNull();
    rmSync(join(admin, "locked"), { recursive: true }); // git's own listing fails on it: gone for the tests after
  });

  it("a FIFO planted as the worktree's .git, its gitdir record or its lock: no entry, and no read that waits for ever", () => {
    const w = worktree();
    const status = parseStatusV2(raw(w.path, ...statusArgs(true)));
    for (const planted of [join(w.admin, "locked"), join(w.admin, "gitdir"), join(w.path, ".git")]) {
      const kept = existsSync(planted) ? readFileSync(planted) : null;
      rmSync(planted, { force: true });
      makeFifo(planted);
      const admin = registeredAdmin(common, w.path);
      expect(admin === null ? null : focusedEntry(w.path, admin, status)).toBeNull();
      rmSync(planted); // git itself would wait on a FIFO gitdir: put the file back for the tests after
      if (kept) writeFileSync(planted, kept);
    }
    expect(focused(w.path)).toEqual(listed(w.path));
  });
});
