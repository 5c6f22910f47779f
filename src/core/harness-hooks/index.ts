// Other harnesses' hooks (SPEC v5 §3.15): `orchard codex|gemini|copilot install|uninstall` and their
// session-start/session-end hooks (adopt in place, release at the end), and `orchard opencode
// install|uninstall` (a plugin that makes OpenCode's worktrees through `orchard add`).
export { parseHarnessSession, harnessSessionStart, harnessSessionEnd } from "./sessions.js";
export type { SessionHookResult, SessionAction, HarnessHookName } from "./session.js";
export { SESSION_ACTIONS } from "./session.js";
export type { SessionPayload } from "./payload.js";
export { installHookFile, uninstallHookFile } from "./install.js";
export type { HookFileResult } from "./install.js";
export { CODEX_HOOKS, CODEX_TRUST_NOTE, codexHooksFile, readCodexThread } from "./codex.js";
export { GEMINI_HOOKS, geminiSettingsFile } from "./gemini.js";
export { installHarnessHooks, uninstallHarnessHooks, installOpencode, uninstallOpencode } from "./setup.js";
export { opencodePluginFile, runnerArgv } from "./opencode.js";
export { OPENCODE_PLUGIN_MARKER, opencodePluginText } from "./opencode-plugin.js";
export type { HarnessInstallOptions } from "./setup.js";
export { COPILOT_HOOKS, copilotSettingsFile, copilotTemplate } from "./copilot.js";
