// The layering check of `npm run lint` (scripts/check-imports.mjs): green on the real tree, and
// red, naming the place, on trees that break each rule — so the check can fail.
import { afterEach, describe, expect, it } from "vitest";
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "../..");
const SCRIPT = join(ROOT, "scripts", "check-imports.mjs");
const trees: string[] = [];

afterEach(() => {
  for (const tree of trees.splice(0)) rmSync(tree, { recursive: true, force: true });
});

function check(root?: string): { code: number | null; out: string } {
  const r = spawnSync(process.execPath, [SCRIPT, ...(root ? ["--root", root] : [])], { encoding: "utf8" });
  return { code: r.status, out: r.stdout + r.stderr };
}

/** A tree of src/ files, each given as path → the relative modules it imports. */
function tree(files: Record<string, string[]>): string {
  const root = mkdtempSync(join(tmpdir(), "orchard-layout-"));
  trees.push(root);
  for (const [path, imports] of Object.entries(files)) {
    mkdirSync(dirname(join(root, "src", path)), { recursive: true });
    writeFileSync(join(root, "src", path), imports.map((spec, i) => `import { x${i} } from "${spec}";\n`).join("") + "export const x = 1;\n");
  }
  return root;
}

describe("scripts/check-imports.mjs", () => {
  it("passes on the project's own tree", () => {
    const r = check();
    expect(r.out).toContain("no circle");
    expect(r.code).toBe(0);
  });

  it("fails on an import circle between two files", () => {
    const r = check(tree({ "core/shared/a.ts": ["./b.js"], "core/shared/b.ts": ["./a.js"] }));
    expect(r.code).toBe(1);
    expect(r.out).toMatch(/import circle: src\/core\/shared\/a\.ts ↔ src\/core\/shared\/b\.ts/);
  });

  it("fails on an import into another capability's internals, and passes through its index.ts", () => {
    const deep = check(tree({ "core/recycle/recycle.ts": ["../admission/add.js"], "core/admission/add.ts": [], "core/admission/index.ts": ["./add.js"] }));
    expect(deep.code).toBe(1);
    expect(deep.out).toContain("src/core/recycle/recycle.ts imports src/core/admission/add.ts: enter core/admission/ through its index.ts");
    const door = check(tree({ "core/recycle/recycle.ts": ["../admission/index.js"], "core/admission/add.ts": [], "core/admission/index.ts": ["./add.js"] }));
    expect(door.out).toContain("no circle");
    expect(door.code).toBe(0);
  });

  it("fails on capabilities that import each other through their doors", () => {
    const r = check(
      tree({
        "core/a/index.ts": ["./one.js"],
        "core/a/one.ts": ["../b/index.js"],
        "core/b/index.ts": ["./two.js"],
        "core/b/two.ts": ["../a/index.js"],
      }),
    );
    expect(r.code).toBe(1);
    expect(r.out).toContain("capability circle: core/a ↔ core/b");
  });

  it("fails on an import that points up a layer", () => {
    const r = check(tree({ "git/read.ts": ["../core/shared/facts.js"], "core/shared/facts.ts": [] }));
    expect(r.code).toBe(1);
    expect(r.out).toContain("git/ may not import core/ (imports point down)");
  });
});
