// Crash tests: run the CLI with a fault point (ORCHARD_FAULT_AT, src/core/shared/fault.ts) that
// SIGKILLs it at one step, then check with plain git that nothing was lost — every commit any ref
// reached before is still reachable from some ref, every file of work is where it was or in a
// salvage ref.
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { expect } from "vitest";
import { git, type CliResult, type Scenario } from "./scenario.js";

/** Runs `args` killed at `point`; asserts the kill really happened (no exit, no JSON). */
export function killedAt(s: Scenario, point: string, args: string[], env: Record<string, string> = {}): void {
  const r: CliResult = s.orchard(args, { env: { ...env, ORCHARD_FAULT_AT: point, TMPDIR: s.root } }); // the fault's files die with the scenario
  expect(r.code, `${point}: ${r.stdout} ${r.stderr}`).toBe(-1); // killed by a signal: no exit status
  expect(r.stdout).toBe("");
}

/** Every commit reachable from any ref of the repo (salvage refs included). */
export function reachableCommits(s: Scenario): Set<string> {
  return new Set(git(s.primary, "rev-list", "--all").split("\n").filter(Boolean));
}

export function expectStillReachable(s: Scenario, before: Set<string>): void {
  const now = reachableCommits(s);
  expect([...before].filter((c) => !now.has(c))).toEqual([]);
}

/** A file of work (`rel` in a worktree at `dir`) is there with its content, or in some salvage ref's tree. */
export function expectPresentOrSalvaged(s: Scenario, dir: string, rel: string, content: string): void {
  if (existsSync(join(dir, rel)) && readFileSync(join(dir, rel), "utf8") === content) return;
  const refs = git(s.primary, "for-each-ref", "--format=%(refname)", "refs/orchard/salvage/").split("\n").filter(Boolean);
  const salvaged = refs.some((ref) => {
    const r = git(s.primary, "ls-tree", "-r", "--name-only", ref).split("\n");
    return r.includes(rel) && git(s.primary, "show", `${ref}:${rel}`) + "\n" === content;
  });
  expect(salvaged, `${rel} is neither in ${dir} nor in a salvage ref`).toBe(true);
}

/** The worktree is a complete, clean checkout of its HEAD: no index lock, nothing staged or missing. */
export function expectCleanCheckout(path: string, admin: string): void {
  expect(existsSync(join(admin, "index"))).toBe(true);
  expect(existsSync(join(admin, "index.lock"))).toBe(false);
  expect(git(path, "status", "--porcelain", "--untracked-files=all")).toBe("");
}
