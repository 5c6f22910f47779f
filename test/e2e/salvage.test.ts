// Salvage refs: a worktree's full state (tracked + untracked, not ignored) committed under
// refs/orchard/salvage/… through a temporary index, the worktree itself untouched.
import { afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { existsSync, readFileSync, writeFileSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import { Scenario, git, gitResult } from "../helpers/scenario.js";
import { makeProcessEnvHermetic } from "../helpers/env.js";
import { Orchard } from "../../src/core/orchard.js";
import { salvageWorktree, salvageStamp } from "../../src/core/salvage/index.js";

let s: Scenario;
beforeAll(() => {
  makeProcessEnvHermetic(); // in-process calls start git with process.env
});
beforeEach(() => {
  s = Scenario.create();
});
afterEach(() => s.cleanup());

async function withOrchard<T>(fn: (o: Orchard) => Promise<T>): Promise<T> {
  const orchard = await Orchard.open({ repo: s.primary, home: s.home });
  try {
    return await fn(orchard);
  } finally {
    await orchard.close();
  }
}

describe("salvageWorktree", () => {
  it("commits tracked, staged, untracked and unique ignored state (not disposable) with parent HEAD; the index is untouched", async () => {
    const wt = s.worktree("worktree-agent-a");
    const head = s.commit({ in: wt, file: "work.txt", content: "committed\n" });
    writeFileSync(join(wt, "README.md"), "# changed, unstaged\n");
    writeFileSync(join(wt, "staged.txt"), "staged\n");
    git(wt, "add", "staged.txt");
    mkdirSync(join(wt, "deep", "dir"), { recursive: true });
    writeFileSync(join(wt, "deep", "dir", "untracked file.txt"), "precious\n");
    writeFileSync(join(wt, "debug.log"), "ignored\n");
    mkdirSync(join(wt, "node_modules", "dep"), { recursive: true });
    writeFileSync(join(wt, "node_modules", "dep", "index.js"), "disposable\n");
    git(wt, "rm", "-q", "src/file0.txt");
    const indexPath = join(s.adminDir(wt), "index");
    const indexBefore = readFileSync(indexPath);
    const statusBefore = git(wt, "status", "--porcelain=v2", "--untracked-files=all");

    const { ref, commit } = await withOrchard(async (o) =>
      salvageWorktree(await o.context(), { path: wt, handle: null, branch: "worktree-agent-a", head, reason: "test" }),
    );

    expect(ref).toMatch(/^refs\/orchard\/salvage\/worktree-agent-a\/\d{8}T\d{6}Z$/);
    expect(git(s.primary, "rev-parse", ref)).toBe(commit);
    expect(git(s.primary, "rev-parse", `${ref}^`)).toBe(head);
    expect(git(s.primary, "show", `${ref}:deep/dir/untracked file.txt`)).toBe("precious");
    expect(git(s.primary, "show", `${ref}:README.md`)).toBe("# changed, unstaged");
    expect(git(s.primary, "show", `${ref}:staged.txt`)).toBe("staged");
    expect(git(s.primary, "show", `${ref}:work.txt`)).toBe("committed");
    expect(git(s.primary, "show", `${ref}:debug.log`)).toBe("ignored"); // unique ignored files are work (§4.7)
    expect(gitResult(s.primary, "cat-file", "-e", `${ref}:node_modules/dep/index.js`).code).not.toBe(0);
    expect(gitResult(s.primary, "cat-file", "-e", `${ref}:src/file0.txt`).code).not.toBe(0);
    const meta = JSON.parse(git(s.primary, "log", "-1", "--format=%b", ref));
    expect(meta).toMatchObject({ path: wt, handle: null, branch: "worktree-agent-a", head, reason: "test" });

    expect(readFileSync(indexPath).equals(indexBefore)).toBe(true);
    expect(git(wt, "status", "--porcelain=v2", "--untracked-files=all")).toBe(statusBefore);
    expect(git(wt, "rev-parse", "HEAD")).toBe(head);
  });

  it("two salvages in the same second get distinct refs; an unborn HEAD gives a root commit", async () => {
    const wt = join(s.root, "orphan-wt");
    git(s.primary, "worktree", "add", "-q", "--detach", wt);
    git(wt, "checkout", "-q", "--orphan", "worktree-agent-orphan"); // git 2.39 has no `worktree add --orphan`
    writeFileSync(join(wt, "only.txt"), "only\n");
    const refs = await withOrchard(async (o) => {
      const ctx = await o.context();
      const input = { path: wt, handle: "app@x", branch: null, head: null, reason: "twice" };
      return [await salvageWorktree(ctx, input), await salvageWorktree(ctx, input)] as const;
    });
    const [a, b] = refs;
    expect(a.ref).not.toBe(b.ref);
    expect(a.ref.startsWith("refs/orchard/salvage/app@x/")).toBe(true);
    expect(gitResult(s.primary, "rev-parse", "--verify", "--quiet", `${a.ref}^`).code).not.toBe(0);
    expect(git(s.primary, "show", `${b.ref}:only.txt`)).toBe("only");
  });

  it("formats the UTC stamp", () => {
    expect(salvageStamp(new Date("2026-03-04T05:06:07.890Z"))).toBe("20260304T050607Z");
  });
});

describe("salvage list and restore (CLI)", () => {
  function salvagedOrphan(): { path: string; ref: string; head: string } {
    const path = s.worktree("worktree-agent-a", { lock: "claude agent a (pid 2147483646)" });
    const head = git(path, "rev-parse", "HEAD");
    writeFileSync(join(path, "README.md"), "# edited\n");
    writeFileSync(join(path, "new-file.txt"), "new\n");
    git(path, "rm", "-q", "src/file1.txt");
    const ref = `refs/orchard/salvage/worktree-agent-a/20260101T000000Z`;
    return { path, ref, head };
  }

  it("list shows the metadata; restore gives a new managed worktree with the state as uncommitted changes", async () => {
    const { path, head } = salvagedOrphan();
    const { ref } = await withOrchard(async (o) =>
      salvageWorktree(await o.context(), { path, handle: null, branch: "worktree-agent-a", head, reason: "manual" }),
    );
    const list = s.orchard(["salvage", "list"]);
    expect(list.code).toBe(0);
    expect(list.json.salvages).toEqual([
      expect.objectContaining({ ref, handle: null, path, branch: "worktree-agent-a", head, reason: "manual", at: expect.stringMatching(/Z$/) }),
    ]);

    git(s.primary, "worktree", "remove", "--force", "--force", path);
    const r = s.orchard(["salvage", "restore", ref]);
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(r.json).toMatchObject({ ok: true, action: "created", branch: "worktree-agent-a", head, restoredFrom: { ref } });
    expect(r.json.path).toBe(join(s.home, "worktrees", r.json.handle));
    const restored = r.json.path as string;
    expect(readFileSync(join(restored, "README.md"), "utf8")).toBe("# edited\n");
    expect(readFileSync(join(restored, "new-file.txt"), "utf8")).toBe("new\n");
    expect(existsSync(join(restored, "src", "file1.txt"))).toBe(false);
    const status = git(restored, "status", "--porcelain", "--untracked-files=all").split("\n").sort();
    expect(status).toEqual([" D src/file1.txt", " M README.md", "?? new-file.txt"]);
    expect(git(restored, "rev-parse", "HEAD")).toBe(head);
  });

  it("restore picks a free branch when the recorded one is taken; --branch names it; unknown refs are exit 2", async () => {
    const { path, head } = salvagedOrphan();
    const { ref } = await withOrchard(async (o) =>
      salvageWorktree(await o.context(), { path, handle: null, branch: "worktree-agent-a", head, reason: "manual" }),
    );
    // worktree-agent-a is still checked out in the original worktree
    const r = s.orchard(["salvage", "restore", ref]);
    expect(r.code, r.stdout).toBe(0);
    expect(r.json.branch).toBe(`salvage/${ref.slice("refs/orchard/salvage/".length)}`);
    const named = s.orchard(["salvage", "restore", ref, "--branch", "rescued"]);
    expect(named.json).toMatchObject({ ok: true, branch: "rescued", head });
    expect(s.orchard(["salvage", "restore", ref, "--branch", "main"]).code).toBe(2);
    expect(s.orchard(["salvage", "restore", "refs/orchard/salvage/nope/20260101T000000Z"]).code).toBe(2);
    expect(s.orchard(["salvage", "restore", "refs/heads/main"]).code).toBe(2);
  });
});
