// startPairProofs (a wave entry's proofs about two fixed commits, through one shell) answers what
// each reader answers on its own, for a tip that is an ancestor, one whose patch is upstream, one
// that merges cleanly, one that conflicts and one that deletes a file; and it leaves no started
// answer behind for a later query to take.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { execFileSync } from "node:child_process";
import { mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { hermeticEnv } from "../../test/helpers/env.js";
import { allCommitsEquivalent, readDeletedFiles, readMergeBase, readMergeTree, startPairProofs } from "./read.js";
import { earlyCount } from "./run.js";

let dir: string;
const saved = { ...process.env };
const tips: Record<string, string> = {};
let base = "";
let target = "";

beforeAll(() => {
  dir = realpathSync(mkdtempSync(join(tmpdir(), "orchard-pair-proofs-")));
  Object.assign(process.env, hermeticEnv());
  const git = (...args: string[]) => execFileSync("git", args, { cwd: dir, encoding: "utf8" }).trim();
  const commit = (file: string, content: string, message: string) => {
    writeFileSync(join(dir, file), content);
    git("add", "-A");
    git("commit", "-q", "-m", message);
    return git("rev-parse", "HEAD");
  };
  git("init", "-q", "-b", "main");
  commit("a.txt", "a\n", "a");
  base = commit("b.txt", "b\n", "b");
  git("switch", "-q", "-c", "clean");
  tips.clean = commit("c.txt", "c\n", "c");
  git("switch", "-q", "-c", "conflict", base);
  tips.conflict = commit("a.txt", "theirs\n", "theirs");
  git("switch", "-q", "-c", "deletes", base);
  git("rm", "-q", "b.txt");
  git("commit", "-q", "-m", "delete b");
  tips.deletes = git("rev-parse", "HEAD");
  git("switch", "-q", "-c", "picked", base);
  tips.picked = commit("p.txt", "p\n", "picked");
  git("switch", "-q", "main");
  commit("a.txt", "ours\n", "ours");
  git("cherry-pick", tips.picked);
  target = git("rev-parse", "HEAD");
  tips.ancestor = base;
});

afterAll(() => {
  process.env = saved;
  rmSync(dir, { recursive: true, force: true });
});

describe("startPairProofs", () => {
  it.each(["ancestor", "picked", "clean", "conflict", "deletes"])("answers for a tip that is %s as each reader does alone", async (name) => {
    const tip = tips[name] as string;
    const waiting = earlyCount(); // another file's, in a shared worker
    const together = startPairProofs(dir, target, tip, base);
    const answers = {
      mergeBase: await together.mergeBase,
      equivalent: await together.equivalent,
      mergeTree: await together.mergeTree,
      deleted: await together.deleted,
    };
    // every answer started was taken by its reader: none is left for a later identical query
    expect(earlyCount()).toBe(waiting);
    expect(answers).toEqual({
      mergeBase: await readMergeBase(dir, target, tip),
      equivalent: await allCommitsEquivalent(dir, target, tip),
      mergeTree: await readMergeTree(dir, target, tip),
      deleted: await readDeletedFiles(dir, base, tip),
    });
  });

  it("the answers tell the cases apart (the oracle above is not vacuous)", async () => {
    const of = async (name: string) => {
      const p = startPairProofs(dir, target, tips[name] as string, base);
      return { base: await p.mergeBase, equivalent: await p.equivalent, clean: (await p.mergeTree).clean, deleted: await p.deleted };
    };
    expect(await of("ancestor")).toMatchObject({ base, clean: true, deleted: [] });
    expect(await of("picked")).toMatchObject({ equivalent: true });
    expect(await of("clean")).toMatchObject({ equivalent: false, clean: true });
    expect(await of("conflict")).toMatchObject({ clean: false });
    expect(await of("deletes")).toMatchObject({ deleted: ["b.txt"] });
    // without a deletion check, none is started
    expect(startPairProofs(dir, target, tips.clean as string, null).deleted).toBeNull();
  });
});
