// Comparing paths with what git lists: git prints realpaths, so both sides are resolved the same way.
import { realpathSync } from "node:fs";
import { resolve } from "node:path";

/** The realpath of `path`, or its absolute form when it does not exist (a missing worktree is compared as written). */
export function realOrAbsolute(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return resolve(path); // missing or unreadable: nothing to resolve, compare the absolute path
  }
}
