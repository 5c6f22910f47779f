import { mkdtempSync, symlinkSync, writeFileSync } from "node:fs";
import { execFileSync } from "node:child_process";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { readPlainFile } from "./plain-file.js";

describe("readPlainFile", () => {
  const dir = mkdtempSync(join(tmpdir(), "orchard-plain-"));
  const file = (name: string, bytes: Buffer): string => {
    const path = join(dir, name);
    writeFileSync(path, bytes);
    return path;
  };

  it("returns a regular file's bytes whole, at every size up to its limit (one read past fstat's size or a read of the rest)", () => {
    for (const size of [0, 1, 41, 256, 257, 300, 4096, 65_536]) {
      const bytes = Buffer.alloc(size, 0x61 + (size % 26));
      expect(readPlainFile(file(`f${size}`, bytes))?.equals(bytes), `size ${size}`).toBe(true);
    }
    expect(readPlainFile(file("big", Buffer.alloc(65_537, 0x62)))).toBeNull();
    expect(readPlainFile(file("small-max", Buffer.alloc(11, 0x63)), 10)).toBeNull();
  });

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
});
