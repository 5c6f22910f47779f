// One parse of an index while it is the same file (index-shape.ts): a second read of the unchanged
// file takes the kept shape without reading its bytes; a rewritten index (git's lock and rename, or
// a write in place) is read and parsed again; what is not a plain file is not read.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { hermeticEnv } from "../../../test/helpers/env.js";
import { readIndexShapeAt } from "./index-shape.js";

let repo: string;
const git = (...args: string[]) => execFileSync("git", args, { cwd: repo, env: hermeticEnv(), encoding: "utf8" });
const index = () => join(repo, ".git", "index");
const read = (file = index(), follow = false) => readIndexShapeAt(file, { max: 1024 * 1024, follow });

beforeAll(() => {
  repo = realpathSync(mkdtempSync(join(tmpdir(), "orchard-index-shape-")));
  git("init", "-q", "-b", "main");
  for (const f of ["a.txt", "src/x.ts", "src/deep/y.ts"]) {
    mkdirSync(join(repo, f, ".."), { recursive: true });
    writeFileSync(join(repo, f), "x\n");
  }
  git("add", "-A");
});
afterAll(() => rmSync(repo, { recursive: true, force: true }));

describe("readIndexShapeAt", () => {
  it("parses once while the file is unchanged, again once git rewrote it", () => {
    const first = read();
    expect(first?.bytes).not.toBeNull();
    expect([...(first?.shape?.dirs ?? [])].sort()).toEqual(["src", "src/deep"]);
    const second = read();
    expect(second?.bytes).toBeNull(); // the kept parse: no bytes read
    expect(second?.shape).toBe(first?.shape);
    mkdirSync(join(repo, "docs"));
    writeFileSync(join(repo, "docs", "b.md"), "b\n");
    git("add", "docs/b.md");
    const third = read();
    expect(third?.bytes).not.toBeNull();
    expect([...(third?.shape?.dirs ?? [])].sort()).toEqual(["docs", "src", "src/deep"]);
  });

  it("reads a file written in place again (its size or times changed)", () => {
    const before = read();
    const bytes = readFileSync(index());
    writeFileSync(index(), Buffer.concat([bytes.subarray(0, 12), Buffer.from("damaged")]));
    const after = read();
    expect(after?.bytes).not.toBeNull();
    expect(after?.shape).toBeNull(); // not what the parser reads: the caller reads the bytes its own way
    writeFileSync(index(), bytes);
    expect(read()?.shape?.dirs).toEqual(before?.shape?.dirs);
  });

  it("no plain file, no read: a link when not followed, a directory, nothing there", () => {
    const link = join(repo, "index-link");
    symlinkSync(index(), link);
    expect(read(link, false)).toBeNull();
    expect(read(link, true)?.shape?.dirs.length).toBeGreaterThan(0);
    expect(read(join(repo, "src"))).toBeNull();
    expect(read(join(repo, "none"))).toBeNull();
  });
});
