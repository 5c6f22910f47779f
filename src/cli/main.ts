#!/usr/bin/env node
// The orchard executable. `orchard --version` answers from package.json alone; anything else loads
// the argument parser and its command declarations (program.ts), which load what they run.
import { readFileSync } from "node:fs";

const { version } = JSON.parse(readFileSync(new URL("../../package.json", import.meta.url), "utf8")) as { version: string };
const args = process.argv.slice(2);
if (args.length === 1 && args[0] === "--version") process.stdout.write(`${version}\n`);
else await (await import("./program.js")).main(process.argv, version);
