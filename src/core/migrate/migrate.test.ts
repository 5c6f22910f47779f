import { describe, expect, it } from "vitest";
import { countMismatches } from "./migrate.js";

const counts = { repos: 1, primaries: 1, worktrees: 3, events: 9, plans: 1, planItems: 2, trust: 1, hostSummaries: 1 };

describe("countMismatches", () => {
  it("names every table whose count after the move differs (then the move is rolled back)", () => {
    expect(countMismatches(counts, { ...counts })).toEqual([]);
    expect(countMismatches(counts, { ...counts, events: 8, trust: 2 })).toEqual([
      { table: "events", expected: 9, found: 8 },
      { table: "trust", expected: 1, found: 2 },
    ]);
  });
});
