// vitest globalSetup: removes the run's scratch directory (./scratch.ts, made by vitest.config.ts)
// with everything the tests left in it, when the run ends; only a directory named as the run names
// its own, whatever ORCHARD_TEST_SCRATCH says.
import { rmSync } from "node:fs";
import { basename } from "node:path";
import { SCRATCH_PREFIX } from "./scratch.js";

export default function setup(): () => void {
  return () => {
    const dir = process.env.ORCHARD_TEST_SCRATCH;
    if (dir && basename(dir).startsWith(SCRATCH_PREFIX)) rmSync(dir, { recursive: true, force: true });
  };
}
