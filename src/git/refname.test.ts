// git is the oracle: the in-process ref-name rules must answer exactly as `git check-ref-format`
// does, over thousands of names generated from the characters and sequences the rules are about.
import { describe, expect, it } from "vitest";
import { spawn, spawnSync } from "node:child_process";
import fc from "fast-check";
import { isValidRefName } from "./refname.js";

const PIECES = [
  "a",
  "b",
  "Z",
  "0",
  "-",
  "_",
  ".",
  "..",
  "/",
  "//",
  "@",
  "@{",
  "{",
  "}",
  ".lock",
  "lock",
  "~",
  "^",
  ":",
  "?",
  "*",
  "[",
  "]",
  "\\",
  " ",
  "\t",
  "\n",
  "\x01",
  "\x7f",
  "é",
  "→",
  "😀",
  "\u0085",
  "\ufeff",
  "!",
  "#",
  "%",
  "+",
  ",",
];
const name = fc.array(fc.constantFrom(...PIECES), { minLength: 0, maxLength: 8 }).map((parts) => parts.join(""));
const refname = fc.oneof(
  name.map((n) => `refs/heads/${n}`),
  name.filter((n) => !n.startsWith("-")), // git would read it as an option
  name.map((n) => `refs/${n}`),
);
const SEED = 20261130;
const RUNS = 3000;

function gitAccepts(ref: string): Promise<boolean> {
  return new Promise((done, fail) => {
    const child = spawn("git", ["check-ref-format", ref], { stdio: "ignore", env: { ...process.env, GIT_CONFIG_NOSYSTEM: "1", LC_ALL: "C" } });
    child.on("error", fail);
    child.on("exit", (code) => (code === 0 || code === 1 ? done(code === 0) : fail(new Error(`git exited ${code} for ${JSON.stringify(ref)}`))));
  });
}

describe("isValidRefName", () => {
  it(`answers as git check-ref-format does, over ${RUNS} generated names`, async () => {
    const names = [...new Set(fc.sample(refname, { seed: SEED, numRuns: RUNS }))];
    const oracle = new Map<string, boolean>();
    let next = 0;
    await Promise.all(
      Array.from({ length: 8 }, async () => {
        while (next < names.length) {
          const ref = names[next++] as string;
          oracle.set(ref, await gitAccepts(ref));
        }
      }),
    );
    // the same names again through fast-check, so a difference shrinks to a small example (git asked anew)
    const ask = (ref: string) => oracle.get(ref) ?? spawnSync("git", ["check-ref-format", ref], { stdio: "ignore" }).status === 0;
    fc.assert(
      fc.property(refname, (ref) => isValidRefName(ref) === ask(ref)),
      { seed: SEED, numRuns: RUNS },
    );
    const accepted = [...oracle.values()].filter(Boolean).length;
    expect(accepted).toBeGreaterThan(100); // the generator reaches both answers
    expect(oracle.size - accepted).toBeGreaterThan(100);
  }, 300_000);

  it.each([
    ["refs/heads/feat/x", true],
    ["refs/heads/a.b", true],
    ["refs/heads/-x", true],
    ["refs/heads/é", true],
    ["refs/heads/.x", false],
    ["refs/heads/x.lock", false],
    ["refs/heads/x.lock/y", false],
    ["refs/heads/a..b", false],
    ["refs/heads/a@{b", false],
    ["refs/heads/a/", false],
    ["refs/heads//a", false],
    ["refs/heads/a.", false],
    ["refs/heads/a b", false],
    ["@", false],
    ["main", false],
  ])("%j → %s", (ref, valid) => expect(isValidRefName(ref)).toBe(valid));
});
