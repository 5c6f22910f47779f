// The lean command line: `orchard remove <target>` (SPEC v5 §3, an everyday verb costs one
// worktree) without the whole command line. Its own bundle (dist/bin/orchard-lean.cjs,
// scripts/bundle.mjs) holds this, run.ts and the library's remove, not commander, the other
// commands' modules, the MCP server or the registry's PostgreSQL client: a remove pays for what it
// runs. main.ts runs it for an argument list naming `remove`; it answers false for anything it
// does not parse exactly as the command line would (another flag, `--`, `--help`, a target that
// reads as a flag, an argument that is not valid UTF-8), and the whole command line runs as before.
// What runs is the command line's own code: runCommand (run.ts) opens the library, calls
// Orchard.remove, prints with the same renderer and exit codes, and closes.
import { invalidUtf8Argument } from "./argv.js";
import { runCommand } from "./run.js";
import { stopChildrenOnSignals } from "./signals.js";
import { renderRemove } from "./commands/remove-render.js";
import type { GlobalOptions } from "./output.js";

export type LeanMain = (argv: readonly string[]) => Promise<boolean>;

interface Parsed {
  globals: GlobalOptions;
  flags: { salvage?: true; dryRun?: true };
  words: string[];
}

/** The flags `orchard remove` may carry (the global ones and its own), and its words; null for anything else (the full command line's). */
export function parseLean(args: readonly string[]): Parsed | null {
  const globals: GlobalOptions = {};
  const flags: Parsed["flags"] = {};
  const words: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] as string;
    const valued = /^--(home|repo|registry)(?:=(.*))?$/s.exec(arg);
    if (valued) {
      const value = valued[2] ?? args[++i];
      if (value === undefined || value === "" || value.startsWith("-")) return null;
      globals[valued[1] as "home" | "repo" | "registry"] = value;
    } else if (arg === "--json") globals.json = true;
    else if (arg === "--wide") globals.wide = true;
    else if (arg === "--no-color") globals.color = false;
    else if (arg === "--salvage" && words.length > 0)
      flags.salvage = true; // remove's own flags follow its name
    else if (arg === "--dry-run" && words.length > 0) flags.dryRun = true;
    else if (arg.startsWith("-"))
      return null; // --help, `--`, another flag, a target that reads as a flag
    else words.push(arg);
  }
  return { globals, flags, words };
}

export const main: LeanMain = async (argv) => {
  const parsed = parseLean(argv.slice(2));
  if (parsed === null || parsed.words.length !== 2 || parsed.words[0] !== "remove" || invalidUtf8Argument(argv) !== null) return false;
  const { globals, flags, words } = parsed;
  const target = words[1] as string;
  stopChildrenOnSignals(); // a SIGTERM or SIGINT leaves no git of ours behind, as program.ts's main
  await runCommand(globals, (o) => o.remove({ target, ...flags }), renderRemove, undefined, { dryRun: flags.dryRun === true });
  return true;
};
