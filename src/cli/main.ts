#!/usr/bin/env node
// The orchard executable. `orchard --version` answers from package.json alone; anything else loads
// the argument parser and its command declarations (program.ts), which load what they run.
import { readFileSync } from "node:fs";

// a reader that went away (`orchard list | head -1`) ends the output, not the command: the rest of
// what it prints is dropped, the work and its exit code stay as they are (no stack trace)
process.stdout.on("error", (error: NodeJS.ErrnoException) => {
  if (error.code !== "EPIPE") throw error;
});

const { version } = JSON.parse(readFileSync(new URL("../../package.json", import.meta.url), "utf8")) as { version: string };
const args = process.argv.slice(2);
if (args.length === 1 && args[0] === "--version") process.stdout.write(`${version}\n`);
else await (await import("./program.js")).main(process.argv, version);
