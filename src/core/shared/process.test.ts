import { describe, expect, it } from "vitest";
import { readFileSync } from "node:fs";
import { compareStartTime, readStartTime } from "./process.js";

describe.runIf(process.platform === "linux")("compareStartTime (Linux)", () => {
  it("tells the same process, a reused pid, and a token it cannot read", async () => {
    const ticks = (await readStartTime(process.pid)) as string;
    const boot = Number(/^btime (\d+)$/m.exec(readFileSync("/proc/stat", "utf8"))?.[1]);
    const startedMs = Math.round((boot + Number(ticks) / 100) * 1000);
    expect(compareStartTime(ticks, ticks)).toBe("same");
    expect(compareStartTime(String(startedMs), ticks)).toBe("same"); // epoch milliseconds
    expect(compareStartTime(String(Math.round(startedMs / 1000)), ticks)).toBe("same"); // epoch seconds
    expect(compareStartTime("1", ticks)).toBe("different"); // a process started one tick after boot
    expect(compareStartTime(String(startedMs - 3_600_000), ticks)).toBe("different"); // an hour earlier, in ms
    expect(compareStartTime("99999999999999999999", ticks)).toBe("unknown"); // no unit we know
    expect(compareStartTime("Tue Jun  3 10:00:00 2025", ticks)).toBe("unknown");
  });
});

describe("compareStartTime (ps lstart text, macOS)", () => {
  it("the same lstart text is the same process whatever the spacing; Claude Code writes it in UTC, as ps is read", () => {
    expect(compareStartTime("Mon Nov  3 09:15:02 2026", "Mon Nov  3 09:15:02 2026")).toBe("same");
    expect(compareStartTime("Mon Nov 3 09:15:02 2026", "Mon Nov  3 09:15:02 2026")).toBe("same");
  });
});
