import { describe, it, expect } from "vitest";
import fc from "fast-check";
import { ParseError } from "./errors.js";
import { parseWorktreeList, type WorktreeEntry } from "./worktrees.js";

// Captured from git 2.39.5: `git worktree list --porcelain -z` (hermetic env, fixed dates).
const SHA = "92287ce260b232f29c49e5280403f3b96acaf25a";

const LINKED =
  "worktree /tmp/orchard-fx/repo\0" +
  "HEAD 92287ce260b232f29c49e5280403f3b96acaf25a\0" +
  "branch refs/heads/main\0" +
  "\0" +
  "worktree /tmp/orchard-fx/detached\0" +
  "HEAD 92287ce260b232f29c49e5280403f3b96acaf25a\0" +
  "detached\0" +
  "\0" +
  "worktree /tmp/orchard-fx/gone\0" +
  "HEAD 92287ce260b232f29c49e5280403f3b96acaf25a\0" +
  "branch refs/heads/gonebr\0" +
  "prunable gitdir file points to non-existent location\0" +
  "\0" +
  "worktree /tmp/orchard-fx/gone-locked\0" +
  "HEAD 92287ce260b232f29c49e5280403f3b96acaf25a\0" +
  "branch refs/heads/gonelocked\0" +
  "locked offline disk\0" +
  "\0" +
  "worktree /tmp/orchard-fx/locked-noreason\0" +
  "HEAD 92287ce260b232f29c49e5280403f3b96acaf25a\0" +
  "branch refs/heads/locked2\0" +
  "locked\0" +
  "\0" +
  "worktree /tmp/orchard-fx/locked-reason\0" +
  "HEAD 92287ce260b232f29c49e5280403f3b96acaf25a\0" +
  "branch refs/heads/locked1\0" +
  "locked on USB drive ü\nsecond line\0" +
  "\0" +
  "worktree /tmp/orchard-fx/wt space\0" +
  "HEAD 92287ce260b232f29c49e5280403f3b96acaf25a\0" +
  "branch refs/heads/feat/space\0" +
  "\0" +
  "worktree /tmp/orchard-fx/wt ü\nx\0" +
  "HEAD 92287ce260b232f29c49e5280403f3b96acaf25a\0" +
  "branch refs/heads/feat/uml\0" +
  "\0";

const BARE =
  "worktree /tmp/orchard-fx/bare.git\0" +
  "bare\0" +
  "\0" +
  "worktree /tmp/orchard-fx/bare wt2\0" +
  "HEAD 92287ce260b232f29c49e5280403f3b96acaf25a\0" +
  "detached\0" +
  "\0" +
  "worktree /tmp/orchard-fx/bare-wt1\0" +
  "HEAD 92287ce260b232f29c49e5280403f3b96acaf25a\0" +
  "branch refs/heads/other\0" +
  "\0";

// Repository with no commits yet: HEAD is the null oid, branch is unborn.
const UNBORN = "worktree /tmp/orchard-fx/empty\0" + "HEAD 0000000000000000000000000000000000000000\0" + "branch refs/heads/main\0" + "\0";

// The same linked-worktree repo listed without -z: C-quoted, newline-terminated.
const WITHOUT_Z = "worktree /tmp/orchard-fx/repo\nHEAD 92287ce260b232f29c49e5280403f3b96acaf25a\nbranch refs/heads/main\n\n";

function wt(path: string, fields: Partial<WorktreeEntry> = {}): WorktreeEntry {
  return {
    path,
    head: SHA,
    branch: null,
    detached: false,
    bare: false,
    locked: false,
    lockReason: null,
    prunable: null,
    ...fields,
  };
}

describe("parseWorktreeList on captured output", () => {
  it.each<{ name: string; input: string; expected: WorktreeEntry[] }>([
    {
      name: "linked worktrees: detached, prunable, locked, odd paths",
      input: LINKED,
      expected: [
        wt("/tmp/orchard-fx/repo", { branch: "refs/heads/main" }),
        wt("/tmp/orchard-fx/detached", { detached: true }),
        wt("/tmp/orchard-fx/gone", {
          branch: "refs/heads/gonebr",
          prunable: "gitdir file points to non-existent location",
        }),
        wt("/tmp/orchard-fx/gone-locked", {
          branch: "refs/heads/gonelocked",
          locked: true,
          lockReason: "offline disk",
        }),
        wt("/tmp/orchard-fx/locked-noreason", { branch: "refs/heads/locked2", locked: true, lockReason: "" }),
        wt("/tmp/orchard-fx/locked-reason", {
          branch: "refs/heads/locked1",
          locked: true,
          lockReason: "on USB drive ü\nsecond line",
        }),
        wt("/tmp/orchard-fx/wt space", { branch: "refs/heads/feat/space" }),
        wt("/tmp/orchard-fx/wt ü\nx", { branch: "refs/heads/feat/uml" }),
      ],
    },
    {
      name: "bare repository with linked worktrees",
      input: BARE,
      expected: [
        wt("/tmp/orchard-fx/bare.git", { head: null, bare: true }),
        wt("/tmp/orchard-fx/bare wt2", { detached: true }),
        wt("/tmp/orchard-fx/bare-wt1", { branch: "refs/heads/other" }),
      ],
    },
    {
      name: "unborn branch",
      input: UNBORN,
      expected: [wt("/tmp/orchard-fx/empty", { head: "0".repeat(40), branch: "refs/heads/main" })],
    },
    { name: "empty output", input: "", expected: [] },
  ])("$name", ({ input, expected }) => {
    expect(parseWorktreeList(input)).toEqual(expected);
  });
});

describe("parseWorktreeList rejects malformed input", () => {
  const rec = (...attrs: string[]) => attrs.map((a) => `${a}\0`).join("") + "\0";
  it.each([
    { name: "output without -z", input: WITHOUT_Z },
    { name: "missing final record terminator", input: LINKED.slice(0, -1) },
    { name: "unknown attribute", input: rec("worktree /a", `HEAD ${SHA}`, "branch refs/heads/x", "sparse") },
    { name: "record not starting with worktree", input: rec(`HEAD ${SHA}`, "worktree /a") },
    { name: "worktree without path", input: rec("worktree", `HEAD ${SHA}`) },
    { name: "bad HEAD sha", input: rec("worktree /a", "HEAD xyz") },
    { name: "neither bare nor HEAD", input: rec("worktree /a", "branch refs/heads/x") },
    { name: "both bare and HEAD", input: rec("worktree /a", "bare", `HEAD ${SHA}`) },
    { name: "detached and branch", input: rec("worktree /a", `HEAD ${SHA}`, "detached", "branch refs/heads/x") },
    { name: "duplicate attribute", input: rec("worktree /a", `HEAD ${SHA}`, `HEAD ${SHA}`) },
    { name: "value on a boolean attribute", input: rec("worktree /a", `HEAD ${SHA}`, "detached yes") },
    { name: "extra empty attribute between records", input: rec("worktree /a", "bare") + "\0" + rec("worktree /b", "bare") },
  ])("$name", ({ input }) => {
    expect(() => parseWorktreeList(input)).toThrow(ParseError);
  });

  it("names the format on the error", () => {
    const err = (() => {
      try {
        parseWorktreeList(WITHOUT_Z);
      } catch (e) {
        return e;
      }
    })();
    expect(err).toBeInstanceOf(ParseError);
    expect((err as ParseError).format).toBe("worktree list --porcelain -z");
  });
});

describe("parseWorktreeList property", () => {
  it("round-trips any NUL-free path and reason", () => {
    const text = fc.string({ unit: "grapheme", minLength: 1 }).filter((s) => !s.includes("\0"));
    fc.assert(
      fc.property(text, text, (path, reason) => {
        const input = `worktree ${path}\0HEAD ${SHA}\0detached\0locked ${reason}\0\0`;
        expect(parseWorktreeList(input)).toEqual([wt(path, { detached: true, locked: true, lockReason: reason })]);
      }),
    );
  });
});
