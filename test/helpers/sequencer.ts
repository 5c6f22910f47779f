// The order in which the suite's files start (vitest.config.ts `sequence.sequencer`). Workers take
// the next file as they finish one, so the run ends soonest when the longest files start first and
// the short ones fill in at the end. vitest orders by the durations it recorded in an earlier run
// (node_modules/.vite/vitest); without them (a clean clone, as CI is) it orders by file size, which
// puts a few short files with long tests near the end, where one worker finishes them alone. Those
// files are named here and start first; everything else keeps vitest's order. With every file's
// duration recorded, vitest's own order is used as it is.
import { relative } from "node:path";
import { BaseSequencer, type TestSpecification } from "vitest/node";

/** Files that take much longer than their size says (a long wait, many processes, a 3000-name oracle). */
export const LONG_FOR_THEIR_SIZE = [
  "test/e2e/config-programs.test.ts",
  "test/e2e/crash-add.test.ts",
  "test/e2e/fleet-registry.test.ts",
  "test/e2e/claude-code.test.ts",
  "test/e2e/cli-guide.test.ts",
  "src/git/refname.test.ts",
];

export default class LongFirstSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const path = (f: TestSpecification): string => relative(this.ctx.config.root, f.moduleId);
    const recorded = (f: TestSpecification): boolean => this.ctx.cache.getFileTestResults(`${f.project.name}:${path(f)}`) !== undefined; // vitest's key
    if (sorted.every(recorded)) return sorted;
    const rank = (f: TestSpecification): number => {
      const at = LONG_FOR_THEIR_SIZE.indexOf(path(f));
      return at === -1 ? LONG_FOR_THEIR_SIZE.length : at;
    };
    return sorted
      .map((f, i) => ({ f, i }))
      .sort((a, b) => rank(a.f) - rank(b.f) || a.i - b.i)
      .map(({ f }) => f);
  }
}
