// parseIndexShape reads what `git ls-files --stage` lists (the oracle), for every index git 2.39
// writes that it claims to read: versions 2, 3 (an intent-to-add entry's extended flags) and 4
// (prefix-compressed paths), gitlinks, conflict stages, a path past 4,095 bytes, bytes that are not
// UTF-8, extensions (the untracked cache, the cache tree); and it says null, never a guess, for a
// split index, a SHA-256 index and a damaged file.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { hermeticEnv } from "../../../test/helpers/env.js";
import { decodeGitBytes } from "../bytes.js";
import { parseIndexShape, shapeOf } from "./index-file.js";

let root: string;
beforeAll(() => {
  root = realpathSync(mkdtempSync(join(tmpdir(), "orchard-index-")));
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

const run = (cwd: string, args: string[], input?: Buffer): Buffer =>
  execFileSync("git", args, { cwd, env: hermeticEnv(), ...(input ? { input } : {}), stdio: [input ? "pipe" : "ignore", "pipe", "pipe"] });

function repo(name: string, options: { format?: string } = {}): { dir: string; blob: string; commit: string } {
  const dir = join(root, name);
  run(root, ["init", "-q", "-b", "main", ...(options.format ? [`--object-format=${options.format}`] : []), dir]);
  writeFileSync(join(dir, "a.txt"), "a\n");
  run(dir, ["add", "a.txt"]);
  run(dir, ["commit", "-q", "-m", "a"]);
  const blob = run(dir, ["rev-parse", "HEAD:a.txt"]).toString().trim();
  const commit = run(dir, ["rev-parse", "HEAD"]).toString().trim();
  return { dir, blob, commit };
}

/** What git lists: each entry's mode and path, decoded as Orchard decodes git's output. */
function listed(dir: string): { mode: number; path: string }[] {
  const out = run(dir, ["ls-files", "--stage", "-z"]);
  const entries: { mode: number; path: string }[] = [];
  let at = 0;
  while (at < out.length) {
    const end = out.indexOf(0, at);
    const record = out.subarray(at, end);
    const tab = record.indexOf(9);
    entries.push({ mode: parseInt(record.subarray(0, 6).toString(), 8), path: decodeGitBytes(record.subarray(tab + 1)) });
    at = end + 1;
  }
  return entries;
}

/** The shape of what git lists, directories in a fixed order. */
const oracle = (dir: string) => sorted(shapeOf(listed(dir)));
const sorted = (shape: { gitlinks: string[]; dirs: string[] } | null) => shape && { gitlinks: [...shape.gitlinks].sort(), dirs: [...shape.dirs].sort() };
const parsed = (dir: string) => sorted(parseIndexShape(readFileSync(join(dir, ".git", "index"))));

describe("parseIndexShape", () => {
  it("reads versions 2, 3 and 4 as git lists them: gitlinks, stages, long and non-UTF-8 paths, extensions", () => {
    const { dir, blob, commit } = repo("many");
    const long = Array.from({ length: 20 }, (_, i) => `dir-${i}-${"x".repeat(240)}`).join("/") + "/file.txt";
    const lines = [
      Buffer.from(`160000 ${commit}\tvendor/sub\n`),
      Buffer.from(`100644 ${blob}\tsrc/app/main.ts\n`),
      Buffer.from(`100755 ${blob}\tsrc/app/run.sh\n`),
      Buffer.from(`120000 ${blob}\tsrc/link\n`),
      Buffer.from(`100644 ${blob}\t${long}\n`),
      Buffer.concat([Buffer.from(`100644 ${blob}\tbytes/caf`), Buffer.from([0xe9, 0xff]), Buffer.from("/x.txt\n")]),
      Buffer.from(`100644 ${blob} 1\tconflict.txt\n100644 ${blob} 2\tconflict.txt\n100644 ${blob} 3\tconflict.txt\n`),
    ];
    run(dir, ["update-index", "--index-info"], Buffer.concat(lines));
    writeFileSync(join(dir, "new.txt"), "intent\n");
    run(dir, ["add", "-N", "new.txt"]); // intent-to-add: an extended flag (version 3)
    run(dir, ["-c", "core.untrackedCache=true", "update-index", "--untracked-cache"]);
    run(dir, ["-c", "core.untrackedCache=true", "status", "--porcelain"]);
    for (const version of ["3", "4", "2", "4"]) {
      if (version !== "3") run(dir, ["update-index", "--index-version", version]);
      const entries = listed(dir);
      expect(entries.filter((e) => e.path === "conflict.txt")).toHaveLength(3);
      expect(entries.some((e) => e.path.startsWith("bytes/caf\udce9\udcff/"))).toBe(true);
      const want = oracle(dir);
      expect(want?.gitlinks).toEqual(["vendor/sub"]);
      expect(want?.dirs).toContain("bytes/caf\udce9\udcff");
      expect(parsed(dir), `version ${version}`).toEqual(want);
      const bytes = readFileSync(join(dir, ".git", "index"));
      // (asked for 2, git keeps 3 while an entry has extended flags; the plain index below is a 2)
      expect([bytes.readUInt32BE(4), bytes.includes("UNTR")]).toEqual([version === "2" ? 3 : Number(version), true]);
    }
  });

  it("is null for a split index, a SHA-256 index and a damaged file", () => {
    const split = repo("split").dir;
    run(split, ["update-index", "--split-index"]);
    expect(parsed(split)).toBeNull();

    const sha256 = repo("sha256", { format: "sha256" }).dir;
    expect(listed(sha256)).toHaveLength(1);
    expect(parsed(sha256)).toBeNull();

    const plain = repo("damaged").dir;
    const bytes = readFileSync(join(plain, ".git", "index"));
    expect(bytes.readUInt32BE(4)).toBe(2);
    expect(sorted(parseIndexShape(bytes))).toEqual(oracle(plain));
    const flipped = Buffer.from(bytes);
    flipped[30] = (flipped[30] as number) ^ 1;
    expect(parseIndexShape(flipped)).toBeNull();
    expect(parseIndexShape(bytes.subarray(0, bytes.length - 1))).toBeNull();
    expect(parseIndexShape(Buffer.from("not an index"))).toBeNull();
  });
});
