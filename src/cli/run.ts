// Runs one command: open the library, call it, print the result, close. Every error ends here.
// The library is imported here, at the call, not at start-up: `--version`, `--help` and a usage
// error never load it (docs/ARCHITECTURE.md, "Start-up cost").
import { existsSync, lstatSync } from "node:fs";
import { join, resolve } from "node:path";
import type { Command } from "commander";
import { startLockedQueries, startRepoQueries } from "../git/early.js";
import type { OpenOptions, Orchard } from "../core/orchard.js";
import { printError, printResult, type GlobalOptions, type Renderer } from "./output.js";
import { ProgressLine } from "./progress.js";
import { configureDisplay } from "./terminal.js";

/** The global flags of a command; the display they shape (--wide, --no-color) is set from them at once. */
export function globalsOf(command: Command): GlobalOptions {
  const globals = command.optsWithGlobals() as GlobalOptions;
  configureDisplay(globals);
  return globals;
}

/** Orchard.open's options from the global flags; `local`: go on from git's facts when the registry is out of reach. */
export function openOptions(globals: GlobalOptions, local = false): OpenOptions {
  return {
    ...(globals.repo ? { repo: globals.repo } : {}),
    ...(globals.home ? { home: globals.home } : {}),
    ...(globals.registry !== undefined ? { registry: globals.registry } : {}),
    ...(local ? { whenUnreachable: "local" as const } : {}),
  };
}

/** Says on stderr that a result came from this host's git facts alone. */
export function warnUnreachable(result: object): void {
  const why = (result as { registryUnreachable?: string }).registryUnreachable;
  if (why) process.stderr.write(`orchard: ${why}; this answer comes from this host's git facts alone\n`);
}

export async function runWith<R extends { ok: boolean }>(
  command: Command,
  fn: (orchard: Orchard, globals: GlobalOptions) => Promise<R>,
  render: Renderer<R>,
  exitCode?: (result: R) => 0 | 1 | 2 | 3,
  options: { local?: boolean; early?: "repo" | "target" | "statuses" | "locked"; progress?: string } = {},
): Promise<void> {
  const globals = globalsOf(command);
  const progress = options.progress ? ProgressLine.start(options.progress, globals) : null;
  let orchard: Orchard | undefined;
  let earlyStatuses: typeof import("../core/shared/early-statuses.js") | undefined;
  if (options.early) {
    // git starts resolving the repo (src/git/early.ts) and reading every worktree's status
    // (core/shared/early-statuses.ts) while the library loads
    const path = resolve(globals.repo ?? process.cwd());
    if (existsSync(path)) {
      const primary = lstatSync(join(path, ".git"), { throwIfNoEntry: false })?.isDirectory() ?? false;
      if (options.early === "locked") startLockedQueries(path, primary);
      else startRepoQueries(path, primary, { refs: options.early !== "target" });
      if (options.early === "statuses") {
        earlyStatuses = await import("../core/shared/early-statuses.js");
        earlyStatuses.startEarlyStatuses(path);
      }
    }
  }
  try {
    const { Orchard } = await import("../core/orchard.js");
    orchard = await Orchard.open(openOptions(globals, options.local));
    const { withProgress } = await import("../core/shared/progress.js");
    const open = orchard;
    const result = await withProgress(progress?.report, () => fn(open, globals));
    progress?.stop();
    warnUnreachable(result);
    printResult(result, globals, render, exitCode?.(result));
  } catch (error) {
    progress?.stop();
    printError(error, globals);
  } finally {
    progress?.stop();
    earlyStatuses?.dropEarlyStatuses(); // what the command did not take (it failed first) is stopped, not waited for
    await orchard?.close();
  }
}
