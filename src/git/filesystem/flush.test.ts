import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { flushFilesystem } from "./flush.js";

describe("flushFilesystem", () => {
  it.runIf(process.platform === "linux")("writes out the filesystem of a path (sync -f), and says false for a path that is not there", async () => {
    expect(await flushFilesystem(tmpdir())).toBe(true);
    expect(await flushFilesystem(join(tmpdir(), "orchard-no-such-dir", "x"))).toBe(false);
  });
});
