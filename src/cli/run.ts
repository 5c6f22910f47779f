// Runs one command: open the library, call it, print the result, close. Every error ends here.
// The library is imported here, at the call, not at start-up: `--version`, `--help` and a usage
// error never load it (docs/ARCHITECTURE.md, "Start-up cost").
import type { Command } from "commander";
import type { Orchard } from "../core/orchard.js";
import { printError, printResult, type GlobalOptions, type Renderer } from "./output.js";

export function globalsOf(command: Command): GlobalOptions {
  return command.optsWithGlobals() as GlobalOptions;
}

export async function runWith<R extends { ok: boolean }>(
  command: Command,
  fn: (orchard: Orchard, globals: GlobalOptions) => Promise<R>,
  render: Renderer<R>,
  exitCode?: (result: R) => 0 | 1 | 2 | 3,
): Promise<void> {
  const globals = globalsOf(command);
  let orchard: Orchard | undefined;
  try {
    const { Orchard } = await import("../core/orchard.js");
    orchard = await Orchard.open({ ...(globals.repo ? { repo: globals.repo } : {}), ...(globals.home ? { home: globals.home } : {}) });
    const result = await fn(orchard, globals);
    printResult(result, globals, render, exitCode?.(result));
  } catch (error) {
    printError(error, globals);
  } finally {
    await orchard?.close();
  }
}
