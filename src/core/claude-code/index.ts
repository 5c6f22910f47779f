// Claude Code's worktree backend (`orchard claude-code install|worktree-create|worktree-remove`):
// every `claude --worktree` session and Agent-tool subagent admitted, leased and cleaned by Orchard.
export { parseCreatePayload, parseRemovePayload, parseSubagentStopPayload, branchForName } from "./payload.js";
export type { CreatePayload, RemovePayload, SubagentStopPayload } from "./payload.js";
export { findHostProcess, identifyHost } from "./ancestry.js";
export type { HostIdentity } from "./ancestry.js";
export { worktreeCreate } from "./create.js";
export type { WorktreeCreateOptions, WorktreeCreateResult } from "./create.js";
export { worktreeRemove } from "./remove.js";
export type { WorktreeRemoveResult } from "./remove.js";
export { subagentStop } from "./subagent.js";
export { installHooks, uninstallHooks, settingsFile, PACKAGE_NAME, readSettingsText, writeAtomically, runnerCommand, onPath } from "./install.js";
// the in-place JSON edits, for the other harnesses' hook files (core/harness-hooks)
export { addMember, appendItem, detectStyle, parseJsonTree, removeEmptiedEvent, removeItem, removeMember, replaceValue } from "./json-text.js";
export type { JsonNode } from "./json-text.js";
export { isOrchards, lineDiff } from "./settings.js";
export type { HookRunner, InstallOptions, InstallResult, UninstallOptions, UninstallResult } from "./install.js";
export { parseSessionStartPayload, readSessionNotes, sessionStartContext, sessionStartOutput } from "./session-start.js";
export type { SessionNote, SessionStartPayload } from "./session-start.js";
