// Other harnesses' worktrees (SPEC v5 §1 harness, §3.15): which harness made a worktree, from its
// disk shape (one file per harness), whether it still tracks it, the verdict that keeps it, and the
// roots a harness sweeps by count. Claude Code's own backend stays in core/claude-code.
export { HARNESS_NAMES, type HarnessFact, type HarnessName, type Tracked, type WorktreeShape, type HarnessRoots } from "./types.js";
export { harnessReader, readCodexThread, readHarness, readMarker, type HarnessReader } from "./read.js";
export { harnessRoots } from "./roots.js";
export { HARNESS_DROP, harnessHold, type HarnessHold } from "./verdict.js";
export { harnessHoldAt } from "./at.js";
export { sweptRootOf, sweptRootReason, sweptRoots, type SweptRoot } from "./sweep.js";
export { CODEX_MARKER, parseCodexThread } from "./codex.js";
export { OPENCODE_MARKER } from "./opencode.js";
