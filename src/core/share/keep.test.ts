import { chmodSync, existsSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { digestKept } from "./digest.js";
import { keepCopy, materialise } from "./keep.js";
import { findReady } from "./store.js";

const roots: string[] = [];
afterEach(() => {
  for (const root of roots.splice(0)) rmSync(root, { recursive: true, force: true });
});

/** A worktree with an installed `node_modules` (files, a link, a nested directory). */
function installed(): { home: string; worktree: string } {
  const root = mkdtempSync(join(tmpdir(), "orchard-keep-"));
  roots.push(root);
  const worktree = join(root, "wt");
  const top = join(worktree, "node_modules");
  mkdirSync(join(top, "a", "lib"), { recursive: true });
  mkdirSync(join(top, ".bin"));
  writeFileSync(join(top, "a", "index.js"), "module.exports = 'a';\n");
  writeFileSync(join(top, "a", "lib", "x.js"), "x\n");
  chmodSync(join(top, "a", "lib", "x.js"), 0o755);
  symlinkSync("../a/index.js", join(top, ".bin", "a"));
  mkdirSync(join(root, "home"));
  return { home: join(root, "home"), worktree };
}

const request = (home: string, worktree: string, method: "auto" | "copy" | "hardlink") =>
  ({ home, repo: "app", worktree, method, bootstrap: "b", runtime: "r", dirs: ["node_modules"] }) as const;

describe("keepCopy", () => {
  it.each(["auto", "copy", "hardlink"] as const)(
    "%s: the install's tree is kept, the worktree has it whole again, and the marker's digest is the kept copy's",
    async (method) => {
      const { home, worktree } = installed();
      const before = lstatSync(join(worktree, "node_modules", "a", "index.js")).ino;
      const kept = await keepCopy(request(home, worktree, method));
      expect(kept).toMatchObject({ kept: true, files: 2 });
      const copy = findReady(home, "app", (kept as { key: string }).key);
      expect(copy?.marker?.digest).toBe(digestKept(copy?.path as string, ["node_modules"]));
      expect(readFileSync(join(worktree, "node_modules", "a", "index.js"), "utf8")).toBe("module.exports = 'a';\n");
      expect(statSync(join(worktree, "node_modules", "a", "lib", "x.js")).mode & 0o777).toBe(0o755);
      expect(readFileSync(join(worktree, "node_modules", ".bin", "a"), "utf8")).toBe("module.exports = 'a';\n");
      const keptIno = lstatSync(join(copy?.path as string, "dirs", "node_modules", "a", "index.js")).ino;
      expect(keptIno).toBe(before); // the install's own file moved into the store
      const mine = lstatSync(join(worktree, "node_modules", "a", "index.js")).ino;
      if (method === "hardlink") expect(mine).toBe(keptIno);
      else expect(mine).not.toBe(keptIno); // a write in the worktree never reaches the kept copy

      const other = join(worktree, "..", "wt2");
      mkdirSync(other);
      const made = await materialise(copy as NonNullable<typeof copy>, other, method);
      expect(made).toMatchObject({ modified: null, files: 2 });
      expect(existsSync(join(other, "node_modules", "a", "lib", "x.js"))).toBe(true);
    },
  );

  it("a copy back that fails puts the install back in the worktree, and nothing is kept", async () => {
    const { home, worktree } = installed();
    const fifo = join(worktree, "node_modules", "a", "fifo");
    const { execFileSync } = await import("node:child_process");
    execFileSync("mkfifo", [fifo]);
    const ino = lstatSync(join(worktree, "node_modules", "a", "index.js")).ino;
    await expect(keepCopy(request(home, worktree, "auto"))).rejects.toThrow(/is not a file, directory or symbolic link/);
    expect(lstatSync(join(worktree, "node_modules", "a", "index.js")).ino).toBe(ino); // the install itself, in its place
    expect(lstatSync(fifo).isFIFO()).toBe(true);
    expect(readdirSync(join(home, "share", "app"))).toEqual([]); // the half build removed
  });
});
