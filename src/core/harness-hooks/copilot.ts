// Copilot CLI (SPEC v5 §3.15): its worktrees are `<repo>.worktrees/<branchSlug>`, or where its
// `worktreePathTemplate` setting puts them.
import { basename, dirname } from "node:path";

export function isCopilotWorktree(path: string): boolean {
  return basename(dirname(path)).endsWith(".worktrees");
}
