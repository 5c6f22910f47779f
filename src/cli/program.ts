// The orchard command line: argv → command → render. Usage errors exit 2. Each command module
// only declares its flags; what a command runs is imported when it runs.
import { Command, CommanderError } from "commander";
import { printUsageError } from "./output.js";
import { stopChildrenOnSignals } from "./signals.js";
import { invalidUtf8Argument } from "./argv.js";
import { addExamples } from "./examples.js";
import * as admission from "./commands/admission.js";
import * as inspect from "./commands/inspect.js";
import * as hygiene from "./commands/hygiene.js";
import * as recycle from "./commands/recycle.js";
import * as reap from "./commands/reap.js";
import * as mcp from "./commands/mcp.js";
import * as demo from "./commands/demo.js";
import * as claudeCode from "./commands/claude-code.js";
import * as harnessHooks from "./commands/harness-hooks.js";
import * as registry from "./commands/registry.js";
import * as explain from "./commands/explain.js";
import * as completion from "./commands/completion.js";
import * as navigate from "./commands/navigate.js";
import * as merge from "./commands/merge.js";
import * as doctor from "./commands/doctor.js";

export function buildProgram(version: string): Command {
  const program = new Command("orchard")
    .description("Keeps the git worktrees of parallel coding agents safe, reusable and clean.")
    .version(version, "--version")
    .option("--repo <path>", "a path inside the repository (default: cwd)")
    .option("--home <dir>", "the workspace (default: ORCHARD_HOME or ~/.orchard)")
    .option("--registry <url>", "a fleet's shared PostgreSQL registry, postgres://… (default: ORCHARD_REGISTRY, else <home>/orchard.db)")
    .option("--json", "print exactly one JSON object on stdout")
    .option("--wide", "tables show every column and cell in full, whatever the terminal's width")
    .option("--no-color", "no colour (also NO_COLOR=1; FORCE_COLOR=1 forces it)")
    .showHelpAfterError(false)
    .configureOutput({ outputError: () => undefined }) // printed once, by printUsageError
    .exitOverride();
  for (const module of [
    admission,
    navigate,
    inspect,
    recycle,
    merge,
    hygiene,
    reap,
    claudeCode,
    harnessHooks,
    registry,
    mcp,
    demo,
    explain,
    completion,
    doctor,
  ])
    module.register(program);
  program.commands.forEach((c) => c.exitOverride());
  addExamples(program);
  return program;
}

export async function main(argv: string[], version: string): Promise<void> {
  stopChildrenOnSignals(); // a SIGTERM or SIGINT leaves no git of ours behind
  const program = buildProgram(version);
  const json = argv.includes("--json");
  const invalid = invalidUtf8Argument(argv);
  if (invalid !== null) {
    printUsageError(`the argument ${JSON.stringify(invalid)} is not valid UTF-8 (its bytes would reach git changed)`, { json }, "invalid_input");
    return;
  }
  try {
    await program.parseAsync(argv);
  } catch (error) {
    if (error instanceof CommanderError) {
      if (error.code === "commander.helpDisplayed" || error.code === "commander.version" || error.code === "commander.help") {
        process.exitCode = 0;
        return;
      }
      printUsageError(error.message.replace(/^error: /, ""), { json });
      return;
    }
    throw error;
  }
}
