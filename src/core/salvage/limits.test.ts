// The salvage size limits of SPEC §4.7: a unique ignored file over 10 MiB, or more than 100 MiB of
// them in all, makes salvage refuse (`salvage_too_large`) rather than drop them. The e2e suite
// shows one file over the limit through reap-orphans --salvage; the arithmetic of both limits is here.
import { describe, expect, it } from "vitest";
import { MAX_IGNORED_FILE, MAX_IGNORED_TOTAL, requireSalvageable } from "./salvage.js";

const MiB = 1024 * 1024;
const files = (sizes: number[]) => sizes.map((size, i) => ({ path: `.planning/f${i}`, size }));
const refusal = (sizes: number[]) => {
  try {
    requireSalvageable("/w", files(sizes));
  } catch (error) {
    return { code: (error as { code: string }).code, message: (error as Error).message };
  }
  return null;
};

describe("requireSalvageable", () => {
  it("the limits are 10 MiB a file and 100 MiB in all", () => {
    expect([MAX_IGNORED_FILE, MAX_IGNORED_TOTAL]).toEqual([10 * MiB, 100 * MiB]);
  });

  it("keeps files up to 10 MiB each and 100 MiB in all", () => {
    const sizes = [...Array(10).fill(10 * MiB)];
    expect(requireSalvageable("/w", files(sizes))).toEqual(files(sizes));
    expect(requireSalvageable("/w", [])).toEqual([]);
  });

  it("refuses one file over 10 MiB, naming it", () => {
    expect(refusal([1, 10 * MiB + 1])).toEqual({ code: "salvage_too_large", message: expect.stringContaining(".planning/f1 over 10 MiB") });
  });

  it("refuses more than 100 MiB in all, though every file is within its limit", () => {
    const sizes = [...Array(10).fill(10 * MiB), 1];
    expect(refusal(sizes)).toEqual({ code: "salvage_too_large", message: expect.stringContaining(`${100 * MiB + 1} bytes of ignored files in all`) });
  });
});
