// What the person running `claude --worktree` is told on the hook's stderr (SPEC v4 §3.14: nobody is
// left guessing): a `bootstrap.run` Orchard skipped because `.orchard.json` is not trusted, and a
// refusal's next step in Claude Code's terms (a live owner is another session: end it, or take
// another name) — the generic remedies (remedies.ts) speak of `orchard add` flags a session cannot pass.
import type { AddResult } from "../admission/index.js";
import { remedyOf } from "../shared/reasons/remedies.js";
import type { Reason } from "../shared/reasons/reasons.js";

/** One line per `bootstrap.run` command skipped as untrusted, with the next step. */
export function untrustedNote(result: AddResult, primary: string): string | null {
  const skipped = (result.bootstrap?.steps ?? []).filter((s) => s.status === "skipped" && s.reason === "config_untrusted" && s.name.startsWith("run: "));
  if (skipped.length === 0) return null;
  const commands = skipped.map((s) => s.name.slice("run: ".length)).join("; ");
  return `bootstrap.run was skipped (config_untrusted: ${primary}/.orchard.json is not trusted): run it yourself in the worktree (${commands}), and \`orchard trust\` in ${primary} so the next worktree runs it`;
}

/** A refusal's reason with its next step, as a Claude Code session can take it. */
export function refusalLine(r: Reason, name: string): string {
  const next =
    r.code === "live_owner"
      ? `another live session or process holds it: end that session (\`orchard status\` names it), or start this one under another name (claude --worktree ${name}-2)`
      : remedyOf(r);
  return `${r.code}: ${r.message}${next ? ` (next: ${next})` : ""}`;
}
