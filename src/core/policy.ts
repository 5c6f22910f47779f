// Admission policies (SPEC §3.1 step 5). `isolated` always creates; reuse and recycle are filled in
// by task-backed admission. Returns a finished result, or null to let admission create.
import type { Ctx } from "./context.js";
import type { AddRequest, AddResult } from "./admission.js";
import type { Candidate } from "./candidates.js";

export const POLICIES = ["isolated", "reuse-compatible", "recycle-terminal"] as const;
export type Policy = (typeof POLICIES)[number];

export async function applyPolicy(_ctx: Ctx, _request: AddRequest, _base: { ref: string; commit: string }, _candidates: Candidate[]): Promise<AddResult | null> {
  return null;
}
