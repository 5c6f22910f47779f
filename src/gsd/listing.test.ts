// The linked paths read from the `gitdir` records (listing.ts) are git's own listing wherever they
// are answered (a real git run on the same repository says the same, in the same order), and null
// — ask git — wherever reading them is not provably git's answer.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { appendFileSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { git as gitIn, makeFifo } from "../../test/helpers/scenario.js";
import { linkedPathsByHand } from "./listing.js";

let root: string;
let repo: string;
const git = (...args: string[]): string => gitIn(repo, ...args);
/** git's own listing: the linked worktrees' paths, in its order. */
const gitsPaths = (): string[] =>
  git("worktree", "list", "--porcelain", "-z")
    .split("\0")
    .filter((a) => a.startsWith("worktree "))
    .map((a) => a.slice("worktree ".length))
    .slice(1);
const record = (id: string): string => join(repo, ".git", "worktrees", id, "gitdir");
const config = (): string => join(repo, ".git", "config");

/** Runs `change`, checks the records are no longer answered (null), then puts the file back. */
function refused(file: string, change: () => void): void {
  const before = readFileSync(file);
  try {
    change();
    expect(linkedPathsByHand(repo)).toBeNull();
  } finally {
    rmSync(file, { force: true });
    writeFileSync(file, before);
  }
  expect(linkedPathsByHand(repo)).toEqual(gitsPaths());
}

beforeAll(() => {
  root = realpathSync(mkdtempSync(join(tmpdir(), "orchard-gsd-listing-")));
  repo = join(root, "repo");
  mkdirSync(repo);
  git("init", "-q", "-b", "main");
  git("commit", "-q", "--allow-empty", "-m", "first");
  // admin ids in another order than the paths, a nested path, a lock, a detached head, a directory gone
  for (const [name, branch] of [
    ["zz", "b1"],
    ["aa", "b2"],
    ["bb/zz", "b3"],
    ["b-b", "b4"],
    ["gone", "b5"],
  ] as const)
    git("worktree", "add", "-q", "-b", branch, join(root, "w", name));
  git("worktree", "add", "-q", "--detach", join(root, "w", "detached"));
  git("worktree", "lock", "--reason", "held", join(root, "w", "aa"));
  rmSync(join(root, "w", "gone"), { recursive: true, force: true });
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe("linkedPathsByHand", () => {
  it("is git's listing, in git's order (by path, not by admin dir), a worktree whose directory is gone included", () => {
    const paths = linkedPathsByHand(repo);
    expect(paths).toEqual(gitsPaths());
    expect(paths).toHaveLength(6);
  });

  it("leaves out an admin dir whose record is absent or empty, as git does", () => {
    const id = "gone";
    const saved = readFileSync(record(id));
    try {
      writeFileSync(record(id), "");
      expect(linkedPathsByHand(repo)).toEqual(gitsPaths());
      rmSync(record(id));
      expect(linkedPathsByHand(repo)).toEqual(gitsPaths());
      mkdirSync(join(repo, ".git", "worktrees", "stray"));
      expect(linkedPathsByHand(repo)).toEqual(gitsPaths());
      expect(gitsPaths()).toHaveLength(5);
    } finally {
      writeFileSync(record(id), saved);
      rmSync(join(repo, ".git", "worktrees", "stray"), { recursive: true, force: true });
    }
  });

  it("a record that is a link, a FIFO, relative, without /.git, or not printable ASCII: null (git is asked)", () => {
    const file = record("zz");
    const text = readFileSync(file, "utf8");
    refused(file, () => {
      rmSync(file);
      symlinkSync(join(root, "elsewhere"), file);
      writeFileSync(join(root, "elsewhere"), text);
    });
    refused(file, () => {
      rmSync(file);
      makeFifo(file);
    });
    refused(file, () => writeFileSync(file, "../../../w/zz/.git\n"));
    refused(file, () => writeFileSync(file, `${text.trim().slice(0, -"/.git".length)}\n`));
    refused(file, () => writeFileSync(file, `${join(root, "w", "zé")}/.git\n`));
    refused(file, () => writeFileSync(file, `${join(root, "w", "z\tz")}/.git\n`));
    refused(file, () => writeFileSync(file, `${join(root, "w", "zz ")}/.git\n`));
  });

  it("two paths whose order core.ignorecase would change, or that tie: null", () => {
    const file = record("zz");
    refused(file, () => writeFileSync(file, `${join(root, "w", "AB")}/.git\n`)); // before "aa" by bytes, after it ignoring case
    refused(file, () => writeFileSync(file, `${join(root, "w", "aa")}/.git\n`)); // the same path twice
  });

  it("a config that includes a file, sets a format or an extension git could refuse, or continues a line: null", () => {
    refused(config(), () => appendFileSync(config(), `[include]\n\tpath = ${join(root, "x.cfg")}\n`));
    refused(config(), () => appendFileSync(config(), `[includeIf "gitdir:${root}/"]\n\tpath = x.cfg\n`));
    refused(config(), () => appendFileSync(config(), "[extensions]\n\tnoSuchThing = true\n"));
    refused(config(), () => appendFileSync(config(), "[core]\n\trepositoryformatversion = 2\n"));
    refused(config(), () => appendFileSync(config(), '[alias]\n\tx = "!echo \\\n[extensions]"\n'));
    appendFileSync(config(), "[extensions]\n\tworktreeConfig = true\n"); // one git reads paths the same with
    git("config", "core.repositoryformatversion", "1");
    expect(linkedPathsByHand(repo)).toEqual(gitsPaths());
  });

  it("no worktrees dir: no linked worktree; a path that is not a worktree's top level: null", () => {
    expect(linkedPathsByHand(join(repo, ".git"))).toBeNull();
    const lone = join(root, "lone");
    mkdirSync(lone);
    gitIn(root, "init", "-q", lone);
    expect(linkedPathsByHand(lone)).toEqual([]);
    mkdirSync(join(lone, "sub"));
    expect(linkedPathsByHand(join(lone, "sub"))).toBeNull();
  });
});
