// Comparing paths with what git lists: git prints realpaths, so both sides are resolved the same way.
import { realpathSync } from "node:fs";
import { resolve } from "node:path";

// Linux's realpath(3) answers as node's own walk does, in one call instead of an lstat per component
// (6× faster: hygiene resolves every worktree). Elsewhere node's walk, as git resolves: macOS's
// realpath(3) may answer a case-insensitive volume's stored case instead of the case as written.
const resolveReal = process.platform === "linux" ? realpathSync.native : realpathSync;

/** The realpath of `path`, or its absolute form when it does not exist (a missing worktree is compared as written). */
export function realOrAbsolute(path: string): string {
  try {
    return resolveReal(path);
  } catch {
    return resolve(path); // missing or unreadable: nothing to resolve, compare the absolute path
  }
}

/** The realpath of `path`, or null when it cannot be resolved (missing, or unreadable on the way). */
export function realOrNull(path: string): string | null {
  try {
    return resolveReal(path);
  } catch {
    return null;
  }
}
