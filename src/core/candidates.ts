// Candidates (SPEC §3.1 step 4): existing managed worktrees that could serve a task-backed request.
// The foundation looks for none; task-backed admission fills this seam.
import type { Ctx } from "./context.js";
import type { AddRequest } from "./admission.js";
import type { Reason } from "./reasons.js";
import type { Lifecycle } from "../registry/index.js";

export interface Candidate {
  handle: string;
  path: string;
  branch: string;
  kind: "same_task" | "patch_equivalent";
  lifecycle: Lifecycle;
  eligible: boolean;
  reasons: Reason[];
  lastActivity: string | null;
}

export async function findCandidates(_ctx: Ctx, _request: AddRequest, _base: { ref: string; commit: string }): Promise<Candidate[]> {
  return [];
}
