// Fills `next` on every reason of a result (SPEC v4 §2): each `{code, message}` object, and each
// row that names its reason by code alone (`{status, reason: "worktree_dirty"}` of reap and wave,
// a bootstrap step skipped for `config_untrusted`). A reason's row is the nearest object around it
// that names a handle, path or branch; the error object of a failed call is left as it is.
import { REASON_TEXT, type Reason } from "../shared/reasons/reasons.js";
import { nextStep, type Where } from "./next.js";
import { spell, stepOf, type Surface } from "./step.js";

const isCode = (v: unknown): v is Reason["code"] => typeof v === "string" && Object.hasOwn(REASON_TEXT, v);

const ROW_KEYS = ["handle", "path", "branch", "planId", "disposition"] as const;

/** The row `o` names, inside `outer`: `outer` itself when `o` names nothing of a row (never changed after: shared). */
function rowOf(o: Record<string, unknown>, outer: Where): Where {
  let w: Where | undefined;
  const own = (): Where => (w ??= { ...outer });
  for (const key of ROW_KEYS) if (typeof o[key] === "string") own()[key] = o[key];
  const owner = o.owner as { kind?: unknown } | undefined;
  if (typeof o.managed === "boolean") own().managed = o.managed;
  else if ("handle" in o && o.handle === null)
    own().managed = false; // a row without a handle is no managed worktree
  else if (owner && typeof owner === "object" && typeof owner.kind === "string") own().managed = owner.kind === "orchard";
  const suggestion = o.suggestion as { command?: unknown } | undefined;
  if (suggestion && typeof suggestion === "object" && "command" in suggestion)
    own().suggestion = typeof suggestion.command === "string" ? suggestion.command : null;
  return w ?? outer;
}

/** Objects and arrays hold reasons; a string, number, boolean or null holds none (not visited: a listing's rows are mostly these). */
const holds = (v: unknown): v is object => v !== null && typeof v === "object";

function visit(value: object, where: Where, surface: Surface): void {
  if (Array.isArray(value)) {
    for (const v of value as unknown[]) if (holds(v)) visit(v, where, surface);
    return;
  }
  const o = value as Record<string, unknown>;
  if (isCode(o.code) && typeof o.message === "string") {
    o.next = spell(nextStep(o as unknown as Reason, where), surface);
    return; // a reason's evidence holds no reasons
  }
  const row = rowOf(o, where);
  if (isCode(o.reason) && !("code" in o)) o.next = spell(nextStep({ code: o.reason, message: "" } as Reason, row), surface);
  for (const key of Object.keys(o)) {
    const v = o[key];
    if (key !== "error" && holds(v)) visit(v, row, surface);
  }
}

/**
 * `result` with `next` on each of its reasons, spelt for `surface` (a command for the CLI and the
 * library, a tool call for MCP); `verb` is the Orchard method, `input` what it was called with.
 */
export function withNext<R>(verb: string, input: object, result: R, surface: Surface = "cli"): R {
  const where: Where = { verb, input: input as Record<string, unknown> };
  const target = (input as { target?: unknown }).target;
  // a recycle's result names the worktree it would become; its reasons are about the one recycled
  if (verb === "recycle" && typeof target === "string" && result !== null && typeof result === "object")
    for (const [key, v] of Object.entries(result)) key !== "error" && holds(v) && visit(v, { ...where, handle: target }, surface);
  else if (holds(result)) visit(result, where, surface);
  // a result's own top-level `next` (remove's, path's) is spelt for the surface too: a tool call for MCP
  if (surface === "mcp" && result !== null && typeof result === "object" && "next" in result) {
    const top = result as { next: unknown };
    if (typeof top.next === "string") top.next = spell(stepOf(top.next), surface);
  }
  return result;
}
