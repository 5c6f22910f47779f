// The REASONS cell of hygiene's table: each reason's code, and where a worktree's work is (not)
// merged into a branch other than its repository's default branch, that branch (SPEC v4 §3.8: one
// merge target, named). The default branch is the common case and goes unsaid.
import type { Reason } from "../../core/shared/reasons/reasons.js";

/** The merge target a reason names: merged's, work_preserved's by merge, work_not_preserved's proof. */
function targetOf(r: Reason): string | null {
  if (r.code === "merged") return r.target ?? null;
  if (r.code === "work_preserved") return r.via === "merged" ? r.target : null;
  if (r.code === "work_not_preserved") return r.merged?.target ?? null;
  return null;
}

/** The codes, comma-separated; a target other than `defaultBranch` (a short name) after its reason. */
export function reasonCodes(reasons: readonly Reason[], defaultBranch: string | null = null): string {
  return reasons
    .map((r) => {
      const target = targetOf(r);
      const short = target?.replace(/^refs\/heads\//, "");
      return short && short !== defaultBranch ? `${r.code} (into ${short})` : r.code;
    })
    .join(", ");
}
