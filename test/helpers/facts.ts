// A complete Facts value for pure tests: a clean, managed, merged worktree nobody holds.
// Tests spread it and name only what their case changes.
import type { Facts } from "../../src/core/shared/types.js";
import type { HuskFacts } from "../../src/core/hygiene/types.js";

export const SAMPLE_FACTS: Facts = {
  path: "/w/app@x",
  handle: "app@x",
  managed: true,
  branch: "x",
  head: "a".repeat(40),
  detached: false,
  lifecycle: "active",
  task: null,
  owner: null,
  base: null,
  lock: { locked: false, reason: null, owner: null },
  liveness: { state: "none", signals: [] },
  dirty: { tracked: 0, untracked: 0, conflicted: 0, operation: null, ignored: { count: 0, bytes: 0, sample: [] } },
  upstream: null,
  unpushed: 0,
  merged: { target: "refs/heads/main", how: "ancestor" },
  fingerprints: { bootstrap: null, context: null, runtime: null, drift: [] },
  createdAt: null,
  lastActivity: null,
  missing: false,
  prunable: null,
  harness: null,
};

/** Facts of a husk (a directory under the managed root git no longer lists), for pure tests. */
export const sampleHusk = (h: Partial<HuskFacts>): HuskFacts => ({
  symlink: false,
  empty: false,
  salvageable: 3,
  uniqueIgnored: 0,
  nestedRepository: false,
  repo: "r",
  ...h,
});
