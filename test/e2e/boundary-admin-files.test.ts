// Admin files are input (SPEC v4 §4.10): a FIFO an agent plants as a worktree's admin `locked`,
// `HEAD` or `gitdir` never wedges the repository. That worktree is unknown, naming the file;
// every other worktree is served as usual; a command git cannot run without reading the file
// fails at once naming it, instead of waiting for ever.
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { rmSync, unlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { Scenario, scenarioWithTwo, type Added, makeFifo } from "../helpers/scenario.js";

let s: Scenario;
let a: Added;
let b: Added;
beforeEach(() => void ({ s, a, b } = scenarioWithTwo()));
afterEach(() => s.cleanup());

/** Replaces one of a's admin files with a FIFO nobody writes to. */
function plant(name: string): string {
  const file = join(s.adminDir(a.path), name);
  rmSync(file, { force: true });
  makeFifo(file);
  return file;
}

const byPath = (worktrees: { path: string }[], path: string) => worktrees.find((w) => w.path === path) as Record<string, any> | undefined;

describe("a FIFO among a worktree's admin files", () => {
  it("as `locked`: list, hygiene, status and add serve everything else; that worktree is unknown naming the file", () => {
    const fifo = plant("locked");
    const list = s.orchard(["list"]);
    expect(list.code, list.stderr).toBe(0);
    expect(list.json.worktrees.map((w: { handle: string }) => w.handle)).toEqual(expect.arrayContaining([a.handle, b.handle]));

    const h = s.orchard(["hygiene"]);
    expect(h.code, h.stderr).toBe(0);
    const seen = byPath(h.json.worktrees, a.path)!;
    expect(seen.disposition).toBe("unknown");
    expect(JSON.stringify(seen.reasons)).toContain(fifo);
    expect(byPath(h.json.worktrees, b.path)!.disposition).not.toBe("unknown");

    expect(s.orchard(["status", b.handle]).json.worktree).toMatchObject({ managed: true, dirty: expect.objectContaining({ tracked: 0 }) });
    const c = s.orchard(["add", "feat-c", "--no-bootstrap"]);
    expect(c.code, c.stderr).toBe(0);
    const reap = s.orchard(["reap-orphans", "--guard", "0s"]);
    expect(reap.code, reap.stderr).toBe(0);
  });

  it("as `HEAD`: reads still serve the others; an add fails at once naming the file, and works once it is gone", () => {
    const fifo = plant("HEAD");
    const h = s.orchard(["hygiene"]);
    expect(h.code, h.stderr).toBe(0);
    expect(byPath(h.json.worktrees, a.path)!.disposition).toBe("unknown");
    expect(byPath(h.json.worktrees, b.path)!.disposition).not.toBe("unknown");
    const c = s.orchard(["add", "feat-c", "--no-bootstrap"]);
    expect(c.code).toBe(1);
    expect(c.stderr + c.stdout).toContain(fifo);
    unlinkSync(fifo);
    writeFileSync(fifo, "ref: refs/heads/feat-a\n"); // the HEAD git had written
    const again = s.orchard(["add", "feat-c", "--no-bootstrap"]);
    expect(again.code, again.stderr).toBe(0);
  });

  it("as `gitdir`: the worktree cannot be placed and is left out; the others are listed", () => {
    plant("gitdir");
    const list = s.orchard(["list"]);
    expect(list.code, list.stderr).toBe(0);
    expect(list.json.worktrees.map((w: { handle: string }) => w.handle)).toContain(b.handle);
    const h = s.orchard(["hygiene"]);
    expect(h.code, h.stderr).toBe(0);
    expect(byPath(h.json.worktrees, b.path)).toBeDefined();
  });

  it("as a file the repository's config includes: a command fails at once naming it (every git there would wait on it)", () => {
    const fifo = join(s.root, "included.fifo");
    makeFifo(fifo);
    s.git("config", "include.path", fifo);
    const r = s.orchard(["list"]);
    expect(r.code, r.stdout + r.stderr).toBe(1);
    expect(r.json.error).toMatchObject({ code: "config_unvetted" });
    expect(r.json.error.message).toContain(fifo);
  });
});
