// `orchard reap-orphans`: the startup sweep that removes worktrees of crashed sessions.
export { readCheckoutDirty } from "./facts.js";
export { proveReapable, requireReapCommandLine } from "./reap.js";
export { reapOrphans } from "./floor.js";
export type { ReapEntry, ReapFields, ReapOptions, ReapOwner, ReapResult } from "./types.js";
export { describeIgnored } from "./verdict.js";
export type { ReapReason, ReapSkipReason } from "./verdict.js";
