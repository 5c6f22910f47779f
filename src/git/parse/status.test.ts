import { describe, it, expect } from "vitest";
import { ParseError } from "./errors.js";
import { parseStatusV2, type StatusSummary } from "./status.js";

// Captured from git 2.39.5: `git status --porcelain=v2 -z --branch --untracked-files=all` (hermetic env).

// Mid-merge: 2 ahead / 1 behind upstream, staged add/delete, MM, unstaged M, staged rename to a
// name with a newline and non-ASCII, a UU conflict, untracked names with spaces/newline/non-ASCII.
const MERGE =
  "# branch.oid c55e053f620f56d5be15c4066a3baa67b02a7b88\0" +
  "# branch.head main\0" +
  "# branch.upstream origin/main\0" +
  "# branch.ab +2 -1\0" +
  "1 A. N... 000000 100644 100644 0000000000000000000000000000000000000000 3e757656cf36eca53338e520d134963a44f793f8 added file.txt\0" +
  "1 D. N... 100644 000000 000000 abaddc0b9edd523c69166a2c9f3a9e31a4c873e3 0000000000000000000000000000000000000000 del.txt\0" +
  "1 MM N... 100644 100644 100644 5626abf0f72e58d7a153368ba57db4c673c0e171 19d9cc8584ac2c7dcf57d2680375e80f099dc481 file one.txt\0" +
  "1 .M N... 100644 100644 100644 28ce6a8b26aa170e1de65536fe8abe1832bd3242 28ce6a8b26aa170e1de65536fe8abe1832bd3242 mod.txt\0" +
  "2 R. N... 100644 100644 100644 1a4a5fa7f60d9972b6ed1f13891b3119957b9eaa 1a4a5fa7f60d9972b6ed1f13891b3119957b9eaa R100 new\nname ü.txt\0" +
  "old name.txt\0" +
  "u UU N... 100644 100644 100644 100644 587be6b4c3f93f93c489c0111bba5596147a26cb ba2906d0666cf726c7eaadd2cd3db615dedfdf3a 2299c37978265a95cbe835a4b0f0bbf15aad5549 conflict.txt\0" +
  "? dir ü/inner.txt\0" +
  "? untracked\nnewline.txt\0" +
  "? untracked with space.txt\0";

// Same repository with --ignored added.
const MERGE_IGNORED = MERGE + "! ignored.log\0";

// status.renames=copies plus --show-stash: a C100 copy entry and a "# stash" header.
const COPY_STASH =
  "# branch.oid cfb0180f5d2054f3cb76e1efd8064f6fcb703ace\0" +
  "# branch.head main\0" +
  "# branch.upstream origin/main\0" +
  "# branch.ab +0 -0\0" +
  "# stash 1\0" +
  "1 M. N... 100644 100644 100644 df967b96a579e45a18b8251732d16804b2e56a55 c04deea26261d92882caeb9b62cc2246ee1a3ca6 base.txt\0" +
  "2 C. N... 100644 100644 100644 df967b96a579e45a18b8251732d16804b2e56a55 df967b96a579e45a18b8251732d16804b2e56a55 C100 copy of base.txt\0" +
  "base.txt\0";

const CLEAN = "# branch.oid cfb0180f5d2054f3cb76e1efd8064f6fcb703ace\0" + "# branch.head main\0" + "# branch.upstream origin/main\0" + "# branch.ab +0 -0\0";

const DETACHED = "# branch.oid cfb0180f5d2054f3cb76e1efd8064f6fcb703ace\0" + "# branch.head (detached)\0";

const INITIAL =
  "# branch.oid (initial)\0" +
  "# branch.head main\0" +
  "1 A. N... 000000 100644 100644 0000000000000000000000000000000000000000 8ba3a16384aacc37d01564b28401755ce8053f51 new file.txt\0" +
  "? u.txt\0";

// Upstream configured but deleted on the remote: no "# branch.ab" line.
const UPSTREAM_GONE = "# branch.oid cfb0180f5d2054f3cb76e1efd8064f6fcb703ace\0" + "# branch.head topic\0" + "# branch.upstream origin/topic\0";

const CFB = "cfb0180f5d2054f3cb76e1efd8064f6fcb703ace";
const NONE: StatusSummary = {
  branchHead: null,
  oid: null,
  upstream: null,
  ahead: null,
  behind: null,
  tracked: 0,
  untracked: 0,
  ignored: 0,
  conflicted: 0,
  paths: [],
};
const MERGE_PATHS: StatusSummary["paths"] = [
  { kind: "changed", path: "added file.txt", xy: "A." },
  { kind: "changed", path: "del.txt", xy: "D." },
  { kind: "changed", path: "file one.txt", xy: "MM" },
  { kind: "changed", path: "mod.txt", xy: ".M" },
  { kind: "renamed", path: "new\nname ü.txt", xy: "R.", origPath: "old name.txt" },
  { kind: "unmerged", path: "conflict.txt", xy: "UU" },
  { kind: "untracked", path: "dir ü/inner.txt" },
  { kind: "untracked", path: "untracked\nnewline.txt" },
  { kind: "untracked", path: "untracked with space.txt" },
];
const MERGE_SUMMARY: StatusSummary = {
  branchHead: "main",
  oid: "c55e053f620f56d5be15c4066a3baa67b02a7b88",
  upstream: "origin/main",
  ahead: 2,
  behind: 1,
  tracked: 5,
  untracked: 3,
  ignored: 0,
  conflicted: 1,
  paths: MERGE_PATHS,
};

describe("parseStatusV2 on captured output", () => {
  it.each<{ name: string; input: string; expected: StatusSummary }>([
    { name: "merge in progress with every entry kind", input: MERGE, expected: MERGE_SUMMARY },
    {
      name: "with --ignored",
      input: MERGE_IGNORED,
      expected: { ...MERGE_SUMMARY, ignored: 1, paths: [...MERGE_PATHS, { kind: "ignored", path: "ignored.log" }] },
    },
    {
      name: "copy entry and unknown stash header",
      input: COPY_STASH,
      expected: {
        ...NONE,
        branchHead: "main",
        oid: CFB,
        upstream: "origin/main",
        ahead: 0,
        behind: 0,
        tracked: 2,
        paths: [
          { kind: "changed", path: "base.txt", xy: "M." },
          { kind: "renamed", path: "copy of base.txt", xy: "C.", origPath: "base.txt" },
        ],
      },
    },
    {
      name: "clean and in sync",
      input: CLEAN,
      expected: { ...NONE, branchHead: "main", oid: CFB, upstream: "origin/main", ahead: 0, behind: 0 },
    },
    { name: "detached HEAD", input: DETACHED, expected: { ...NONE, oid: CFB } },
    {
      name: "initial commit, no upstream",
      input: INITIAL,
      expected: {
        ...NONE,
        branchHead: "main",
        tracked: 1,
        untracked: 1,
        paths: [
          { kind: "changed", path: "new file.txt", xy: "A." },
          { kind: "untracked", path: "u.txt" },
        ],
      },
    },
    {
      name: "upstream gone",
      input: UPSTREAM_GONE,
      expected: { ...NONE, branchHead: "topic", oid: CFB, upstream: "origin/topic" },
    },
    { name: "empty output", input: "", expected: NONE },
  ])("$name", ({ input, expected }) => {
    expect(parseStatusV2(input)).toEqual(expected);
  });
});

describe("parseStatusV2 rejects malformed input", () => {
  const ENTRY1 = "1 .M N... 100644 100644 100644 28ce6a8b26aa170e1de65536fe8abe1832bd3242 28ce6a8b26aa170e1de65536fe8abe1832bd3242 mod.txt";
  it.each([
    { name: "output without -z", input: CLEAN.replaceAll("\0", "\n") },
    { name: "truncated final entry", input: CLEAN.slice(0, -1) },
    { name: "unknown entry type", input: "3 something\0" },
    { name: "empty entry", input: CLEAN + "\0" },
    { name: "porcelain v1 line", input: " M mod.txt\0" },
    { name: "type 1 with bad XY", input: ENTRY1.replace(".M", "ZZ") + "\0" },
    { name: "type 1 missing path", input: ENTRY1.replace(" mod.txt", "") + "\0" },
    { name: "type 2 without original path", input: COPY_STASH.slice(0, -"base.txt\0".length) },
    { name: "type 2 without score", input: "2 R. N... 100644 100644 100644 " + "a".repeat(40) + " " + "a".repeat(40) + " new\0old\0" },
    { name: "unmerged with too few oids", input: "u UU N... 100644 100644 100644 100644 " + "a".repeat(40) + " c.txt\0" },
    { name: "untracked without path", input: "? \0" },
    { name: "bad branch.ab", input: "# branch.ab 2 1\0" },
    { name: "bad branch.oid", input: "# branch.oid nope\0" },
  ])("$name", ({ input }) => {
    expect(() => parseStatusV2(input)).toThrow(ParseError);
  });
});
