// Claude Code (`claude --worktree`, EnterWorktree, subagents with isolation): `<primary>/.claude/worktrees/<name>`,
// on `worktree-<name>` (src/core/claude-code). Orchard is its steward: Claude keeps no record of
// the worktree but its lock line (`claude agent|session <id> (pid N)`), which Orchard judges as a
// lease (liveness, reap-orphans). So a Claude Code worktree is never `harness_tracked`: its lock decides.
import { below } from "./roots.js";
import type { HarnessProbe } from "./types.js";

export const claudeCode: HarnessProbe = {
  name: "claude-code",
  match(w) {
    const [name, ...rest] = below(w.path, `${w.primary}/.claude/worktrees`);
    const session = name !== undefined && rest.length === 0 ? name : w.branch?.startsWith("worktree-") ? w.branch.slice("worktree-".length) : undefined;
    if (session === undefined || session === "") return null;
    return { name: "claude-code", session, reads: [], judge: () => ({ tracked: false }) };
  },
};
