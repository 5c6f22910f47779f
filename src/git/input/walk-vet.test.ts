// The index read by hand for the directories git walks (walk-vet.ts): versions 2, 3 and 4 (prefix
// compressed), written by a real git; what cannot be read lists the top level only.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { hermeticEnv } from "../../../test/helpers/env.js";
import { indexDirs, indexPaths } from "./walk-vet.js";

let repo: string;
const git = (...args: string[]) => execFileSync("git", args, { cwd: repo, env: hermeticEnv(), encoding: "utf8" });
const FILES = ["a.txt", "src/deep/er/x.ts", "src/deep/y.ts", "src/z.ts", "docs/é/readme.md", `long/${"n".repeat(200)}/${"m".repeat(200)}/f`];

beforeAll(() => {
  repo = realpathSync(mkdtempSync(join(tmpdir(), "orchard-walk-vet-")));
  git("init", "-q", "-b", "main");
  for (const f of FILES) {
    mkdirSync(join(repo, f, ".."), { recursive: true });
    writeFileSync(join(repo, f), "x\n");
  }
  git("add", "-A");
});
afterAll(() => rmSync(repo, { recursive: true, force: true }));

describe("indexPaths", () => {
  for (const version of ["2", "3", "4"])
    it(`reads every path of a version ${version} index`, () => {
      git("update-index", "--index-version", version);
      if (version === "3") git("update-index", "--skip-worktree", "a.txt"); // an extended flag
      expect(indexPaths(readFileSync(join(repo, ".git", "index")), 20).sort()).toEqual([...FILES].sort());
    });

  it("the directories, with the top level; an unreadable index is the top level alone", () => {
    const dirs = indexDirs(join(repo, ".git", "index"), join(repo, ".git"));
    expect([...dirs].sort()).toEqual(
      ["", "docs", "docs/é", "long", `long/${"n".repeat(200)}`, `long/${"n".repeat(200)}/${"m".repeat(200)}`, "src", "src/deep", "src/deep/er"].sort(),
    );
    expect([...indexDirs(join(repo, "no-index"), join(repo, ".git"))]).toEqual([""]);
    expect(indexPaths(Buffer.from("not an index"), 20)).toEqual([]);
  });
});
