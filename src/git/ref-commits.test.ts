// readRefCommits (one for-each-ref) answers, for every ref it lists, what `git rev-parse --verify
// <ref>^{commit}` answers: git is the oracle. The refs name a commit, an annotated tag of a commit,
// a tag of that tag (for-each-ref peels only once), a tree and a tag of a tree (no commit), through
// a symbolic ref, loose and packed.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { execFileSync, spawnSync } from "node:child_process";
import { mkdtempSync, realpathSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { hermeticEnv } from "../../test/helpers/env.js";
import { readRefCommits } from "./read.js";

let dir: string;
let repo: string;
const saved = { ...process.env };

beforeAll(() => {
  dir = realpathSync(mkdtempSync(join(tmpdir(), "orchard-ref-commits-")));
  repo = join(dir, "repo");
  Object.assign(process.env, hermeticEnv());
  const git = (...args: string[]) => execFileSync("git", args, { cwd: dir, encoding: "utf8" }).trim();
  git("init", "-q", "-b", "main", repo);
  const at = (...args: string[]) => git("-C", repo, ...args);
  at("commit", "-q", "--allow-empty", "-m", "one");
  at("commit", "-q", "--allow-empty", "-m", "two");
  at("tag", "-a", "-m", "t1", "t1", "HEAD~1");
  at("-c", "advice.nestedTag=false", "tag", "-a", "-m", "t2", "t2", "t1");
  at("tag", "-a", "-m", "tt", "treetag", "HEAD^{tree}");
  at("update-ref", "refs/remotes/origin/main", "HEAD~1");
  at("update-ref", "refs/remotes/origin/tagged", at("rev-parse", "t1"));
  at("update-ref", "refs/remotes/origin/tagtag", at("rev-parse", "t2"));
  at("update-ref", "refs/remotes/origin/tree", at("rev-parse", "HEAD^{tree}"));
  at("update-ref", "refs/remotes/origin/treetag", at("rev-parse", "treetag"));
  at("symbolic-ref", "refs/remotes/origin/HEAD", "refs/remotes/origin/main");
  at("branch", "packed/one", "HEAD~1");
  at("pack-refs", "--all");
  at("branch", "loose/two");
});

afterAll(() => {
  process.env = saved;
  rmSync(dir, { recursive: true, force: true });
});

describe("readRefCommits", () => {
  it("answers as rev-parse <ref>^{commit} does for every ref it lists", async () => {
    const refs = await readRefCommits(repo, ["refs/heads", "refs/remotes"]);
    expect([...refs.keys()].sort()).toEqual(
      [
        "refs/heads/loose/two",
        "refs/heads/main",
        "refs/heads/packed/one",
        "refs/remotes/origin/HEAD",
        "refs/remotes/origin/main",
        "refs/remotes/origin/tagged",
        "refs/remotes/origin/tagtag",
        "refs/remotes/origin/tree",
        "refs/remotes/origin/treetag",
      ].sort(),
    );
    for (const [ref, { commit }] of refs) {
      const r = spawnSync("git", ["rev-parse", "--verify", "--quiet", "--end-of-options", `${ref}^{commit}`], { cwd: repo, encoding: "utf8" });
      expect({ ref, commit }).toEqual({ ref, commit: r.status === 0 ? r.stdout.trim() : null });
    }
    expect(refs.get("refs/remotes/origin/HEAD")?.symref).toBe("refs/remotes/origin/main");
    expect(refs.get("refs/heads/main")?.symref).toBeNull();
  });
});
