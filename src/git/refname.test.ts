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

/**
 * `git check-ref-format <name>` for each name, one git process per name as before, started by one
 * bash loop rather than by this (large) test process: the names go to bash NUL-separated (no name
 * holds a NUL), read byte for byte, and each exit code comes back on its own line.
 */
function gitAcceptsAll(refs: string[]): Promise<Map<string, boolean>> {
  return new Promise((done, fail) => {
    const child = spawn("bash", ["-c", `while IFS= read -r -d '' ref; do git check-ref-format "$ref"; echo $?; done`], {
      stdio: ["pipe", "pipe", "ignore"],
      env: { ...process.env, GIT_CONFIG_NOSYSTEM: "1", LC_ALL: "C" },
    });
    let out = "";
    child.stdout.on("data", (d: Buffer) => (out += d.toString()));
    child.on("error", fail);
    child.on("close", (code) => {
      const codes = out.split("\n").filter(Boolean);
      if (code !== 0 || codes.length !== refs.length) return fail(new Error(`bash exited ${code} after ${codes.length} of ${refs.length} names`));
      const answers = new Map<string, boolean>();
      for (const [i, ref] of refs.entries()) {
        if (codes[i] !== "0" && codes[i] !== "1") return fail(new Error(`git exited ${codes[i]} for ${JSON.stringify(ref)}`));
        answers.set(ref, codes[i] === "0");
      }
      done(answers);
    });
    child.stdin.end(refs.map((ref) => `${ref}\0`).join(""));
  });
}

describe("isValidRefName", () => {
  it(`answers as git check-ref-format does, over ${RUNS} generated names`, async () => {
    const names = [...new Set(fc.sample(refname, { seed: SEED, numRuns: RUNS }))];
    const oracle = await gitAcceptsAll(names);
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
