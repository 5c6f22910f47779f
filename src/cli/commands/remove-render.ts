// `orchard remove`'s human rendering, shared by the command line (navigate.ts) and the lean one
// (lean.ts), which prints the same result without loading the command line.
import { stdoutDisplay } from "../terminal.js";
import { escapeControl } from "../escape.js";
import type { RemoveResult } from "../../core/cleanup/index.js";

export function renderRemove(r: RemoveResult): string {
  const name = r.handle ?? r.path;
  if (r.ok) {
    const verb = r.action === "planned" ? "would remove" : "removed";
    const lines = [`${verb} ${name} (${r.steps.join(", ")})`, `  path    ${r.path}`];
    if (r.action === "removed" && r.salvageRef) lines.push(`  salvage ${r.salvageRef}`);
    return lines.join("\n");
  }
  const paint = stdoutDisplay().paint;
  const lines = [`${paint("kept", "red")} ${name}${r.disposition ? ` (${r.disposition})` : ""}`, `  path    ${r.path}`];
  for (const x of r.reasons) {
    lines.push(`  ${paint("refused:", "red")} ${x.code}: ${escapeControl(x.message)}`);
    if ("files" in x && Array.isArray(x.files)) lines.push(...x.files.map((f) => `      ${escapeControl(f)}`));
  }
  lines.push(paint(`  ↳ ${r.next ? escapeControl(r.next) : "nothing yet: wait until the worktree is free"}`, "cyan"));
  return lines.join("\n");
}
