// Type-level tests of the library's results and reasons (issue 23 item 4), checked by `npm run
// typecheck`: every `@ts-expect-error` line must fail to compile (the typecheck fails when it
// compiles), and everything else must compile — the narrowing a caller writes.
import {
  Orchard,
  ADD_ACTIONS,
  type AddAction,
  type AddResult,
  type ApplyResult,
  type Reason,
  type ReasonCode,
  type ReasonOf,
  type ReapResult,
  type WaveResult,
} from "../../src/index.js";

/** Compiles only when A and B are the same type. */
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const same = <A, B>(proof: Same<A, B>): void => void proof;

// ---- results narrow on `ok` and `action`

export async function addNarrows(orchard: Orchard): Promise<void> {
  const r = await orchard.add({ branch: "b" });
  // @ts-expect-error `error` exists only on a failed bootstrap: check `ok` and "error" in r first
  void r.error;
  if (r.ok) {
    same<typeof r.action, "created" | "adopted" | "reused" | "recycled" | "planned">(true);
    // @ts-expect-error a successful add is never `refused`
    const refused: "refused" = r.action;
    void [refused, r.path, r.handle];
  } else if (r.action === "refused") {
    for (const reason of r.reasons) void reason.message;
    // @ts-expect-error a refusal has no `error` (that is a failed bootstrap)
    void r.error;
  } else {
    same<typeof r.error.code, "bootstrap_failed">(true); // a failed bootstrap: the worktree is kept
  }
  switch (r.action) {
    case "refused":
      same<typeof r.ok, false>(true);
      break;
    case "planned":
      same<typeof r.ok, true>(true);
      break;
    default:
      same<typeof r.ok, boolean>(true); // created, adopted, reused, recycled: ok unless its bootstrap failed
  }
  // the action type is the very tuple the JSON and the MCP output schema use
  same<AddAction, (typeof ADD_ACTIONS)[number]>(true);
  same<AddResult["action"], AddAction>(true);
}

export async function leaseAndAdoptNarrow(orchard: Orchard): Promise<void> {
  const released = await orchard.release({ target: "b" });
  if (released.ok) same<typeof released.action, "released" | "already_released" | "renewed">(true);
  else same<typeof released.action, "refused">(true);

  const adopted = await orchard.adopt({ path: "/x" });
  // @ts-expect-error a refused adopt may have no handle: check `ok` first
  const noCheck: string = adopted.handle;
  if (adopted.ok) {
    const handle: string = adopted.handle;
    void [handle, noCheck];
  }
}

export async function countsNarrow(orchard: Orchard): Promise<void> {
  const applied: ApplyResult = await orchard.cleanupApply({ planId: "p" });
  // @ts-expect-error without checking `ok`, failed is any number
  const zero: 0 = applied.failed;
  if (applied.ok) {
    same<typeof applied.failed | typeof applied.refused, 0>(true); // ok: nothing failed, nothing refused
    void zero;
  }
  const run = await orchard.cleanupRun();
  if (run.ok) same<typeof run.refused, 0>(true);

  const reaped: ReapResult = await orchard.reapOrphans();
  // @ts-expect-error `reason` is there only when the sweep could not run
  void reaped.reason;
  if (!reaped.ok) same<typeof reaped.reason, "default_branch_unknown">(true);
  // every entry that names its reason by code carries the next step (SPEC v4 §2)
  for (const e of reaped.entries) same<typeof e.next, string | null | undefined>(true);

  const wave: WaveResult = await orchard.cleanupWave({ manifest: "/m.json" });
  if (wave.ok) same<typeof wave.result.reason, "ok">(true);
  else same<typeof wave.result.reason, "cleanup_blocked">(true);
  for (const e of wave.result.entries) same<typeof e.next, string | null | undefined>(true);
}

// ---- reasons: a union keyed by `code`, each code with its evidence

export function reasonsNarrow(reasons: readonly Reason[]): void {
  for (const r of reasons) {
    // @ts-expect-error evidence is per code: narrow on `code` before reading it
    void r.pids;
    switch (r.code) {
      case "precondition_changed":
        same<typeof r.pids, number[] | null | undefined>(true);
        void [r.field, r.planned, r.now];
        break;
      case "dirty":
        // @ts-expect-error no pid on dirty's evidence
        void r.pid;
        if ("tracked" in r) void (r.tracked + r.untracked + r.conflicted);
        else same<typeof r.unknown, true>(true); // the status could not be read
        break;
      case "live_owner":
        void r.signals?.map((s) => s.code);
        break;
      case "clean":
        // @ts-expect-error `clean` carries no evidence
        void r.tracked;
        break;
      case "base_diverged": {
        const { local, remote, ref }: { local: string; remote: string; ref: string } = r;
        void [local, remote, ref];
        break;
      }
      default:
        void r.message;
    }
  }
  // @ts-expect-error an unknown code is not a Reason
  const unknown: Reason = { code: "no_such_reason", message: "" };
  // @ts-expect-error nor a ReasonCode
  const code: ReasonCode = "no_such_reason";
  // @ts-expect-error a code's reason needs its evidence
  const bare: ReasonOf<"base_diverged"> = { code: "base_diverged", message: "" };
  void [unknown, code, bare];
}
