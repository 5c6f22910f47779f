// Who holds a worktree (SPEC §3.1, §4.11): leases, the liveness verdict, git lock owners, the
// process table and the per-repo mutation lock. Entered from outside only through this file.
export * from "./lease.js";
export * from "./liveness.js";
export * from "./lock-owner.js";
export * from "./process.js";
export * from "./mutation-lock.js";
export * from "./client.js";
export * from "./owner-label.js";
export * from "./holder.js";
