import { describe, expect, it } from "vitest";
import { humanTimes } from "./time.js";

describe("humanTimes", () => {
  const now = Date.parse("2026-01-01T00:00:00Z");
  it("reads every ISO time of a sentence relative to now; a lease's end as how long it still runs", () => {
    expect(humanTimes("heartbeat valid until 2026-01-01T02:00:00.000Z (--allow-live waives)", now)).toBe(
      "heartbeat valid for another 2h00m (--allow-live waives)",
    );
    expect(humanTimes('{"expires":"2026-01-01T00:05:00Z"}', now)).toBe('{"expires":"in 5 min"}');
    expect(humanTimes("until 2025-12-31T23:00:00Z", now)).toBe("until 1h00m ago");
    expect(humanTimes("no time here", now)).toBe("no time here");
  });
});
