#!/usr/bin/env node
// The orchard executable. `orchard --version` answers from package.json alone; anything else runs
// the command line (program.ts): from the one-file CommonJS bundle beside this file, through its
// V8 code cache (code-cache.ts), or, in a tree built by tsc alone, from its modules.
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { loadBundle } from "./start/code-cache.js";
import type { QuickMain } from "./start/quick.js";
import type { LeanMain } from "./start/lean.js";

/**
 * A reader that went away (`orchard list | head -1`) ends the output, not the command: the rest of
 * what it prints is dropped, the work and its exit code stay as they are (no stack trace). Set
 * where process.stdout is first used: the quick and lean bundles write without it (fd-out.ts), so an
 * `orchard cd` or `orchard remove` loads none of Node's stream modules for it.
 */
function endOutputOnEpipe(): void {
  process.stdout.on("error", (error: NodeJS.ErrnoException) => {
    if (error.code !== "EPIPE") throw error;
  });
}

const version = (): string => (JSON.parse(readFileSync(new URL("../../package.json", import.meta.url), "utf8")) as { version: string }).version;
const args = process.argv.slice(2);
/** `orchard path …` and `orchard __complete handles`: answered from the registry by the quick bundle, when it can (quick.ts). */
const quickCandidate = args.includes("path") || (args.includes("__complete") && args.includes("handles"));
/** add, release, heartbeat, status, remove, list: run by the lean bundle, which holds them and not the rest of the command line, when it parses the arguments (lean.ts). */
const LEAN_VERBS = new Set(["add", "release", "heartbeat", "status", "remove", "list"]);
/** The command's word: the first argument that is neither a flag nor a global flag's value (`salvage list` is not `list`). */
const word = ((): string | undefined => {
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] as string;
    if (arg === "--home" || arg === "--repo" || arg === "--registry") i++;
    else if (!arg.startsWith("-")) return arg;
  }
  return undefined;
})();
const leanVerb = word !== undefined && LEAN_VERBS.has(word) ? word : undefined;
if (args.length === 1 && args[0] === "--version") {
  endOutputOnEpipe();
  process.stdout.write(`${version()}\n`);
} else void run(); // no top-level await: the build makes this file CommonJS (scripts/bundle.mjs)

async function run(): Promise<void> {
  if (quickCandidate) {
    const quick = loadBundle<QuickMain>(fileURLToPath(new URL("./orchard-quick.cjs", import.meta.url))) ?? (await import("./start/quick.js")).main;
    if (await quick(process.argv)) return;
  }
  if (leanVerb !== undefined) {
    // a code cache per verb: each holds what its own verb compiled (code-cache.ts); its results go to fd 1 itself (fd-out.ts)
    const lean = loadBundle<LeanMain>(fileURLToPath(new URL("./orchard-lean.cjs", import.meta.url)), leanVerb) ?? (await import("./start/lean.js")).main;
    if (await lean(process.argv)) return;
  }
  endOutputOnEpipe();
  const main = loadBundle(fileURLToPath(new URL("./orchard-cli.cjs", import.meta.url))) ?? (await import("./program.js")).main;
  await main(process.argv, version());
}
