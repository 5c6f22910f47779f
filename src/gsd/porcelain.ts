// GSD's parser of `git worktree list --porcelain` (the text form, records split by a blank line):
// pure, the same answer as GSD's for the same text — the worktrees that have a branch, with it.
// Orchard itself reads the NUL-terminated form (a path holding a newline survives only there).
import type { PorcelainEntry } from "./types.js";

export function parseWorktreePorcelain(porcelain: unknown): PorcelainEntry[] {
  const entries: PorcelainEntry[] = [];
  for (const block of String(porcelain ?? "")
    .split("\n\n")
    .filter(Boolean)) {
    const lines = block.split("\n");
    const path = lines
      .find((l) => l.startsWith("worktree "))
      ?.slice("worktree ".length)
      .trim();
    if (!path) continue;
    const branch = lines
      .find((l) => l.startsWith("branch refs/heads/"))
      ?.slice("branch refs/heads/".length)
      .trim();
    if (branch) entries.push({ path, branch });
  }
  return entries;
}
