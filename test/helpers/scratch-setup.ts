// vitest globalSetup: removes the run's scratch directory (./scratch.ts, made by vitest.config.ts)
// with everything the tests left in it, when the run ends.
import { rmSync } from "node:fs";

export default function setup(): () => void {
  return () => {
    const dir = process.env.ORCHARD_TEST_SCRATCH;
    if (dir) rmSync(dir, { recursive: true, force: true });
  };
}
