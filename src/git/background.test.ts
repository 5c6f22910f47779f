// The detached background job: it deletes exactly the trash entries it is given (tree first, never
// following a symbolic link out of them); it never touches an index (SPEC v3 §4.10).
import { afterEach, describe, expect, it } from "vitest";
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, realpathSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { waitFor } from "../../test/helpers/scenario.js";
import { startBackground } from "./background.js";

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function temp(): string {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), "orchard-bg-")));
  dirs.push(dir);
  return dir;
}

describe("startBackground", () => {
  it("deletes the named trash entries and nothing a symbolic link in them points at", async () => {
    const dir = temp();
    const outside = join(dir, "outside");
    mkdirSync(outside);
    writeFileSync(join(outside, "keep.txt"), "not in the trash\n");
    const entries = [1, 2, 3].map((n) => {
      const entry = join(dir, "trash", `e${n}`);
      mkdirSync(join(entry, "tree", "src"), { recursive: true });
      writeFileSync(join(entry, "journal.json"), "{}\n");
      writeFileSync(join(entry, "tree", "src", "a.txt"), "a\n");
      symlinkSync(outside, join(entry, "tree", "link"));
      return entry;
    });
    const untouched = join(dir, "trash", "e4");
    mkdirSync(untouched);
    expect(startBackground({ purge: entries }, dir)).toEqual(expect.any(Number));
    await waitFor(() => entries.every((e) => !existsSync(e)), "the entries are gone");
    expect(readFileSync(join(outside, "keep.txt"), "utf8")).toBe("not in the trash\n");
    expect(existsSync(untouched)).toBe(true);
  });

  it("re-checks each entry at the moment of use: a link, or a directory without its journal, is not deleted", async () => {
    const dir = temp();
    const documents = join(dir, "documents");
    mkdirSync(join(documents, "tree"), { recursive: true });
    writeFileSync(join(documents, "journal.json"), "{}\n");
    writeFileSync(join(documents, "tree", "notes.txt"), "the user's\n");
    const linked = join(dir, "trash", "x-1-linked");
    mkdirSync(join(dir, "trash"));
    symlinkSync(documents, linked);
    const unmarked = join(dir, "trash", "x-1-unmarked");
    mkdirSync(join(unmarked, "tree"), { recursive: true });
    writeFileSync(join(unmarked, "tree", "draft.txt"), "not Orchard's\n");
    const ours = join(dir, "trash", "x-1-ours");
    mkdirSync(join(ours, "tree"), { recursive: true });
    writeFileSync(join(ours, "journal.json"), "{}\n");
    startBackground({ purge: [linked, unmarked, ours] }, dir);
    await waitFor(() => !existsSync(ours), "the job has run");
    expect(readFileSync(join(documents, "tree", "notes.txt"), "utf8")).toBe("the user's\n");
    expect(readFileSync(join(unmarked, "tree", "draft.txt"), "utf8")).toBe("not Orchard's\n");
  });

  it("takes paths as arguments only: a name full of shell syntax is a name, and every entry of many is deleted", async () => {
    const dir = temp();
    const names = ["a b", "$(touch pwned)", "`touch pwned`", "x;touch pwned", "-rf", "nl\nx", "'q'", "e8", "e9"];
    const entries = names.map((name) => {
      const entry = join(dir, "trash", name);
      mkdirSync(join(entry, "tree", "d"), { recursive: true });
      writeFileSync(join(entry, "journal.json"), "{}\n");
      writeFileSync(join(entry, "tree", "d", "f.txt"), "f\n");
      return entry;
    });
    expect(startBackground({ purge: entries }, dir)).toEqual(expect.any(Number));
    await waitFor(() => entries.every((e) => !existsSync(e)), "the entries are gone");
    expect(readdirSync(dir).sort()).toEqual(["trash"]);
    expect(readdirSync(join(dir, "trash"))).toEqual([]);
  });

  it("a journal that is a link, or a path through a linked directory, is not Orchard's entry", async () => {
    const dir = temp();
    const real = join(dir, "real");
    mkdirSync(join(real, "e1", "tree"), { recursive: true });
    writeFileSync(join(real, "e1", "journal.json"), "{}\n");
    writeFileSync(join(real, "e1", "tree", "keep.txt"), "reached through a link\n");
    symlinkSync(real, join(dir, "via"));
    const linkedJournal = join(dir, "trash", "e2");
    mkdirSync(join(linkedJournal, "tree"), { recursive: true });
    writeFileSync(join(dir, "journal.json"), "{}\n");
    symlinkSync(join(dir, "journal.json"), join(linkedJournal, "journal.json"));
    writeFileSync(join(linkedJournal, "tree", "keep.txt"), "no journal of its own\n");
    const ours = join(dir, "trash", "e3");
    mkdirSync(join(ours, "tree"), { recursive: true });
    writeFileSync(join(ours, "journal.json"), "{}\n");
    startBackground({ purge: [join(dir, "via", "e1"), linkedJournal, ours] }, dir);
    await waitFor(() => !existsSync(ours), "the job has run");
    expect(readFileSync(join(real, "e1", "tree", "keep.txt"), "utf8")).toBe("reached through a link\n");
    expect(readFileSync(join(linkedJournal, "tree", "keep.txt"), "utf8")).toBe("no journal of its own\n");
  });

  it("a tree that cannot be deleted leaves its entry with a `failed` note holding rm's first line; the others go", async (ctx) => {
    if (process.getuid?.() !== 0) return ctx.skip("only root can make a file undeletable for root (chattr +i)");
    const dir = temp();
    const stuck = join(dir, "trash", "stuck");
    const fine = join(dir, "trash", "fine");
    for (const entry of [stuck, fine]) {
      mkdirSync(join(entry, "tree", "d"), { recursive: true });
      writeFileSync(join(entry, "journal.json"), "{}\n");
      writeFileSync(join(entry, "tree", "d", "f.txt"), "f\n");
    }
    const locked = join(stuck, "tree", "d", "f.txt");
    if (spawnSync("chattr", ["+i", locked]).status !== 0) return ctx.skip("chattr +i failed here");
    try {
      startBackground({ purge: [stuck, fine] }, dir);
      await waitFor(() => existsSync(join(stuck, "failed")) && !existsSync(fine), "the job has run");
      const note = readFileSync(join(stuck, "failed"), "utf8");
      expect(note).toMatch(/^rm: .*Operation not permitted\n$/);
      expect(existsSync(join(stuck, "journal.json"))).toBe(true);
    } finally {
      spawnSync("chattr", ["-i", locked]);
    }
  });

  it("where there is no rm, node deletes the entries (fs.rm)", async (ctx) => {
    if (process.platform === "win32") return ctx.skip("node is the purger on Windows anyway");
    const dir = temp();
    const entries = ["e1", "e2"].map((name) => {
      const entry = join(dir, "trash", name);
      mkdirSync(join(entry, "tree", "d"), { recursive: true });
      writeFileSync(join(entry, "journal.json"), "{}\n");
      writeFileSync(join(entry, "tree", "d", "f.txt"), "f\n");
      return entry;
    });
    const path = process.env.PATH;
    process.env.PATH = join(dir, "no-such-dir");
    try {
      expect(startBackground({ purge: entries }, dir)).toEqual(expect.any(Number));
    } finally {
      process.env.PATH = path;
    }
    await waitFor(() => entries.every((e) => !existsSync(e)), "the entries are gone");
    expect(readdirSync(join(dir, "trash"))).toEqual([]);
  });
});
