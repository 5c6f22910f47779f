// Counting what a command starts (ORCHARD_TRACE=1), and the fleet sizes a "costs one worktree"
// test compares (SPEC v5 §3): counts, never times.
import { expect } from "vitest";
import { join } from "node:path";
import Database from "better-sqlite3";
import { git, type Scenario } from "./scenario.js";

/** The gits a command started, as `[orchard trace]` names them: argv and where it ran (a git per worktree differs by its cwd). */
export function tracedGits(stderr: string): string[] {
  return stderr
    .split("\n")
    .filter((l) => l.startsWith("[orchard trace] git "))
    .map((l) => l.slice("[orchard trace] git ".length).replace(/ -> .*$/, ""));
}

/**
 * `round` in a fleet of 3 worktrees (`fleet-0`…, owners `a0`…, made by `add`), then of 12; git's
 * listing then holds the primary, the 12 and the `extra` worktrees the rounds left behind.
 */
export function atThreeAndTwelve<T>(
  s: Scenario,
  add: (branch: string, owner: string) => unknown,
  round: (tag: string) => T,
  extra: number,
): { small: T; large: T } {
  for (let i = 0; i < 3; i++) add(`fleet-${i}`, `a${i}`);
  const small = round("small");
  for (let i = 3; i < 12; i++) add(`fleet-${i}`, `a${i}`);
  const large = round("large");
  const listed = git(s.primary, "worktree", "list", "--porcelain")
    .split("\n")
    .filter((l) => l.startsWith("worktree ")).length;
  expect(listed).toBe(13 + extra);
  return { small, large };
}

/** How many cleanup plans the workspace at `home` has stored (a one-worktree removal stores none). */
export function storedPlans(home: string): number {
  const db = new Database(join(home, "orchard.db"), { readonly: true });
  try {
    return (db.prepare("SELECT count(*) AS n FROM plans").get() as { n: number }).n;
  } finally {
    db.close();
  }
}
