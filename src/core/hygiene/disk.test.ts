import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { linkSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DiskLedger, walkDisk } from "./disk.js";

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "orchard-disk-"));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const far = { deadline: Date.now() + 60_000, skip: new Set<string>() };
const file = (path: string, size: number): void => writeFileSync(path, Buffer.alloc(size, 1));

describe("walkDisk", () => {
  it("counts hard links once and only inodes wholly inside as unique", async () => {
    const a = join(dir, "a");
    const b = join(dir, "b");
    mkdirSync(join(a, "sub"), { recursive: true });
    mkdirSync(b);
    file(join(a, "one"), 1000);
    linkSync(join(a, "one"), join(a, "sub", "one-again")); // both links inside a
    file(join(a, "shared"), 300);
    linkSync(join(a, "shared"), join(b, "shared")); // one link in a, one in b
    const wa = await walkDisk([a], far);
    const wb = await walkDisk([b], far);
    expect(wa).toMatchObject({ bytes: 1300, uniqueBytes: 1000, partial: false });
    expect(wb).toMatchObject({ bytes: 300, uniqueBytes: 0 });
    const ledger = new DiskLedger();
    ledger.add(wa as NonNullable<typeof wa>, true);
    ledger.add(wb as NonNullable<typeof wb>, true);
    expect(ledger.totals()).toEqual({ bytes: 1300, backlogBytes: 1300 });
    const onlyA = new DiskLedger();
    onlyA.add(wa as NonNullable<typeof wa>, true);
    onlyA.add(wb as NonNullable<typeof wb>, false);
    expect(onlyA.totals()).toEqual({ bytes: 1300, backlogBytes: 1000 });
  });

  it("never follows symbolic links and skips nested measured worktrees", async () => {
    const outside = join(dir, "outside");
    const wt = join(dir, "wt");
    mkdirSync(outside);
    mkdirSync(join(wt, "nested"), { recursive: true });
    file(join(outside, "big"), 50_000);
    file(join(wt, "nested", "inner"), 7_000);
    file(join(wt, "mine"), 10);
    symlinkSync(outside, join(wt, "link-to-dir"));
    symlinkSync(join(outside, "big"), join(wt, "link-to-file"));
    const w = await walkDisk([wt], { deadline: far.deadline, skip: new Set([join(wt, "nested")]) });
    expect(w?.bytes).toBeLessThan(10 + 2 * 4096);
    expect(w?.bytes).toBeGreaterThanOrEqual(10);
  });

  it("returns null when the deadline has passed", async () => {
    mkdirSync(join(dir, "x"));
    for (let i = 0; i < 2100; i++) file(join(dir, "x", `f${i}`), 1);
    expect(await walkDisk([join(dir, "x")], { deadline: Date.now() - 1, skip: new Set() })).toBeNull();
  });
});
