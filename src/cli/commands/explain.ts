// `orchard explain [code]`: what a reason code or a disposition means and what to do next, from the
// one reason table (core/explain/); without a code, every code; an unknown one names the nearest.
import type { Command } from "commander";
import type { ExplainResult } from "../../core/explain/index.js";
import { globalsOf } from "../run.js";
import { printError, printResult } from "../output.js";
import { stdoutDisplay } from "../terminal.js";
import { table } from "../render.js";

/** The table is loaded by the command, not at start-up (docs/ARCHITECTURE.md, "Start-up cost"). */
export async function explain(code?: string): Promise<ExplainResult> {
  const { explain: explainCode } = await import("../../core/explain/index.js");
  return explainCode(code);
}

function renderExplain(r: ExplainResult): string {
  const paint = stdoutDisplay().paint;
  if ("codes" in r)
    return [
      table(
        ["CODE", "KIND", { header: "MEANING", shrink: "end", min: 20 }],
        r.codes.map((c) => [c.code, c.kind, c.meaning]),
      ),
      paint("↳ orchard explain <code> adds what to do next", "cyan"),
    ].join("\n");
  return [`${paint(r.code, "bold")}: ${r.meaning}`, ...(r.remedy ? [paint(`↳ ${r.remedy}`, "cyan")] : [])].join("\n");
}

export function register(program: Command): void {
  program
    .command("explain")
    .description("what a reason code or a disposition means and what to do next; every code without one")
    .argument("[code]", "a reason or note code, or a disposition, as hygiene and every refusal print it")
    .action(async (code: string | undefined, _opts: unknown, cmd: Command) => {
      const globals = globalsOf(cmd);
      try {
        printResult(await explain(code), globals, renderExplain);
      } catch (error) {
        printError(error, globals);
      }
    });
}
