import { createHash } from "node:crypto";
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readlinkSync, rmSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { digestKept, rootLine } from "./digest.js";
import { copyTree, copyTreeInNode } from "./tree.js";

const roots: string[] = [];
afterEach(() => {
  for (const root of roots.splice(0)) {
    const ro = join(root, "copy", "dirs", "node_modules", "ro");
    if (existsSync(ro)) chmodSync(ro, 0o700);
    rmSync(root, { recursive: true, force: true });
  }
});

/** A kept copy's layout (`<copy>/dirs/node_modules`) with nested directories, links and a read-only directory. */
function tree(): string {
  const root = mkdtempSync(join(tmpdir(), "orchard-tree-"));
  roots.push(root);
  const top = join(root, "src", "dirs", "node_modules");
  for (let i = 0; i < 30; i++) {
    const dir = join(top, `pkg-${i % 7}`, i % 2 ? "lib" : "", `d${i % 3}`);
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, `f${i}.js`), `module.exports = ${i};\n`);
  }
  mkdirSync(join(top, ".bin"));
  symlinkSync("../pkg-1/f1.js", join(top, ".bin", "one"));
  mkdirSync(join(top, "ro"));
  writeFileSync(join(top, "ro", "a"), "a\n");
  chmodSync(join(top, "ro"), 0o555);
  return root;
}

const ways = [
  ["copyTree", copyTree], // by one cp process on Linux (tree-cp.ts)
  ["copyTreeInNode", copyTreeInNode], // file by file: elsewhere, and where cp could not
] as const;
const cases = ways.flatMap(([name, copy]) => (["copy", "hardlink", "auto"] as const).map((method) => [name, method, copy] as const));

describe("copyTree", () => {
  it.each(cases)("%s, %s: the digest written while copying is digestKept's, of the source and of the target", async (_name, method, copyTree) => {
    const root = tree();
    const source = join(root, "src", "dirs", "node_modules");
    const target = join(root, "copy", "dirs", "node_modules");
    const ofSource = createHash("sha256").update(rootLine("node_modules"));
    mkdirSync(join(root, "copy", "dirs"), { recursive: true });
    const copied = await copyTree(source, target, method, { digest: { hash: ofSource, of: "source" } });
    expect(copied.files).toBe(31);
    expect(ofSource.digest("hex")).toBe(digestKept(join(root, "src"), ["node_modules"]));
    expect(readFileSync(join(target, "pkg-1", "lib", "d1", "f1.js"), "utf8")).toBe("module.exports = 1;\n");
    expect(readlinkSync(join(target, ".bin", "one"))).toBe("../pkg-1/f1.js");
    expect(statSync(join(target, "ro")).mode & 0o777).toBe(0o555);

    chmodSync(join(target, "ro"), 0o700);
    rmSync(target, { recursive: true });
    const ofTarget = createHash("sha256").update(rootLine("node_modules"));
    await copyTree(source, target, method, { digest: { hash: ofTarget, of: "target" } });
    expect(ofTarget.digest("hex")).toBe(digestKept(join(root, "copy"), ["node_modules"]));
  });

  it.each(ways)("%s: a special file fails the copy", async (_name, copyTree) => {
    const root = tree();
    const source = join(root, "src", "dirs", "node_modules");
    const { execFileSync } = await import("node:child_process");
    execFileSync("mkfifo", [join(source, "pkg-3", "fifo")]);
    await expect(copyTree(source, join(root, "x"), "copy")).rejects.toThrow(/is not a file, directory or symbolic link/);
    await expect(copyTree(source, join(root, "y"), "copy", { digest: { hash: createHash("sha256"), of: "target" } })).rejects.toThrow(
      /is not a file, directory or symbolic link/,
    );
  });

  it("a target that exists is refused, never merged into", async () => {
    const root = tree();
    mkdirSync(join(root, "x"));
    await expect(copyTree(join(root, "src", "dirs", "node_modules"), join(root, "x"), "auto")).rejects.toThrow(/EEXIST/);
  });
});
