// Fingerprint drift (SPEC §6). The foundation records no fingerprints yet, so nothing can drift;
// task-backed admission (bootstrap, context, runtime digests) replaces this with real checks.
import type { WorktreeRow } from "../registry/index.js";
import type { ReasonCode } from "./reasons.js";
import type { RepoContext } from "./repo.js";

export function assessDrift(_repo: RepoContext, _row: WorktreeRow): ReasonCode[] {
  return [];
}
