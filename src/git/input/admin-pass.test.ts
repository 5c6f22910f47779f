// The admin dirs' vetting kept by identity (admin-pass.ts, issue 48 item 3): an admin dir found plain
// is trusted again only while its identity is the one kept; a file replaced in it (a FIFO or a link
// where `locked` was, a HEAD written through a rename) is vetted again and refused exactly as on a
// first pass; a cache file that cannot be read is rebuilt, never trusted. Dirs changed within 2 s
// of a pass are never kept (their times could hide a later change), hence the waits.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, realpathSync, renameSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { adminPass, forgetAdminPasses } from "./admin-pass.js";
import { setProofCacheDir } from "../warm/proof-cache.js";

let root: string;
let common: string;
let cache: string;
const settle = (): Promise<void> => new Promise((done) => setTimeout(done, 2_200)); // past the racy window
const admin = (id: string): string => join(common, "worktrees", id);
const special = () => adminPass(common).special.map((s) => ({ file: s.file.slice(common.length + 1), kind: s.kind }));
/** A new process's first pass: nothing kept in memory, the workspace's cache read anew. */
const freshProcess = (): void => {
  forgetAdminPasses();
  setProofCacheDir(cache);
};
const kept = (): string[] => JSON.parse(readFileSync(join(cache, "proofs-admin.json"), "utf8")).entries[common].stamps;

beforeAll(async () => {
  root = realpathSync(mkdtempSync(join(tmpdir(), "orchard-admin-pass-")));
  common = join(root, "repo", ".git");
  cache = join(root, "home", "cache");
  mkdirSync(join(root, "home"));
  for (const id of ["a", "b", "c"]) {
    mkdirSync(admin(id), { recursive: true });
    writeFileSync(join(admin(id), "gitdir"), `${join(root, id)}/.git\n`);
    writeFileSync(join(admin(id), "HEAD"), `ref: refs/heads/${id}\n`);
    writeFileSync(join(admin(id), "commondir"), "../..\n");
  }
  await settle();
});
afterAll(() => {
  setProofCacheDir(null);
  rmSync(root, { recursive: true, force: true });
});
beforeEach(() => freshProcess());

describe("the admin pass, kept by identity", () => {
  it("keeps each plain admin dir's identity in the workspace, and reads the files asked for now", () => {
    expect(special()).toEqual([]);
    expect(kept()).toHaveLength(3);
    freshProcess();
    const pass = adminPass(common, ["gitdir", "HEAD", "locked"]);
    expect(pass.dirs.map((d) => d.id)).toEqual(["a", "b", "c"]);
    expect(pass.dirs[0]!.files.HEAD?.toString()).toBe("ref: refs/heads/a\n");
    expect(pass.dirs[0]!.files.locked).toBeNull();
  });

  it("a `locked` planted as a FIFO or a link after a kept pass is vetted again and refused as without the cache", () => {
    expect(special()).toEqual([]);
    execFileSync("mkfifo", [join(admin("a"), "locked")]);
    symlinkSync("/dev/zero", join(admin("b"), "locked"));
    freshProcess();
    const withCache = special();
    setProofCacheDir(null);
    forgetAdminPasses();
    expect(withCache).toEqual(special()); // exactly what a first pass finds
    expect(withCache).toEqual([
      { file: "worktrees/a/locked", kind: "a FIFO" },
      { file: "worktrees/b/locked", kind: "a symbolic link" },
    ]);
    rmSync(join(admin("a"), "locked"));
    rmSync(join(admin("b"), "locked"));
  });

  it("a HEAD rewritten through a rename is read anew; one replaced by a FIFO is refused", async () => {
    await settle();
    expect(special()).toEqual([]);
    writeFileSync(join(admin("c"), "HEAD.lock"), "ref: refs/heads/other\n");
    renameSync(join(admin("c"), "HEAD.lock"), join(admin("c"), "HEAD")); // as git writes it
    freshProcess();
    expect(adminPass(common, ["HEAD"]).dirs[2]!.files.HEAD?.toString()).toBe("ref: refs/heads/other\n");
    rmSync(join(admin("c"), "HEAD"));
    execFileSync("mkfifo", [join(admin("c"), "HEAD")]);
    freshProcess();
    expect(special()).toEqual([{ file: "worktrees/c/HEAD", kind: "a FIFO" }]);
    rmSync(join(admin("c"), "HEAD"));
    writeFileSync(join(admin("c"), "HEAD"), "ref: refs/heads/c\n");
  });

  it("a cache file that cannot be read is rebuilt, never trusted", async () => {
    await settle();
    expect(special()).toEqual([]);
    const file = join(cache, "proofs-admin.json");
    writeFileSync(file, "{ not json");
    execFileSync("mkfifo", [join(admin("a"), "locked")]);
    freshProcess();
    expect(special()).toEqual([{ file: "worktrees/a/locked", kind: "a FIFO" }]);
    expect(kept()).toHaveLength(2); // written anew: the two plain dirs (b and c; a changed just now is not kept)
    rmSync(join(admin("a"), "locked"));
  });
});
