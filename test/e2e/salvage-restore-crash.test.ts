// A `salvage restore` killed with the salvaged tree staged (fault point restore.staged) is finished
// by the rerun of the same restore: same result as a clean restore, every file of the salvage
// there once, nothing lost. A branch of that name that is not this restore's is still refused.
import { afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { Scenario, git } from "../helpers/scenario.js";
import { makeProcessEnvHermetic } from "../helpers/env.js";
import { killedAt } from "../helpers/crash.js";
import { Orchard } from "../../src/core/orchard.js";
import { salvageWorktree } from "../../src/core/salvage/index.js";

let s: Scenario;
beforeAll(() => {
  makeProcessEnvHermetic(); // in-process calls start git with process.env
});
beforeEach(() => {
  s = Scenario.create();
});
afterEach(() => s.cleanup());

const FILES: Record<string, string> = {
  "README.md": "# edited\n",
  "new-file.txt": "new\n",
  "deep/dir/untracked file.txt": "precious\n",
};

/** A dirty worktree salvaged (in-process, real git), then removed: the salvage ref is all that holds its work. */
async function salvaged(): Promise<{ ref: string; head: string }> {
  const path = s.worktree("worktree-agent-a");
  const head = git(path, "rev-parse", "HEAD");
  mkdirSync(join(path, "deep", "dir"), { recursive: true });
  for (const [rel, content] of Object.entries(FILES)) writeFileSync(join(path, rel), content);
  git(path, "rm", "-q", "src/file1.txt");
  const orchard = await Orchard.open({ repo: s.primary, home: s.home });
  try {
    const { ref } = await salvageWorktree(await orchard.context(), { path, handle: null, branch: "worktree-agent-a", head, reason: "manual" });
    git(s.primary, "worktree", "remove", "--force", "--force", path);
    git(s.primary, "branch", "-D", "worktree-agent-a");
    return { ref, head };
  } finally {
    await orchard.close();
  }
}

const statusOf = (path: string): string[] => git(path, "status", "--porcelain", "--untracked-files=all").split("\n").filter(Boolean).sort();

describe("salvage restore killed with the salvaged tree staged", () => {
  it("the rerun finishes it: exit 0, the clean restore's result, every file of the salvage there once", async () => {
    const { ref, head } = await salvaged();
    killedAt(s, "restore.staged", ["salvage", "restore", ref]);
    const wedged = s.orchard(["list", "--json"]);
    expect(wedged.code, wedged.stdout + wedged.stderr).toBe(0);

    const r = s.orchard(["salvage", "restore", ref]);
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(r.json).toMatchObject({ ok: true, action: "created", branch: "worktree-agent-a", head, restoredFrom: { ref } });
    const restored = r.json.path as string;
    expect(restored).toBe(join(s.home, "worktrees", r.json.handle));

    const clean = s.orchard(["salvage", "restore", ref, "--branch", "clean-copy"]);
    expect(clean.code, clean.stdout + clean.stderr).toBe(0);
    const { path: _p, handle: _h, branch: _b, lease: _l, bootstrap: _s, ...sameShape } = clean.json;
    expect(r.json).toMatchObject(sameShape);
    expect(r.json.bootstrap.status).toBe("skipped"); // it ran, to the end, in the killed run

    expect(statusOf(restored)).toEqual([" D src/file1.txt", " M README.md", '?? "deep/dir/untracked file.txt"', "?? new-file.txt"]);
    expect(statusOf(restored)).toEqual(statusOf(clean.json.path));
    for (const [rel, content] of Object.entries(FILES)) expect(readFileSync(join(restored, rel), "utf8")).toBe(content);
    expect(git(restored, "rev-parse", "HEAD")).toBe(head);
    expect(git(restored, "diff", "--cached", "--name-only")).toBe(""); // nothing left staged
    // one restore of the salvage, not a second one beside the killed one's (plus the clean copy)
    const listed = git(s.primary, "worktree", "list", "--porcelain")
      .split("\n")
      .filter((l) => l.startsWith("worktree "));
    expect(listed.map((l) => l.slice("worktree ".length)).sort()).toEqual([s.primary, restored, clean.json.path].sort());

    // a third run: the restore is finished, not this restore's half-state any more
    expect(s.orchard(["salvage", "restore", ref, "--branch", "worktree-agent-a"]).code).toBe(2);
  });

  it("killed after the worktree was made, before anything was laid: the rerun lays the salvage and finishes (issue 36 item 8)", async () => {
    const { ref, head } = await salvaged();
    killedAt(s, "restore.created", ["salvage", "restore", ref]);
    const r = s.orchard(["salvage", "restore", ref]);
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(r.json).toMatchObject({ ok: true, action: "created", branch: "worktree-agent-a", head, restoredFrom: { ref } });
    const restored = r.json.path as string;
    expect(statusOf(restored)).toEqual([" D src/file1.txt", " M README.md", '?? "deep/dir/untracked file.txt"', "?? new-file.txt"]);
    for (const [rel, content] of Object.entries(FILES)) expect(readFileSync(join(restored, rel), "utf8")).toBe(content);
    const h = s.orchard(["hygiene"]).json.worktrees.find((w: { path: string }) => w.path === restored);
    expect(h.reasons.map((x: { code: string }) => x.code)).not.toContain("clean"); // never "clean, work preserved" at the base
  });

  it("killed inside git's unstage (its index lock left behind): the rerun clears this restore's own lock and finishes (issue 46 item 14)", async () => {
    const { ref, head } = await salvaged();
    killedAt(s, "restore.staged", ["salvage", "restore", ref]);
    const path = git(s.primary, "worktree", "list", "--porcelain")
      .split("\n\n")
      .find((b) => b.includes("branch refs/heads/worktree-agent-a"))!
      .split("\n")[0]!
      .slice("worktree ".length);
    // `git reset` SIGKILLed with the process group leaves its lock: before the fix every rerun failed on it
    writeFileSync(join(s.adminDir(path), "index.lock"), "");
    const r = s.orchard(["salvage", "restore", ref]);
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(r.json).toMatchObject({ ok: true, action: "created", path, branch: "worktree-agent-a", head });
    expect(statusOf(path)).toEqual([" D src/file1.txt", " M README.md", '?? "deep/dir/untracked file.txt"', "?? new-file.txt"]);
    for (const [rel, content] of Object.entries(FILES)) expect(readFileSync(join(path, rel), "utf8")).toBe(content);
    expect(existsSync(join(s.adminDir(path), "index.lock"))).toBe(false);
  });

  it("killed after add made the worktree, before the journal: the rerun lays the salvage there, no second restore beside it", async () => {
    const { ref, head } = await salvaged();
    killedAt(s, "add.active", ["salvage", "restore", ref]);
    const r = s.orchard(["salvage", "restore", ref]);
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(r.json).toMatchObject({ ok: true, action: "created", branch: "worktree-agent-a", head });
    const restored = r.json.path as string;
    expect(statusOf(restored)).toEqual([" D src/file1.txt", " M README.md", '?? "deep/dir/untracked file.txt"', "?? new-file.txt"]);
    const listed = git(s.primary, "worktree", "list", "--porcelain")
      .split("\n")
      .filter((l) => l.startsWith("worktree "))
      .map((l) => l.slice("worktree ".length));
    expect(listed.sort()).toEqual([s.primary, restored].sort());
  });

  it("a branch of that name made by hand at another commit is still refused, exit 2, unchanged", async () => {
    const { ref } = await salvaged();
    const other = s.commit({ in: s.primary, file: "other.txt", content: "other\n" });
    git(s.primary, "branch", "handmade", other);
    const r = s.orchard(["salvage", "restore", ref, "--branch", "handmade"]);
    expect(r.code, r.stdout + r.stderr).toBe(2);
    expect(git(s.primary, "rev-parse", "refs/heads/handmade")).toBe(other);
  });

  it("a killed restore whose worktree was changed since is not taken for this restore's own", async () => {
    const { ref } = await salvaged();
    killedAt(s, "restore.staged", ["salvage", "restore", ref, "--branch", "rescued"]);
    const path = git(s.primary, "worktree", "list", "--porcelain")
      .split("\n\n")
      .find((b) => b.includes("branch refs/heads/rescued"))!
      .split("\n")[0]!
      .slice("worktree ".length);
    writeFileSync(join(path, "README.md"), "# someone's later edit\n");
    const r = s.orchard(["salvage", "restore", ref, "--branch", "rescued"]);
    expect(r.code, r.stdout + r.stderr).toBe(2);
    expect(readFileSync(join(path, "README.md"), "utf8")).toBe("# someone's later edit\n");
  });
});
