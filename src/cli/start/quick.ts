// The quick command line: `orchard path` (what the shell's `orchard cd` runs) and `orchard
// __complete handles` (one TAB), answered from the registry alone (core/navigate/quick.ts) before
// the command line, commander and the library load. Its own bundle (dist/bin/orchard-quick.cjs,
// scripts/bundle.mjs) holds only this and what it uses. main.ts runs it for those two commands;
// it answers false for anything it does not settle (another flag, an argument to vet, no row), and
// the whole command line runs as before, with the same answer or the full error.
import { writeOut as print } from "./fd-out.js";
import { quickHandles, quickPath, type QuickOptions } from "../../core/navigate/index.js";

export type QuickMain = (argv: readonly string[]) => Promise<boolean>;

interface Parsed {
  options: QuickOptions;
  json: boolean;
  words: string[];
}

/** The global flags these two commands may carry, and their words; null for anything else (the full command line's). */
function parse(args: readonly string[]): Parsed | null {
  const options: QuickOptions = {};
  let json = false;
  const words: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] as string;
    if (arg.includes("\uFFFD")) return null; // not valid UTF-8, perhaps: the command line says so
    const flag = /^--(home|repo)(?:=(.*))?$/s.exec(arg);
    if (flag) {
      const value = flag[2] ?? args[++i];
      if (value === undefined || value === "" || value.startsWith("-")) return null;
      options[flag[1] as "home" | "repo"] = value;
    } else if (arg === "--json") json = true;
    else if (arg === "--no-color" || arg === "--wide") continue;
    else if (arg.startsWith("-"))
      return null; // --help, --registry, `--`, a target that reads as a flag
    else words.push(arg);
  }
  return { options, json, words };
}

export const main: QuickMain = async (argv) => {
  const parsed = parse(argv.slice(2));
  if (!parsed) return false;
  const { options, json, words } = parsed;
  if (words[0] === "path" && words.length <= 2) {
    const result = await quickPath(options, words[1], json);
    if (!result) return false;
    print(json ? `${JSON.stringify(result)}\n` : `${result.path}\n`);
    return true;
  }
  if (words[0] === "__complete" && words[1] === "handles" && words.length === 2) {
    const handles = await quickHandles(options);
    if (!handles) return false;
    print(`${handles.join("\n")}\n`);
    return true;
  }
  return false;
};
