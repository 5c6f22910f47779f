// Runs one command: open the library, call it, print the result, close. Every error ends here.
// The library is imported here, at the call, not at start-up: `--version`, `--help` and a usage
// error never load it (docs/ARCHITECTURE.md, "Start-up cost").
import { existsSync, lstatSync, realpathSync } from "node:fs";
import { homedir } from "node:os";
import { join, resolve } from "node:path";
import type { Command } from "commander";
import { startLockedQueries, startRepoQueries } from "../git/early.js";
import { dropEarly, stopRunning } from "../git/run.js";
import { useExistingHome } from "../git/warm/proof-cache.js";
import type { OpenOptions, Orchard } from "../core/orchard.js";
import { printError, printResult, type GlobalOptions, type Renderer } from "./output.js";
import { ProgressLine, type Announce } from "./progress.js";
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

type Ownership = typeof import("../core/ownership/index.js");

/**
 * A mutation from the primary's top level takes the repo's lock before the library loads, on the
 * common dir its `.git` is, so git lists the worktrees under it beside the first queries (the
 * library takes the hold over, core/ownership/mutation-lock.ts). Not when the lock is held, or the
 * `.git` is not plainly a repository's own git dir: the library then takes the lock as before.
 */
async function holdEarly(path: string): Promise<Ownership | null> {
  const gitDir = join(path, ".git");
  if (!existsSync(join(gitDir, "HEAD")) || existsSync(join(gitDir, "commondir"))) return null;
  try {
    const ownership = await import("../core/ownership/index.js");
    return (await ownership.takeEarlyMutationLock(realpathSync(gitDir), dropEarly)) ? ownership : null;
  } catch {
    return null; // a git dir it cannot write: the library meets that itself, with its own error
  }
}

export interface RunOptions {
  local?: boolean;
  early?: "repo" | "target" | "statuses" | "locked" | "admit";
  progress?: string;
  announce?: Announce;
}

export async function runWith<R extends { ok: boolean }>(
  command: Command,
  fn: (orchard: Orchard, globals: GlobalOptions) => Promise<R>,
  render: Renderer<R>,
  exitCode?: (result: R) => 0 | 1 | 2 | 3,
  options: RunOptions = {},
): Promise<void> {
  const dryRun = (command.opts() as { dryRun?: boolean }).dryRun === true; // a dry run takes no lock
  await runCommand(globalsOf(command), fn, render, exitCode, { ...options, dryRun });
}

/**
 * runWith's body, from global flags already parsed: the command line's (commander's, above) or the
 * lean one's (lean.ts, which parses the few flags of a one-worktree verb itself).
 */
export async function runCommand<R extends { ok: boolean }>(
  globals: GlobalOptions,
  fn: (orchard: Orchard, globals: GlobalOptions) => Promise<R>,
  render: Renderer<R>,
  exitCode?: (result: R) => 0 | 1 | 2 | 3,
  options: RunOptions & { dryRun?: boolean } = {},
): Promise<void> {
  configureDisplay(globals);
  const progress = options.progress ? ProgressLine.start(options.progress, globals, process.stderr, options.announce) : null;
  let orchard: Orchard | undefined;
  let earlyStatuses: typeof import("../core/shared/early-statuses.js") | undefined;
  let early: Ownership | null = null;
  if (options.early) {
    // git starts resolving the repo (src/git/early.ts) and reading every worktree's status
    // (core/shared/early-statuses.ts) while the library loads
    const path = resolve(globals.repo ?? process.cwd());
    // the vetting of the admin dirs before git lists them, kept by identity in the workspace the library will open (a
    // stat per unchanged admin dir, instead of 4 lstats: git/input/admin-pass.ts): where that workspace's cache is already
    useExistingHome(globals.home ?? (process.env.ORCHARD_HOME || join(homedir(), ".orchard"))); // as workspace.ts defaultHome
    if (existsSync(path)) {
      const primary = lstatSync(join(path, ".git"), { throwIfNoEntry: false })?.isDirectory() ?? false;
      if (options.early === "locked" || options.early === "admit") {
        early = primary && options.dryRun !== true ? await holdEarly(path) : null;
        // `admit` (add): the listing is read under the lock only when the decision needs it (an exact repeat does not)
        startLockedQueries(path, primary, early !== null && options.early === "locked");
      } else startRepoQueries(path, primary, { refs: options.early !== "target" });
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
    early?.releaseEarlyMutationLock(); // a hold the command did not take over (its input was refused)
    await orchard?.close();
    stopRunning(); // answered: a git nobody took (an early read) does not keep the process until its timeout
  }
}
