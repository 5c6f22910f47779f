// Salvage refs: a worktree's full state (tracked + untracked, not ignored) committed under
// refs/orchard/salvage/… through a temporary index, the worktree itself untouched.
import { afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { readFileSync, writeFileSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import { Scenario, git, gitResult } from "../helpers/scenario.js";
import { HERMETIC_ENV } from "../helpers/env.js";
import { Orchard } from "../../src/core/orchard.js";
import { salvageWorktree, salvageStamp } from "../../src/core/salvage.js";

let s: Scenario;
beforeAll(() => {
  // in-process calls spawn git with process.env: make it hermetic too
  for (const key of Object.keys(process.env)) if (key.startsWith("GIT_") || key.startsWith("ORCHARD_")) delete process.env[key];
  Object.assign(process.env, HERMETIC_ENV);
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
    orchard.close();
  }
}

describe("salvageWorktree", () => {
  it("commits tracked, staged, untracked (not ignored) state with parent HEAD; the index is untouched", async () => {
    const wt = s.worktree("worktree-agent-a");
    const head = s.commit({ in: wt, file: "work.txt", content: "committed\n" });
    writeFileSync(join(wt, "README.md"), "# changed, unstaged\n");
    writeFileSync(join(wt, "staged.txt"), "staged\n");
    git(wt, "add", "staged.txt");
    mkdirSync(join(wt, "deep", "dir"), { recursive: true });
    writeFileSync(join(wt, "deep", "dir", "untracked file.txt"), "precious\n");
    writeFileSync(join(wt, "debug.log"), "ignored\n");
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
    expect(gitResult(s.primary, "cat-file", "-e", `${ref}:debug.log`).code).not.toBe(0);
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
      return [await salvageWorktree(ctx, input), await salvageWorktree(ctx, input)];
    });
    const [a, b] = refs as [{ ref: string }, { ref: string }];
    expect(a.ref).not.toBe(b.ref);
    expect(a.ref.startsWith("refs/orchard/salvage/app@x/")).toBe(true);
    expect(gitResult(s.primary, "rev-parse", "--verify", "--quiet", `${a.ref}^`).code).not.toBe(0);
    expect(git(s.primary, "show", `${b.ref}:only.txt`)).toBe("only");
  });

  it("formats the UTC stamp", () => {
    expect(salvageStamp(new Date("2026-03-04T05:06:07.890Z"))).toBe("20260304T050607Z");
  });
});
