// `orchard doctor`: one line per check, ✔ or what to run; exit 0 when nothing needs fixing, 1 otherwise.
import type { Command } from "commander";
import { globalsOf } from "../run.js";
import { printError, printResult } from "../output.js";
import { stdoutDisplay } from "../terminal.js";
import { escapeControl } from "../escape.js";
import type { DoctorResult } from "../../core/doctor/index.js";

function renderDoctor(r: DoctorResult): string {
  const paint = stdoutDisplay().paint;
  const width = Math.max(...r.checks.map((c) => c.name.length));
  return r.checks
    .flatMap((c) => [
      `${c.ok ? paint("✔", "green") : paint("✘", "red")} ${c.name.padEnd(width)}  ${escapeControl(c.detail)}`,
      ...(c.fix ? [paint(`  ↳ ${escapeControl(c.fix)}`, "cyan")] : []),
    ])
    .join("\n");
}

export function register(program: Command): void {
  program
    .command("doctor")
    .description("check node, the SQLite driver, git, the registry, trust, hooks, shell integration and free space; each ✔ or what to run")
    .action(async (_opts: unknown, cmd: Command) => {
      const globals = globalsOf(cmd);
      try {
        const { doctor } = await import("../../core/doctor/index.js");
        const result = await doctor({
          ...(globals.repo ? { repo: globals.repo } : {}),
          ...(globals.home ? { home: globals.home } : {}),
          ...(globals.registry ? { registry: globals.registry } : {}),
        });
        printResult(result, globals, renderDoctor, result.ok ? 0 : 1);
      } catch (error) {
        printError(error, globals);
      }
    });
}
