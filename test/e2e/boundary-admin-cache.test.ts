// Issue 48 item 3 for the admin files (git/input/admin-pass.ts): each admin dir found plain is kept
// in the workspace by its identity, so an unchanged fleet costs a stat a worktree; an admin file
// replaced after a cached run (a FIFO or a link where `locked` was, a FIFO for HEAD) is vetted again
// and refused exactly as without the cache, and a cache file that cannot be read is rebuilt, never
// trusted. Dirs changed within 2 s of a pass are never kept, hence the waits.
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { Scenario, scenarioWithTwo, type Added, makeFifo } from "../helpers/scenario.js";

let s: Scenario;
let a: Added;
let b: Added;
beforeEach(() => void ({ s, a, b } = scenarioWithTwo()));
afterEach(() => s.cleanup());

const settle = (): Promise<void> => new Promise((done) => setTimeout(done, 2_200)); // past the racy window
const cacheFile = (): string => join(s.home, "cache", "proofs-admin.json");
const keptStamps = (): string[] =>
  Object.values(JSON.parse(readFileSync(cacheFile(), "utf8")).entries as Record<string, { stamps: string[] }>).flatMap((e) => e.stamps);
const byPath = (worktrees: { path: string }[], path: string) => worktrees.find((w) => w.path === path) as Record<string, any> | undefined;

/**
 * Runs `list` until a pass has kept both admin dirs: one whose dirs something changed within the racy
 * window (a loaded machine's late write in the setup) keeps fewer, and the next pass, past it, keeps them.
 */
async function keptBoth(): Promise<void> {
  const kept = (): number => keptStamps().filter((t) => t.includes("/worktrees/")).length;
  for (let pass = 1; ; pass++) {
    await settle();
    expect(s.orchard(["list"]).code).toBe(0);
    if (kept() >= 2) return;
    if (pass === 5) expect(kept(), "both admin dirs kept after five passes").toBeGreaterThanOrEqual(2);
  }
}

/** After a run that kept both admin dirs: replaces a's `name` with what `make` puts there. */
async function afterKept(name: string, make: (file: string) => void): Promise<string> {
  await keptBoth();
  const file = join(s.adminDir(a.path), name);
  rmSync(file, { force: true });
  make(file);
  return file;
}

describe("the admin files' vetting kept by identity", () => {
  it("a `locked` turned into a FIFO after a cached run: that worktree is unknown naming it, the others served", async () => {
    const fifo = await afterKept("locked", makeFifo);
    const h = s.orchard(["hygiene"]);
    expect(h.code, h.stderr).toBe(0);
    expect(byPath(h.json.worktrees, a.path)!.disposition).toBe("unknown");
    expect(JSON.stringify(byPath(h.json.worktrees, a.path)!.reasons)).toContain(fifo);
    expect(byPath(h.json.worktrees, b.path)!.disposition).not.toBe("unknown");
  });

  it("a `locked` turned into a symbolic link after a cached run is refused as well", async () => {
    const link = await afterKept("locked", (file) => symlinkSync("/dev/zero", file));
    const h = s.orchard(["hygiene"]);
    expect(h.code, h.stderr).toBe(0);
    expect(byPath(h.json.worktrees, a.path)!.disposition).toBe("unknown");
    expect(JSON.stringify(byPath(h.json.worktrees, a.path)!.reasons)).toContain(link);
  });

  it("a HEAD rewritten as a FIFO after a cached run: an add fails at once naming it", async () => {
    const fifo = await afterKept("HEAD", makeFifo);
    const c = s.orchard(["add", "feat-c", "--no-bootstrap"]);
    expect(c.code).toBe(1);
    expect(c.stderr + c.stdout).toContain(fifo);
  });

  it("a cache file that cannot be read is rebuilt, never trusted", async () => {
    await settle();
    expect(s.orchard(["list"]).code).toBe(0);
    writeFileSync(cacheFile(), "{ not json");
    const fifo = join(s.adminDir(a.path), "locked");
    rmSync(fifo, { force: true }); // (Orchard's own git lock)
    makeFifo(fifo);
    const h = s.orchard(["hygiene"]);
    expect(h.code, h.stderr).toBe(0);
    expect(byPath(h.json.worktrees, a.path)!.disposition).toBe("unknown");
    expect(JSON.stringify(byPath(h.json.worktrees, a.path)!.reasons)).toContain(fifo);
    expect(keptStamps().length).toBeGreaterThan(0); // written anew
  });
});
