// bootstrap.share (SPEC v4 §6): the first worktree of a fingerprint installs and Orchard keeps a
// pristine copy at once; later worktrees of that fingerprint get the directories from the copy,
// without the install; the default method never lets one worktree's write reach another's file;
// a changed lockfile installs anew; a kill during the copy leaves no copy taken as ready.
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { constants, copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { Scenario, git } from "../helpers/scenario.js";
import { killedAt } from "../helpers/crash.js";
import { TRUSTED, installs, lockfile, setUpShare } from "../helpers/share.js";

let s: Scenario;
beforeEach(() => {
  s = Scenario.create();
});
afterEach(() => s.cleanup());

const add = (branch: string, ...more: string[]): any => {
  const r = s.orchard(["add", branch, ...more], { env: TRUSTED });
  expect(r.code, r.stdout + r.stderr).toBe(0);
  return r.json;
};
const stepOf = (r: any, name: string): any => r.bootstrap.steps.find((x: { name: string }) => x.name === name);
const store = (): string => join(s.home, "share", "app");
const entries = (): string[] => (existsSync(store()) ? readdirSync(store()).sort() : []);
const readyCopies = (): string[] => entries().filter((e) => !e.startsWith(".") && existsSync(join(store(), e, "ready.json")));
const leftIndex = (wt: string): string => join(wt, "node_modules", "left", "index.js");

describe("bootstrap.share", () => {
  it("the first worktree installs and keeps a copy; the next one is materialised from it without the install", () => {
    setUpShare(s, { extraRun: [{ command: "echo post > post.txt", always: true }] });
    const a = add("feat-a");
    expect(a.bootstrap.status).toBe("ran");
    expect(a.bootstrap.share).toMatchObject({ action: "kept", method: "copy", dirs: ["node_modules"] });
    expect(stepOf(a, "share: keep")).toMatchObject({ status: "ran", files: 6, method: "copy" });
    expect(installs(s)).toBe(1);
    expect(readyCopies()).toEqual([a.bootstrap.share.key]);

    const b = add("feat-b");
    expect(b.bootstrap.status).toBe("shared");
    expect(b.bootstrap.share).toMatchObject({ action: "materialised", method: "copy", key: a.bootstrap.share.key });
    expect(b.bootstrap.fingerprint).toBe(a.bootstrap.fingerprint);
    expect(installs(s)).toBe(1); // the install did not run for B
    const install = b.bootstrap.steps.find((x: { name: string }) => x.name.startsWith("run: node"));
    expect(install).toMatchObject({ status: "skipped", reason: "bootstrap_shared" });
    expect(stepOf(b, "run: echo post > post.txt")).toMatchObject({ status: "ran" }); // not a pure install: it runs
    expect(readFileSync(join(b.path, "post.txt"), "utf8")).toBe("post\n");
    expect(readFileSync(leftIndex(b.path), "utf8")).toBe('module.exports = "left@1.0.0";\n');
    expect(git(b.path, "status", "--porcelain")).toBe("?? post.txt");
    // the link inside the shared tree is a link, as the install made it
    expect(readFileSync(join(b.path, "node_modules", ".bin", "tool"), "utf8")).toBe('module.exports = "left@1.0.0";\n');
  });

  it("default method: a write in place in one worktree reaches neither a neighbour nor a new worktree", () => {
    setUpShare(s);
    const a = add("feat-a");
    const b = add("feat-b");
    expect(b.bootstrap.status).toBe("shared");
    writeFileSync(leftIndex(a.path), "tampered by A\n"); // O_TRUNC on the same inode: a write in place
    writeFileSync(leftIndex(b.path), "tampered by B\n");
    expect(statSync(leftIndex(b.path)).nlink).toBe(1);
    expect(readFileSync(leftIndex(a.path), "utf8")).toBe("tampered by A\n");
    const c = add("feat-c");
    expect(c.bootstrap.status).toBe("shared");
    expect(readFileSync(leftIndex(c.path), "utf8")).toBe('module.exports = "left@1.0.0";\n');
    expect(installs(s)).toBe(1);
  });

  it("hardlink (opt-in): every worktree links the kept copy's files, so a write in place reaches them all (the documented warning)", () => {
    setUpShare(s, { method: "hardlink" });
    const a = add("feat-a");
    expect(a.bootstrap.share).toMatchObject({ action: "kept", method: "hardlink" });
    const b = add("feat-b");
    expect(b.bootstrap.share).toMatchObject({ action: "materialised", method: "hardlink" });
    expect(statSync(leftIndex(a.path)).nlink).toBe(3); // A, the kept copy, B
    expect(statSync(leftIndex(b.path)).ino).toBe(statSync(leftIndex(a.path)).ino);
    writeFileSync(leftIndex(b.path), "tampered by B\n");
    const kept = join(store(), b.bootstrap.share.key, "dirs", "node_modules", "left", "index.js");
    expect(readFileSync(kept, "utf8")).toBe("tampered by B\n");
  });

  it("hardlink: a kept copy changed by a write in place is share_modified: hygiene --disk says it, add never materialises it again", () => {
    setUpShare(s, { method: "hardlink" });
    const a = add("feat-a");
    const key = a.bootstrap.share.key;
    expect(add("feat-b").bootstrap.share).toMatchObject({ action: "materialised" });
    const original = readFileSync(leftIndex(a.path), "utf8");
    // the same size, another text: only the stat data the digest reads tells
    writeFileSync(leftIndex(a.path), original.replace("left", "evil"));
    const copyOf = (h: any) => h.keptCopies.find((k: { key: string }) => k.key === key);
    const seen = s.orchard(["hygiene", "--disk"]).json;
    expect(copyOf(seen)).toMatchObject({
      disposition: "reclaimable",
      reasons: [expect.objectContaining({ code: "share_modified", next: "orchard cleanup run" })],
    });

    const c = add("feat-c");
    expect(stepOf(c, "share")).toMatchObject({ status: "skipped", reason: "share_modified" });
    expect(c.bootstrap.share).toMatchObject({ action: "kept", key }); // the install ran; its fresh copy took the key
    expect(installs(s)).toBe(2);
    expect(readFileSync(leftIndex(c.path), "utf8")).toBe(original);
    expect(readFileSync(leftIndex(a.path), "utf8")).toBe(original.replace("left", "evil")); // A's own file is A's
    expect(readFileSync(leftIndex(add("feat-d").path), "utf8")).toBe(original);
    expect(copyOf(s.orchard(["hygiene", "--disk"]).json)).toMatchObject({ disposition: "kept", reasons: [] });

    // cleanup checks the digest too, and reclaims a changed copy (the worktrees keep their own links)
    writeFileSync(leftIndex(c.path), "tampered by C\n");
    const run = s.orchard(["cleanup", "run"]).json;
    expect(run.keptCopies.removed).toEqual([expect.objectContaining({ key, reasons: [expect.objectContaining({ code: "share_modified" })] })]);
    expect(readFileSync(leftIndex(c.path), "utf8")).toBe("tampered by C\n");
    expect(readyCopies()).toEqual([]);
  });

  it("a changed lockfile on one branch installs anew and shares nothing stale", () => {
    setUpShare(s);
    const a = add("feat-a");
    git(s.primary, "branch", "bump", "main");
    const scratch = join(s.root, "scratch");
    git(s.primary, "worktree", "add", "-q", scratch, "bump");
    s.commit({ in: scratch, file: "package-lock.json", content: lockfile({ left: "1.1.0", right: "2.0.0", pad: "3.0.0", extra: "4.0.0" }) });
    git(s.primary, "worktree", "remove", scratch);
    const bumped = add("bump");
    expect(bumped.bootstrap.status).toBe("ran");
    expect(bumped.bootstrap.share).toMatchObject({ action: "kept" });
    expect(bumped.bootstrap.share.key).not.toBe(a.bootstrap.share.key);
    expect(installs(s)).toBe(2);
    expect(readFileSync(leftIndex(bumped.path), "utf8")).toBe('module.exports = "left@1.1.0";\n');
    expect(existsSync(join(bumped.path, "node_modules", "extra", "index.js"))).toBe(true);
    const b = add("feat-b"); // main's lockfile: main's copy
    expect(b.bootstrap.share).toMatchObject({ action: "materialised", key: a.bootstrap.share.key });
    expect(existsSync(join(b.path, "node_modules", "extra"))).toBe(false);
    expect(readyCopies().sort()).toEqual([a.bootstrap.share.key, bumped.bootstrap.share.key].sort());
  });

  it("a kill -9 during the copy leaves no copy taken as ready; the next add sweeps it and installs", () => {
    setUpShare(s);
    killedAt(s, "share.copying", ["add", "feat-a"], TRUSTED);
    expect(readyCopies()).toEqual([]);
    expect(entries().filter((e) => e.startsWith(".building-"))).toHaveLength(1); // the half copy
    const b = add("feat-b");
    expect(b.bootstrap.status).toBe("ran");
    expect(installs(s)).toBe(2);
    expect(entries()).toEqual([b.bootstrap.share.key]); // swept; one whole copy
    expect(add("feat-c").bootstrap.status).toBe("shared");
  });

  it("a kill -9 after the copy, before it is renamed into place, leaves a build that is never used", () => {
    setUpShare(s);
    killedAt(s, "share.copied", ["add", "feat-a"], TRUSTED);
    const [build] = entries();
    expect(build).toMatch(/^\.building-/);
    expect(existsSync(join(store(), build as string, "ready.json"))).toBe(true); // whole, but not at its key
    expect(readyCopies()).toEqual([]);
    const b = add("feat-b");
    expect(b.bootstrap.status).toBe("ran");
    expect(entries()).toEqual([b.bootstrap.share.key]);
  });

  it("a recycled worktree of the same fingerprint is materialised too (its install does not run)", () => {
    setUpShare(s);
    const a = add("feat-a");
    expect(s.orchard(["release", a.handle, "--outcome", "done"], { env: TRUSTED }).code).toBe(0);
    const b = add("feat-b", "--policy", "recycle-terminal");
    expect(b.action).toBe("recycled");
    expect(b.path).not.toBe(a.path);
    expect(b.bootstrap.status).toBe("shared");
    expect(installs(s)).toBe(1);
    expect(readFileSync(leftIndex(b.path), "utf8")).toBe('module.exports = "left@1.0.0";\n');
  });

  it("a Python venv that names its own path is refused clearly: nothing is kept, every worktree installs", () => {
    const venv = `mkdir -p .venv/bin && printf 'home = /usr/bin\\nversion = 3.12\\n' > .venv/pyvenv.cfg`;
    setUpShare(s, { share: [".venv"], install: venv });
    const a = add("feat-a");
    expect(stepOf(a, "share: keep")).toMatchObject({ status: "skipped", reason: "share_not_relocatable" });
    expect(stepOf(a, "share: keep").notCopied[0].why).toContain("pyvenv.cfg");
    expect(a.bootstrap.share).toBeUndefined();
    expect(readyCopies()).toEqual([]);
    expect(add("feat-b").bootstrap.status).toBe("ran");
  });

  it("a relocatable venv (relocatable = true) is shared", () => {
    const venv = `mkdir -p .venv/bin && printf 'home = /usr/bin\\nrelocatable = true\\n' > .venv/pyvenv.cfg`;
    setUpShare(s, { share: [".venv"], install: venv });
    expect(add("feat-a").bootstrap.share).toMatchObject({ action: "kept" });
    expect(add("feat-b").bootstrap.status).toBe("shared");
  });

  it("clone where the filesystem cannot clone: refused by name, the worktree is kept", () => {
    if (cloneWorksHere(s.root)) return console.warn("SKIP: this filesystem clones; the refusal cannot be shown here");
    setUpShare(s, { method: "clone" });
    const r = s.orchard(["add", "feat-a"], { env: TRUSTED });
    expect(r.code).toBe(1);
    expect(stepOf(r.json, "share: keep")).toMatchObject({ status: "failed" });
    expect(stepOf(r.json, "share: keep").reason).toMatch(/^share_clone_unsupported: the filesystem of .* cannot clone/);
    expect(readyCopies()).toEqual([]);
    expect(entries()).toEqual([]);
  });

  it("bad share settings are invalid config (exit 2)", () => {
    writeFileSync(join(s.primary, ".orchard.json"), JSON.stringify({ bootstrap: { shareMethod: "symlink" } }));
    expect(s.orchard(["add", "feat-a"]).code).toBe(2);
    writeFileSync(join(s.primary, ".orchard.json"), JSON.stringify({ bootstrap: { share: ["../up"] } }));
    expect(s.orchard(["add", "feat-a"]).code).toBe(2);
    writeFileSync(join(s.primary, ".orchard.json"), JSON.stringify({ bootstrap: { run: [{ command: "x", sometimes: true }] } }));
    expect(s.orchard(["add", "feat-a"]).code).toBe(2);
    writeFileSync(join(s.primary, ".orchard.json"), JSON.stringify({ disk: { minFree: "lots" } }));
    expect(s.orchard(["add", "feat-a"]).code).toBe(2);
  });
});

function cloneWorksHere(dir: string): boolean {
  const probe = join(dir, "clone-probe");
  mkdirSync(probe, { recursive: true });
  writeFileSync(join(probe, "a"), "a");
  try {
    copyFileSync(join(probe, "a"), join(probe, "b"), constants.COPYFILE_FICLONE_FORCE);
    return true;
  } catch {
    return false;
  }
}
