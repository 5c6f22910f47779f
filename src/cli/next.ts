// "What to do next" under a refusal or a skipped step: `↳ orchard trust`. The text is the reason
// table's remedy (core/shared/reasons/remedies.ts), filled from the reason's evidence and the result.
import { remedyOf } from "../core/shared/reasons/remedies.js";
import type { Reason } from "../core/shared/reasons/reasons.js";
import { stdoutDisplay } from "./terminal.js";
import { escapeControl } from "./escape.js";

/** The `↳` line under one reason: its next command when it has one, else the remedy's sentence. */
export function nextLine(r: Pick<Reason, "code"> & { next?: string | null }, extra: Record<string, unknown> = {}, indent = "  "): string[] {
  const text = r.next ?? remedyOf(r, extra);
  return text ? [`${indent}${stdoutDisplay().paint(`↳ ${escapeControl(text)}`, "cyan")}`] : [];
}

/** One `↳` line per distinct remedy of `reasons`, indented by `indent`. */
export function nextLines(reasons: readonly Pick<Reason, "code">[], extra: Record<string, unknown> = {}, indent = "  "): string[] {
  const paint = stdoutDisplay().paint;
  const seen = new Set<string>();
  for (const r of reasons) {
    const remedy = remedyOf(r, extra);
    if (remedy) seen.add(remedy);
  }
  // filled from evidence (a path, a file an agent named): escaped before it is painted
  return [...seen].map((remedy) => `${indent}${paint(`↳ ${escapeControl(remedy)}`, "cyan")}`);
}
