// proveMergedMany answers exactly what proveMerged answers head by head (git cherry, git merge-tree
// one at a time are the oracle), over histories that exercise each proof and each way the batch
// could be wrong: squash merges, cherry-picks, partial picks, a change re-applied after its revert,
// binary files, a file mode, merge commits, an old fork, a second target that differs, unrelated
// history, and a change main made only with other whitespace (another Python program: never equivalent).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { chmodSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { git as gitIn } from "../../../test/helpers/scenario.js";
import { proveMerged } from "./merged.js";
import { proveMergedMany } from "./merged-batch.js";

let dir: string;
const git = (...args: string[]): string => gitIn(dir, ...args);
const write = (file: string, content: string | Buffer): void => writeFileSync(join(dir, file), content);
function commit(file: string, content: string | Buffer, message = file): string {
  write(file, content);
  git("add", "-A");
  git("commit", "-q", "-m", message);
  return git("rev-parse", "HEAD");
}
const heads: Record<string, string> = {};
const branch = (name: string, from = "main"): void => void git("switch", "-q", "-c", name, from);
const done = (name: string): void => void (heads[name] = git("rev-parse", "HEAD"));

beforeAll(() => {
  dir = realpathSync(mkdtempSync(join(tmpdir(), "orchard-merged-")));
  git("init", "-q", "-b", "main");
  commit("base.txt", "base\n");
  commit("line.txt", "one\n");
  commit("code.py", "def f():\n    return 1\n");
  const old = git("rev-parse", "HEAD");
  // ancestor: an old commit of main
  branch("behind");
  done("behind");
  // own work, never merged
  branch("open");
  commit("open.txt", "open work\n");
  done("open");
  // cherry-picked onto main: patch_equivalent
  branch("picked");
  const pick = commit("picked.txt", "picked\n");
  done("picked");
  // two commits, squashed onto main: merge_adds_nothing
  branch("squashed");
  commit("sq1.txt", "a\n");
  commit("sq2.txt", "b\n");
  done("squashed");
  // two commits, only one picked: neither
  branch("partial");
  const half = commit("half1.txt", "x\n");
  commit("half2.txt", "y\n");
  done("partial");
  // a line added, removed and added again on main's history: re-adding it on a branch is work
  git("switch", "-q", "main");
  commit("toggle.txt", "on\n");
  commit("toggle.txt", "off\n");
  branch("readd");
  commit("toggle.txt", "on\n", "re-add");
  done("readd");
  // binary files: the same bytes picked, different bytes not
  branch("bin-same", old);
  const binPick = commit("blob.bin", Buffer.from([0, 1, 2, 3, 0, 255]));
  done("bin-same");
  branch("bin-other", old);
  commit("blob.bin", Buffer.from([0, 1, 2, 3, 0, 254]));
  done("bin-other");
  // the same content, executable on the branch and not on main: a mode is work too
  branch("exec", old);
  write("run.sh", "echo run\n");
  chmodSync(join(dir, "run.sh"), 0o755);
  git("add", "run.sh");
  git("commit", "-q", "-m", "run.sh");
  done("exec");
  // the same change as main's but for its indentation: git's own patch-ids (cherry) call it equivalent
  branch("reindented", old);
  commit("code.py", "def f():\n    return 2\n");
  done("reindented");
  // a branch with a merge commit of its own
  branch("with-merge", old);
  commit("wm.txt", "wm\n");
  branch("side", old);
  commit("side.txt", "side\n");
  git("switch", "-q", "with-merge");
  git("merge", "-q", "--no-edit", "side");
  done("with-merge");
  // unrelated history
  git("switch", "-q", "--orphan", "alone");
  commit("alone.txt", "alone\n");
  done("alone");
  // main takes the pick, the squash, half of partial, the binary pick
  git("switch", "-q", "main");
  git("cherry-pick", pick);
  git("merge", "-q", "--squash", "squashed"); // (git prints "Automatic merge went well" all the same)
  git("commit", "-q", "-m", "squash");
  git("cherry-pick", half);
  git("cherry-pick", binPick);
  commit("code.py", "def f():\n  return 2\n");
  commit("run.sh", "echo run\n");
  commit("later.txt", "later\n");
  heads.main = git("rev-parse", "HEAD");
  // a second target (origin's main, say) that is one commit behind
  heads.second = git("rev-parse", "HEAD~1");
});

afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function oracle(head: string, targets: { ref: string; oid: string }[]): Promise<unknown> {
  try {
    return await proveMerged(dir, head, targets);
  } catch {
    return "error";
  }
}

describe("proveMergedMany", () => {
  for (const [name, targets] of [
    ["one target", () => [{ ref: "refs/heads/main", oid: heads.main as string }]],
    [
      "two targets",
      () => [
        { ref: "refs/remotes/origin/main", oid: heads.second as string },
        { ref: "refs/heads/main", oid: heads.main as string },
      ],
    ],
  ] as const) {
    it(`answers as proveMerged does, head by head (${name}), with and without an unrelated history in the batch`, async () => {
      const t = targets();
      for (const names of [Object.keys(heads).filter((n) => n !== "second" && n !== "alone"), Object.keys(heads).filter((n) => n !== "second")]) {
        const batch = await proveMergedMany(
          dir,
          names.map((n) => heads[n] as string),
          t,
        );
        for (const n of names) {
          const got = batch.get(heads[n] as string);
          expect([n, got instanceof Error ? "error" : got]).toEqual([n, await oracle(heads[n] as string, t)]);
        }
      }
    });
  }

  it("starts a fixed number of processes however many heads it proves", async () => {
    const many: string[] = [];
    for (let i = 0; i < 30; i++) {
      git("switch", "-q", "-c", `many-${i}`, heads.main as string);
      many.push(commit(`many-${i}.txt`, `${i}\n`));
    }
    git("switch", "-q", "main");
    let processes = 0;
    const write = process.stderr.write.bind(process.stderr);
    process.stderr.write = ((chunk: string | Uint8Array) => {
      processes += String(chunk)
        .split("\n")
        .filter((l) => l.startsWith("[orchard trace]")).length;
      return true;
    }) as typeof process.stderr.write;
    process.env.ORCHARD_TRACE = "1";
    try {
      const batch = await proveMergedMany(
        dir,
        [...many, heads.picked as string, heads.squashed as string],
        [{ ref: "refs/heads/main", oid: heads.main as string }],
      );
      expect(many.map((h) => (batch.get(h) as { how: string | null }).how)).toEqual(many.map(() => null));
      expect((batch.get(heads.picked as string) as { how: string }).how).toBe("patch_equivalent");
    } finally {
      delete process.env.ORCHARD_TRACE;
      process.stderr.write = write;
    }
    // rev-list (graph), merge-base --octopus, rev-list (upstream), diff-tree, patch-id, merge-tree, cat-file
    expect(processes).toBeLessThanOrEqual(7);
  });

  it("covers every proof (the histories above are what they claim)", async () => {
    const batch = await proveMergedMany(dir, Object.values(heads), [{ ref: "refs/heads/main", oid: heads.main as string }]);
    const how = (n: string) => (batch.get(heads[n] as string) as { how: string | null }).how;
    expect(how("main")).toBe("same_commit");
    expect(how("behind")).toBe("ancestor");
    expect(how("picked")).toBe("patch_equivalent");
    expect(how("bin-same")).toBe("merge_adds_nothing"); // a binary change has no text patch: no patch proof
    expect(git("cherry", heads.main!, heads.reindented!)).toMatch(/^- /); // git's patch-id ignores whitespace
    expect(how("squashed")).toBe("merge_adds_nothing");
    for (const n of ["open", "partial", "readd", "bin-other", "with-merge", "exec", "reindented"]) expect([n, how(n)]).toEqual([n, null]);
  });
});
