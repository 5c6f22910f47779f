// `orchard demo [--dir <path>]`: a narrated tour in a sandbox. Human narration streams to stdout;
// with --json, one object summarising the run.
import type { Command } from "commander";
import { globalsOf } from "../run.js";
import { printError, printResult } from "../output.js";
import { ProgressLine } from "../progress.js";

export function register(program: Command): void {
  program
    .command("demo")
    .description("build a sandbox with a simulated fleet of agents, then show hygiene, reap and clean-up at work")
    .option("--dir <path>", "where to build the sandbox: a new or empty directory (default: a new temp dir)")
    .action(async (opts: { dir?: string }, cmd: Command) => {
      // nothing outside the sandbox is changed, the command line's code cache included (code-cache.ts)
      process.env.NODE_DISABLE_COMPILE_CACHE = "1";
      const globals = globalsOf(cmd);
      const progress = ProgressLine.start("demo", globals);
      const narrate = (line: string) => {
        progress?.clear(); // the narration is written on a clean line; the next step draws progress again
        if (!globals.json) process.stdout.write(line + "\n");
      };
      try {
        const { runDemo } = await import("../../demo/demo.js");
        const { withProgress } = await import("../../core/shared/progress.js");
        const result = await withProgress(progress?.report, () => runDemo(opts.dir ? { dir: opts.dir } : {}, narrate));
        progress?.stop();
        printResult(result, globals, () => "");
      } catch (error) {
        progress?.stop();
        printError(error, globals);
      }
    });
}
