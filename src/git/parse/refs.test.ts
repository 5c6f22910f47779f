import { describe, it, expect } from "vitest";
import { ParseError } from "./errors.js";
import { PEELED_REF_FORMAT, REF_FORMAT, parsePeeledRefs, parseRefs, type RefRecord } from "./refs.js";

// Captured from git 2.39.5: `git for-each-ref --format="$REF_FORMAT"` (hermetic env).
// NUL is written "\x00" here because an oid often follows it and "\0" + digit is an octal escape.
const REFS =
  "refs/heads/behind1\x00905f3327be45d24238fe27927f8d689c07c38a35\x00refs/remotes/origin/main\x00[behind 1]\x00\n" +
  "refs/heads/café\x00c55e053f620f56d5be15c4066a3baa67b02a7b88\x00\x00\x00\n" +
  "refs/heads/insync\x00cfb0180f5d2054f3cb76e1efd8064f6fcb703ace\x00refs/remotes/origin/main\x00\x00\n" +
  "refs/heads/main\x00c55e053f620f56d5be15c4066a3baa67b02a7b88\x00refs/remotes/origin/main\x00[ahead 2, behind 1]\x00\n" +
  "refs/heads/side\x003cb0b7511f8e136c5812128738d64b49803f792a\x00refs/remotes/origin/side\x00[gone]\x00\n" +
  "refs/remotes/origin/HEAD\x00cfb0180f5d2054f3cb76e1efd8064f6fcb703ace\x00\x00\x00refs/remotes/origin/main\n" +
  "refs/remotes/origin/main\x00cfb0180f5d2054f3cb76e1efd8064f6fcb703ace\x00\x00\x00\n" +
  "refs/tags/v1\x00c55e053f620f56d5be15c4066a3baa67b02a7b88\x00\x00\x00\n" +
  "refs/tags/v2\x003d15ec643d85fc6ccd0433d5dd32dcd92936ab96\x00\x00\x00\n";

const C55 = "c55e053f620f56d5be15c4066a3baa67b02a7b88";
const CFB = "cfb0180f5d2054f3cb76e1efd8064f6fcb703ace";
const ORIGIN_MAIN = "refs/remotes/origin/main";
const ref = (r: string, oid: string, rest: Partial<RefRecord> = {}): RefRecord => ({
  ref: r,
  oid,
  upstream: null,
  track: null,
  symref: null,
  ...rest,
});

describe("REF_FORMAT", () => {
  it("asks for the five fields separated by %00", () => {
    expect(REF_FORMAT.split("%00")).toEqual(["%(refname)", "%(objectname)", "%(upstream)", "%(upstream:track)", "%(symref)"]);
  });
});

describe("parseRefs on captured output", () => {
  it.each<{ name: string; input: string; expected: RefRecord[] }>([
    {
      name: "branches with every tracking state, symref, tags",
      input: REFS,
      expected: [
        ref("refs/heads/behind1", "905f3327be45d24238fe27927f8d689c07c38a35", {
          upstream: ORIGIN_MAIN,
          track: { ahead: 0, behind: 1, gone: false },
        }),
        ref("refs/heads/café", C55),
        ref("refs/heads/insync", CFB, { upstream: ORIGIN_MAIN, track: { ahead: 0, behind: 0, gone: false } }),
        ref("refs/heads/main", C55, { upstream: ORIGIN_MAIN, track: { ahead: 2, behind: 1, gone: false } }),
        ref("refs/heads/side", "3cb0b7511f8e136c5812128738d64b49803f792a", {
          upstream: "refs/remotes/origin/side",
          track: { ahead: 0, behind: 0, gone: true },
        }),
        ref("refs/remotes/origin/HEAD", CFB, { symref: ORIGIN_MAIN }),
        ref(ORIGIN_MAIN, CFB),
        ref("refs/tags/v1", C55),
        ref("refs/tags/v2", "3d15ec643d85fc6ccd0433d5dd32dcd92936ab96"),
      ],
    },
    {
      name: "ahead only",
      input: `refs/heads/a\x00${C55}\x00${ORIGIN_MAIN}\x00[ahead 3]\x00\n`,
      expected: [ref("refs/heads/a", C55, { upstream: ORIGIN_MAIN, track: { ahead: 3, behind: 0, gone: false } })],
    },
    { name: "no refs", input: "", expected: [] },
  ])("$name", ({ input, expected }) => {
    expect(parseRefs(input)).toEqual(expected);
  });
});

describe("parseRefs rejects malformed input", () => {
  const line = (...fields: string[]) => fields.join("\x00") + "\n";
  it.each([
    { name: "missing trailing line feed", input: REFS.slice(0, -1) },
    { name: "too few fields", input: line("refs/heads/a", C55, "", "") },
    { name: "too many fields", input: line("refs/heads/a", C55, "", "", "", "") },
    { name: "fields separated by spaces (no %00)", input: `refs/heads/a ${C55}   \n` },
    { name: "empty refname", input: line("", C55, "", "", "") },
    { name: "bad object name", input: line("refs/heads/a", "HEAD", "", "", "") },
    { name: "track without upstream", input: line("refs/heads/a", C55, "", "[ahead 1]", "") },
    { name: "trackshort output", input: line("refs/heads/a", C55, ORIGIN_MAIN, ">", "") },
    { name: "track without brackets", input: line("refs/heads/a", C55, ORIGIN_MAIN, "ahead 1", "") },
    { name: "translated track", input: line("refs/heads/a", C55, ORIGIN_MAIN, "[vor 1]", "") },
    { name: "empty record", input: "\n" },
  ])("$name", ({ input }) => {
    expect(() => parseRefs(input)).toThrow(ParseError);
  });
});

// Captured from git 2.39.5: `git for-each-ref --format="$PEELED_REF_FORMAT" refs/heads refs/remotes`.
const F4E = "f4e71d24d28a1add6b6b6f756a0fa7f819ceb863";
const TAG1 = "fc6f308ca10b0c343d8da18905c0f443c7e31225";
const TAG2 = "0370e77be0bd48b1277f246663232329ea42116a";
const TREE = "4b825dc642cb6eb9a060e54bf8d69288fbee4904";
const TREETAG = "17547d8f247806cdc3dad4985f07e0fe69094d10";
const PEELED =
  `refs/heads/main\x00commit\x00${F4E}\x00\x00\x00\n` +
  `refs/remotes/origin/HEAD\x00commit\x00${F4E}\x00\x00\x00refs/remotes/origin/main\n` +
  `refs/remotes/origin/tagged\x00tag\x00${TAG1}\x00commit\x00${F4E}\x00\n` +
  `refs/remotes/origin/tagtag\x00tag\x00${TAG2}\x00tag\x00${TAG1}\x00\n` +
  `refs/remotes/origin/tree\x00tree\x00${TREE}\x00\x00\x00\n` +
  `refs/remotes/origin/treetag\x00tag\x00${TREETAG}\x00tree\x00${TREE}\x00\n`;

describe("parsePeeledRefs", () => {
  it("asks for the six fields separated by %00", () => {
    expect(PEELED_REF_FORMAT.split("%00")).toEqual(["%(refname)", "%(objecttype)", "%(objectname)", "%(*objecttype)", "%(*objectname)", "%(symref)"]);
  });

  it("gives the commit each ref names: a tag peeled once, a tag of a tag left to git, no commit for a tree", () => {
    expect(parsePeeledRefs(PEELED)).toEqual([
      { ref: "refs/heads/main", commit: F4E, symref: null },
      { ref: "refs/remotes/origin/HEAD", commit: F4E, symref: "refs/remotes/origin/main" },
      { ref: "refs/remotes/origin/tagged", commit: F4E, symref: null },
      { ref: "refs/remotes/origin/tagtag", commit: undefined, symref: null },
      { ref: "refs/remotes/origin/tree", commit: null, symref: null },
      { ref: "refs/remotes/origin/treetag", commit: null, symref: null },
    ]);
    expect(parsePeeledRefs("")).toEqual([]);
  });

  it.each([
    { name: "missing trailing line feed", input: PEELED.slice(0, -1) },
    { name: "five fields", input: `refs/heads/a\x00commit\x00${F4E}\x00\x00\n` },
    { name: "unknown object type", input: `refs/heads/a\x00thing\x00${F4E}\x00\x00\x00\n` },
    { name: "a tag without its tagged object", input: `refs/heads/a\x00tag\x00${TAG1}\x00\x00\x00\n` },
    { name: "empty refname", input: `\x00commit\x00${F4E}\x00\x00\x00\n` },
  ])("rejects $name", ({ input }) => {
    expect(() => parsePeeledRefs(input)).toThrow(ParseError);
  });
});
