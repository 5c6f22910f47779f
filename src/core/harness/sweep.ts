// Roots a harness sweeps by count, whoever made what is in them (SPEC v5 §3.15, issue 47 item 5):
// Cursor deletes the oldest worktrees under `~/.cursor/worktrees` past `cursor.worktreeMaxCount`
// (default 25), its own or not. Orchard never places a worktree there (`add` refuses a workspace
// whose worktree root is inside one), and hygiene notes a managed worktree that is.
import { reason, type Reason } from "../shared/reasons/reasons.js";
import { harnessRoots } from "./roots.js";
import type { HarnessName, HarnessRoots } from "./types.js";

export interface SweptRoot {
  harness: HarnessName;
  root: string;
  /** What the harness deletes there, in a sentence. */
  rule: string;
}

export function sweptRoots(roots: HarnessRoots): SweptRoot[] {
  return [
    { harness: "cursor", root: roots.cursor, rule: "Cursor deletes the oldest worktrees there past cursor.worktreeMaxCount (default 25), whoever made them" },
  ];
}

/** The swept root `path` lies in (or is), or null. */
export function sweptRootOf(path: string, roots: HarnessRoots): SweptRoot | null {
  return sweptRoots(roots).find((s) => path === s.root || path.startsWith(`${s.root}/`)) ?? null;
}

/** `swept_root` for a worktree path inside a swept root (add's refusal, hygiene's note), or null. */
export function sweptRootReason(path: string, roots: HarnessRoots = harnessRoots()): Extract<Reason, { code: "swept_root" }> | null {
  const swept = sweptRootOf(path, roots);
  return swept ? (reason("swept_root", { path, harness: swept.harness, root: swept.root, rule: swept.rule }) as Extract<Reason, { code: "swept_root" }>) : null;
}
