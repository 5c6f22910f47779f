// The detached background job: it deletes exactly the trash entries it is given (tree first, never
// following a symbolic link out of them); it never touches an index (SPEC v3 §4.10).
import { afterEach, describe, expect, it } from "vitest";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
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
});
