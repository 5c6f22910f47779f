// Installs the pinned Claude Code once per run (into a cache outside the repository).
import { ensureClaudeCode } from "../helpers/claude-code.js";

export default function setup(): void {
  ensureClaudeCode();
}
