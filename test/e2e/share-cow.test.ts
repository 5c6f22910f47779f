// bootstrap.shareMethod auto on a copy-on-write filesystem (XFS with reflink=1, or btrfs, on a
// loop device): the kept copy and every worktree's directories are reflink clones — the extents
// are shared (filefrag), the free space barely drops, and a write in place still reaches no other
// worktree. Where the machine cannot mount one, the test says why and skips.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { execFileSync } from "node:child_process";
import { mkdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { Scenario } from "../helpers/scenario.js";
import { freeBytes, hasSharedExtent, mountCow, type CowMount } from "../helpers/cow.js";
import { TRUSTED, installs, setUpShare } from "../helpers/share.js";

let cow: CowMount;
let s: Scenario;
beforeAll(() => {
  cow = mountCow();
  s = Scenario.create();
});
afterAll(() => {
  s.cleanup();
  if (cow.ok) cow.unmount();
});

const BIG = 16 * 1024 * 1024;

describe("bootstrap.share on a copy-on-write filesystem", () => {
  it("auto clones by reflink: shared extents, little free space taken, writes stay in their worktree", (ctx) => {
    if (!cow.ok) {
      console.warn(`SKIPPED share-cow: ${cow.reason}`);
      return ctx.skip();
    }
    const home = join(cow.dir, "home");
    const blob = `node -e "require('fs').mkdirSync('node_modules/big',{recursive:true});require('fs').writeFileSync('node_modules/big/blob',Buffer.alloc(${BIG},7))"`;
    setUpShare(s, { install: `${blob} && echo x >> ${JSON.stringify(join(s.root, "installs.log"))}` });
    const add = (branch: string): any => {
      const r = s.orchard(["add", branch, "--home", home], { env: TRUSTED });
      expect(r.code, r.stdout + r.stderr).toBe(0);
      return r.json;
    };
    const a = add("feat-a");
    expect(a.bootstrap.share).toMatchObject({ action: "kept", method: "clone" });
    const before = freeBytes(cow.dir);
    const b = add("feat-b");
    const taken = before - freeBytes(cow.dir);
    expect(b.bootstrap.status).toBe("shared");
    expect(b.bootstrap.share).toMatchObject({ action: "materialised", method: "clone" });
    expect(installs(s)).toBe(1);
    const blobB = join(b.path, "node_modules", "big", "blob");
    expect(hasSharedExtent(blobB)).toBe(true);
    expect(taken).toBeLessThan(BIG / 4); // a copy would take the 16 MiB again
    console.info(`share-cow (${cow.fs}): the second worktree took ${taken} bytes of free space for ${BIG} bytes of node_modules`);
    writeFileSync(blobB, "tampered by B\n"); // in place: a clone's write never reaches another file
    expect(readFileSync(join(a.path, "node_modules", "big", "blob")).length).toBe(BIG);
    const c = add("feat-c");
    expect(readFileSync(join(c.path, "node_modules", "big", "blob")).length).toBe(BIG);
    // disk told truly (issue 50 item 2): the blocks the clones share are read from the kernel (FIEMAP, filefrag)
    const report = s.orchard(["hygiene", "--disk", "--home", home], { env: TRUSTED }).json;
    const rowOf = (r: any, handle: string): any => r.worktrees.find((w: { handle: string }) => w.handle === handle);
    const rc = rowOf(report, c.handle);
    expect(rc.disk.reflinks).toBe("read");
    expect(rc.disk.allocatedBytes).toBeGreaterThanOrEqual(BIG); // du counts the clone's blocks
    expect(rc.disk.uniqueBytes).toBeLessThan(BIG / 4); // removing it frees none of the shared ones
    // the fleet's "on disk" counts each shared extent once: A, C and the kept copy share one blob (B truncated its own)
    expect(report.summary.disk.allocatedBytes).toBeGreaterThanOrEqual(BIG);
    expect(report.summary.disk.allocatedBytes).toBeLessThan(1.5 * BIG);
    const human = s.orchard(["hygiene", "--disk", "--home", home], { json: false, env: TRUSTED }).stdout;
    expect(human).not.toContain("unknown sharing");
    // without filefrag the sharing is unknown: said in every view, and no bytes are claimed freed
    const bin = join(s.root, "bin-without-filefrag");
    mkdirSync(bin, { recursive: true });
    for (const tool of ["git", "node"]) symlinkSync(execFileSync("sh", ["-c", `command -v ${tool}`], { encoding: "utf8" }).trim(), join(bin, tool));
    const blind = { ...TRUSTED, PATH: bin };
    const unknown = s.orchard(["hygiene", "--disk", "--home", home], { env: blind }).json;
    expect(rowOf(unknown, c.handle).disk.reflinks).toBe("unknown");
    const blindHuman = s.orchard(["hygiene", "--disk", "--home", home], { json: false, env: blind }).stdout;
    expect(blindHuman).toMatch(/^unknown sharing: /m);
    expect(blindHuman).toMatch(new RegExp(`${c.handle}\\s.*\\(\\?\\)`));
  });
});
