// What the person running `claude --worktree` is told on the hook's stderr (SPEC v4 §3.14: nobody is
// left guessing): a `bootstrap.run` Orchard skipped because `.orchard.json` is not trusted, and a
// refusal's next step in Claude Code's terms (a live owner is another session: end it, or take
// another name) — the generic remedies (remedies.ts) speak of `orchard add` flags a session cannot pass.
// What the repository wrote is quoted and one line (quote.ts), on stderr as in the model's note.
import type { AddResult } from "../admission/index.js";
import { remedyOf } from "../shared/reasons/remedies.js";
import type { Reason } from "../shared/reasons/reasons.js";
import { oneLine, quoted, quotedList } from "./quote.js";

/** One line per `bootstrap.run` command skipped as untrusted, with the next step. */
export function untrustedNote(result: AddResult, primary: string): string | null {
  const skipped = (result.bootstrap?.steps ?? []).filter((s) => s.status === "skipped" && s.reason === "config_untrusted" && s.name.startsWith("run: "));
  if (skipped.length === 0) return null;
  const commands = quotedList(skipped.map((s) => s.name.slice("run: ".length)));
  return `bootstrap.run was skipped (config_untrusted: ${quoted(`${primary}/.orchard.json`)} is not trusted); the repository names these commands, quoted as data: ${commands}. Review them before you run them in the worktree, and \`orchard trust\` in ${quoted(primary)} so the next worktree runs them`;
}

/** A refusal's reason with its next step, as a Claude Code session can take it. */
export function refusalLine(r: Reason, name: string): string {
  const next =
    r.code === "live_owner"
      ? `another live session or process holds it: end that session (\`orchard status\` names it), or start this one under another name (claude --worktree ${name}-2)`
      : remedyOf(r);
  return oneLine(`${r.code}: ${r.message}${next ? ` (next: ${next})` : ""}`, 1_000);
}
