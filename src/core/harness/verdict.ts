// The harness verdict (pure, SPEC v5 §1 harness): a worktree its harness still tracks is
// `harness_tracked`, one whose tracking cannot be read `harness_unverified`. Either keeps it from
// every removal (hygiene never calls it reclaimable or reapable; cleanup, reap-orphans, remove and
// recycle skip it); the reason names the harness's own way to drop it. Once the harness's record is
// gone (tracked: false) the worktree is judged like any foreign one. A harness's server that does
// not stand inside the worktree is no evidence of anything: liveness stays what Orchard read.
import { reason, type Reason } from "../shared/reasons/reasons.js";
import { HARNESS_DROP } from "./drop.js";
import type { HarnessFact } from "./types.js";

export type HarnessHold = Extract<Reason, { code: "harness_tracked" | "harness_unverified" }>;

/** The reason that keeps the worktree for its harness, or null when nothing does. */
export function harnessHold(harness: HarnessFact | null | undefined): HarnessHold | null {
  if (!harness || harness.tracked === false) return null;
  const evidence = { harness: harness.name, session: harness.session ?? null, drop: HARNESS_DROP[harness.name] };
  return (harness.tracked === true ? reason("harness_tracked", evidence) : reason("harness_unverified", evidence)) as HarnessHold;
}
