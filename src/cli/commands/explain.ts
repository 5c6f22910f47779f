// `orchard explain <code>`: what a reason code means and what to do next, from the one reason
// table (core/shared/reasons/reasons.ts, remedies.ts) that docs/reasons.md is generated from.
import type { Command } from "commander";
import type { ReasonCode } from "../../core/shared/reasons/reasons.js";
import { globalsOf } from "../run.js";
import { printError, printResult } from "../output.js";
import { stdoutDisplay } from "../terminal.js";

export interface ExplainResult {
  ok: true;
  code: ReasonCode;
  meaning: string;
  remedy: string | null;
}

/** The table is loaded by the command, not at start-up (docs/ARCHITECTURE.md, "Start-up cost"). */
export async function explain(code: string): Promise<ExplainResult> {
  const [{ REASON_TEXT }, { REASON_REMEDY }, { usageError }] = await Promise.all([
    import("../../core/shared/reasons/reasons.js"),
    import("../../core/shared/reasons/remedies.js"),
    import("../../core/shared/errors.js"),
  ]);
  if (!Object.hasOwn(REASON_TEXT, code)) throw usageError("invalid_argument", `unknown reason code ${JSON.stringify(code)} (docs/reasons.md lists them)`);
  const known = code as ReasonCode;
  return { ok: true, code: known, meaning: REASON_TEXT[known], remedy: REASON_REMEDY[known] ?? null };
}

function renderExplain(r: ExplainResult): string {
  const paint = stdoutDisplay().paint;
  return [`${paint(r.code, "bold")}: ${r.meaning}`, ...(r.remedy ? [paint(`↳ ${r.remedy}`, "cyan")] : [])].join("\n");
}

export function register(program: Command): void {
  program
    .command("explain")
    .description("what a reason code means and what to do next")
    .argument("<code>", "a reason or note code, as hygiene and every refusal print it")
    .action(async (code: string, _opts: unknown, cmd: Command) => {
      const globals = globalsOf(cmd);
      try {
        printResult(await explain(code), globals, renderExplain);
      } catch (error) {
        printError(error, globals);
      }
    });
}
