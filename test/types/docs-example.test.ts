// docs/library.md's typed example is real, compiled code: the block after its
// `<!-- compiled: test/types/library-docs-example.ts -->` marker is exactly the code between the
// `// docs:start` and `// docs:end` lines of that file, which `npm run typecheck` compiles.
import { describe, expect, it } from "vitest";
import { readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "../..");
const MARKER = "<!-- compiled: test/types/library-docs-example.ts -->";

const dedent = (lines: string[]): string => {
  const indent = Math.min(...lines.filter((l) => l.trim()).map((l) => l.length - l.trimStart().length));
  return lines.map((l) => l.slice(indent)).join("\n");
};

describe("docs/library.md's typed example", () => {
  it("is the code test/types/library-docs-example.ts compiles", () => {
    const docs = readFileSync(join(ROOT, "docs/library.md"), "utf8");
    const at = docs.indexOf(MARKER);
    expect(at, "the marker is in docs/library.md").toBeGreaterThan(0);
    const block = /```ts\n([\s\S]*?)\n```/.exec(docs.slice(at))?.[1];
    const source = readFileSync(join(ROOT, "test/types/library-docs-example.ts"), "utf8").split("\n");
    const code = dedent(
      source.slice(
        source.findIndex((l) => l.includes("// docs:start")) + 1,
        source.findIndex((l) => l.includes("// docs:end")),
      ),
    );
    expect(block).toBe(code);
  });
});
