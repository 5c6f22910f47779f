import { mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { execFileSync } from "node:child_process";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { readPlainFile } from "./plain-file.js";

describe("readPlainFile", () => {
  const dir = mkdtempSync(join(tmpdir(), "orchard-plain-"));
  const file = (name: string, bytes: Buffer): string => {
    const path = join(dir, name);
    writeFileSync(path, bytes);
    return path;
  };
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("is null for a FIFO (never waited on), a directory, a missing file, and a link when links are not followed", () => {
    const fifo = join(dir, "fifo");
    execFileSync("mkfifo", [fifo]);
    expect(readPlainFile(fifo)).toBeNull();
    expect(readPlainFile(dir)).toBeNull();
    expect(readPlainFile(join(dir, "none"))).toBeNull();
    const target = file("target", Buffer.from("ref: refs/heads/main\n"));
    const link = join(dir, "link");
    symlinkSync(target, link);
    expect(readPlainFile(link)?.toString()).toBe("ref: refs/heads/main\n");
    expect(readPlainFile(link, { follow: false })).toBeNull();
  });

  it("reads a file of any size up to the bound (fstat's size in one read, or read on to its end), and refuses one past it", () => {
    for (const size of [0, 1, 41, 255, 256, 257, 300, 4096, 65_535, 65_536]) {
      const bytes = Buffer.alloc(size, 0x61 + (size % 26));
      expect(readPlainFile(file(`f${size}`, bytes))?.equals(bytes), String(size)).toBe(true);
    }
    writeFileSync(join(dir, "big"), Buffer.alloc(65_537, 0x62));
    expect(readPlainFile(join(dir, "big"))).toBeNull();
    expect(readPlainFile(join(dir, "big"), 100_000)?.length).toBe(65_537);
    expect(readPlainFile(join(dir, "f4096"), 4095)).toBeNull();
  });

  it.runIf(process.platform === "linux")("grows while the file reads past the size fstat told (a /proc file tells 0)", () => {
    const environ = readFileSync("/proc/self/environ");
    expect(environ.length).toBeGreaterThan(1024);
    expect(readPlainFile("/proc/self/environ")?.equals(environ)).toBe(true);
    expect(readPlainFile("/proc/self/environ", 1024)).toBeNull();
  });
});
