import { execFileSync } from "node:child_process";
import { afterEach, describe, expect, it, vi } from "vitest";

const zone = process.env.TZ;
afterEach(() => {
  if (zone === undefined) delete process.env.TZ;
  else process.env.TZ = zone;
});

const psStart = (tz: string): string =>
  execFileSync("ps", ["-o", "lstart=", "-p", String(process.pid)], { env: { ...process.env, LC_ALL: "C", TZ: tz }, encoding: "utf8" }).trim();

describe("readPsStart", () => {
  it("reads lstart in UTC whatever the caller's time zone (Claude Code writes its lock's start in UTC)", async () => {
    process.env.TZ = "Asia/Tokyo"; // a machine off UTC (UTC+9 all year: its lstart text differs from UTC's)
    vi.resetModules();
    const { readPsStart } = await import("./ps.js");
    expect(psStart("Asia/Tokyo")).not.toBe(psStart("UTC"));
    expect(await readPsStart(process.pid)).toBe(psStart("UTC"));
  });
});
