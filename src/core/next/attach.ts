// Fills `next` on every reason of a result (SPEC v4 §2): each `{code, message}` object, and each
// row that names its reason by code alone (`{status, reason: "worktree_dirty"}` of reap and wave,
// a bootstrap step skipped for `config_untrusted`). A reason's row is the nearest object around it
// that names a handle, path or branch; the error object of a failed call is left as it is.
import { REASON_TEXT, type Reason } from "../shared/reasons/reasons.js";
import { nextStep, type Where } from "./next.js";
import { spell, stepOf, type Surface } from "./step.js";

const isCode = (v: unknown): v is Reason["code"] => typeof v === "string" && Object.hasOwn(REASON_TEXT, v);

function rowOf(o: Record<string, unknown>, outer: Where): Where {
  const w: Where = { ...outer };
  for (const key of ["handle", "path", "branch", "planId", "disposition"] as const) if (typeof o[key] === "string") w[key] = o[key];
  const owner = o.owner as { kind?: unknown } | undefined;
  if (typeof o.managed === "boolean") w.managed = o.managed;
  else if ("handle" in o && o.handle === null)
    w.managed = false; // a row without a handle is no managed worktree
  else if (owner && typeof owner === "object" && typeof owner.kind === "string") w.managed = owner.kind === "orchard";
  const suggestion = o.suggestion as { command?: unknown } | undefined;
  if (suggestion && typeof suggestion === "object" && "command" in suggestion)
    w.suggestion = typeof suggestion.command === "string" ? suggestion.command : null;
  return w;
}

function visit(value: unknown, where: Where, surface: Surface): void {
  if (Array.isArray(value)) {
    for (const v of value) visit(v, where, surface);
    return;
  }
  if (value === null || typeof value !== "object") return;
  const o = value as Record<string, unknown>;
  if (isCode(o.code) && typeof o.message === "string") {
    o.next = spell(nextStep(o as unknown as Reason, where), surface);
    return; // a reason's evidence holds no reasons
  }
  const row = rowOf(o, where);
  if (isCode(o.reason) && !("code" in o)) o.next = spell(nextStep({ code: o.reason, message: "" } as Reason, row), surface);
  for (const [key, v] of Object.entries(o)) if (key !== "error") visit(v, row, surface);
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
    for (const [key, v] of Object.entries(result)) key !== "error" && visit(v, { ...where, handle: target }, surface);
  else visit(result, where, surface);
  // a result's own top-level `next` (remove's, path's) is spelt for the surface too: a tool call for MCP
  if (surface === "mcp" && result !== null && typeof result === "object" && "next" in result) {
    const top = result as { next: unknown };
    if (typeof top.next === "string") top.next = spell(stepOf(top.next), surface);
  }
  return result;
}
