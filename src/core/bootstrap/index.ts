// Bootstrap of a new worktree (copy, context injection, trusted commands) and the three
// fingerprints that decide whether two worktrees are compatible; `orchard trust`.
export { runBootstrap, DEFAULT_BOOTSTRAP_TIMEOUT_MS } from "./bootstrap.js";
export type { BootstrapOutcome } from "./bootstrap.js";
export { readBootstrapFingerprintAt, readFingerprintBasis, readFingerprintFacts } from "./fingerprint-read.js";
export type { FingerprintBasis } from "./fingerprint-read.js";
export { FAILED_FINGERPRINT, allEstablished } from "./fingerprints.js";
export { isTrusted, trust } from "./trust.js";
export type { TrustResult } from "./trust.js";
export { beginBootstrapJournal, endBootstrapJournal, markBootstrapInterrupted, readBootstrapJournal } from "./journal.js";
export type { BootstrapJournalState } from "./journal.js";
export { withoutBootstrapOutput } from "./output.js";
