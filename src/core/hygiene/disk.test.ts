import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { closeSync, ftruncateSync, linkSync, lstatSync, mkdirSync, mkdtempSync, openSync, readdirSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DiskLedger, walkDisk } from "./disk.js";

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "orchard-disk-"));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

/** What `du -s` (and `du -s --apparent-size`) report: every inode once, st_blocks × 512. */
function du(root: string): { allocated: number; apparent: number } {
  const seen = new Set<string>();
  const total = { allocated: 0, apparent: 0 };
  const walk = (p: string): void => {
    const st = lstatSync(p);
    if (seen.has(`${st.dev}:${st.ino}`)) return;
    seen.add(`${st.dev}:${st.ino}`);
    total.allocated += st.blocks * 512;
    total.apparent += st.size;
    if (st.isDirectory()) for (const n of readdirSync(p)) walk(join(p, n));
  };
  walk(root);
  return total;
}

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
    const shared = lstatSync(join(a, "shared")).blocks * 512;
    const duA = du(a);
    const duB = du(b);
    expect(wa).toMatchObject({ bytes: duA.allocated, apparentBytes: duA.apparent, uniqueBytes: duA.allocated - shared, partial: false });
    expect(wb).toMatchObject({ bytes: duB.allocated, uniqueBytes: duB.allocated - shared });
    const ledger = new DiskLedger();
    ledger.add(wa as NonNullable<typeof wa>, true);
    ledger.add(wb as NonNullable<typeof wb>, true);
    const both = duA.allocated + duB.allocated - shared;
    expect(ledger.totals()).toMatchObject({ bytes: both, backlogBytes: both });
    const onlyA = new DiskLedger();
    onlyA.add(wa as NonNullable<typeof wa>, true);
    onlyA.add(wb as NonNullable<typeof wb>, false);
    expect(onlyA.totals()).toMatchObject({ bytes: both, backlogBytes: duA.allocated - shared });
  });

  it("counts allocated blocks like du -s, apparent bytes beside (sparse file, many small files)", async () => {
    const wt = join(dir, "wt");
    mkdirSync(join(wt, "small"), { recursive: true });
    for (let i = 0; i < 50; i++) writeFileSync(join(wt, "small", `f${i}`), "x");
    const fd = openSync(join(wt, "sparse"), "w");
    ftruncateSync(fd, 20_000_000);
    closeSync(fd);
    const expected = du(wt);
    expect(expected.allocated).not.toBe(expected.apparent);
    const w = await walkDisk([wt], far);
    expect(w).toMatchObject({ bytes: expected.allocated, uniqueBytes: expected.allocated, apparentBytes: expected.apparent });
    expect(w?.apparentBytes).toBeGreaterThan(20_000_000);
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
