import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { formatDuration, parseDuration } from "./duration.js";

describe("parseDuration", () => {
  it.each([
    ["500ms", 500],
    ["30s", 30_000],
    ["5m", 300_000],
    ["2h", 7_200_000],
    ["1d", 86_400_000],
    ["1w", 604_800_000],
    ["1h30m", 5_400_000],
    ["1m500ms", 60_500],
    ["1w2d3h4m5s6ms", 604_800_000 + 2 * 86_400_000 + 3 * 3_600_000 + 4 * 60_000 + 5_000 + 6],
    ["90", 90_000],
    ["0", 0],
    ["0s", 0],
    [" 5m\n", 300_000],
    ["007s", 7_000],
  ])("%j → %d ms", (text, ms) => {
    expect(parseDuration(text)).toBe(ms);
  });

  it.each([
    ["", /empty/],
    ["   ", /empty/],
    ["-5s", /negative/],
    ["-5", /negative/],
    ["5x", /"5x"/],
    ["1.5h", /unit/],
    ["h", /unit/],
    ["5M", /unit/],
    ["1h 30m", /unit/],
    ["5s5", /unit/],
    ["9".repeat(30), /too large/],
    [`${"9".repeat(20)}w`, /too large/],
  ])("%j is refused", (text, message) => {
    expect(() => parseDuration(text)).toThrow(Error);
    expect(() => parseDuration(text)).toThrow(message);
  });
});

describe("formatDuration", () => {
  it.each([
    [0, "0s"],
    [500, "500ms"],
    [1_500, "1s500ms"],
    [5_400_000, "1h30m"],
    [604_800_000, "1w"],
    [691_200_000, "1w1d"],
    [59_999, "59s999ms"],
    [1_000.4, "1s"],
  ])("%d → %s", (ms, text) => {
    expect(formatDuration(ms)).toBe(text);
  });

  it("refuses negative and non-finite input", () => {
    for (const ms of [-1, Number.NaN, Number.POSITIVE_INFINITY, 2 ** 60]) expect(() => formatDuration(ms)).toThrow(RangeError);
  });

  it("parseDuration inverts formatDuration for whole seconds and for milliseconds", () => {
    fc.assert(fc.property(fc.integer({ min: 0, max: 10 ** 9 }), (s) => parseDuration(formatDuration(s * 1000)) === s * 1000));
    fc.assert(fc.property(fc.maxSafeNat(), (ms) => parseDuration(formatDuration(ms)) === ms));
  });
});
