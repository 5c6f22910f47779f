#!/usr/bin/env node
// The shipped command line as one bundled ES module (part of `npm run build`, after tsc): esbuild
// reads dist/cli/main.js and writes dist/bin/orchard.js, the file package.json's `bin` names.
// Node then reads one file instead of resolving and compiling the ~600 modules of the command
// line, zod and commander. The modules a command loads on demand (`await import()`: the library's
// capabilities, the MCP server with its SDK, the demo, the HTML report) become chunks beside it,
// so `orchard --version` still loads none of them. better-sqlite3 stays outside (a native addon).
// The library keeps its typed `exports` from tsc (dist/index.js): only the CLI is bundled. The
// `require` entry (src/index.cjs, which hands CommonJS the same ES module) is copied beside it.
import { build } from "esbuild";
import { copyFileSync } from "node:fs";
import { dirname, join, sep } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");

// zod exports its 60-odd message locales as `z.locales` (half of its 590 KB): Orchard uses English
// only, the default zod installs itself, so the namespace is cut down to `en`. Every command loads
// zod (config, inputs); compiling the rest cost ≈ 10 ms a start.
const zodEnglishOnly = {
  name: "zod-english-only",
  setup(b) {
    b.onResolve({ filter: /^\.\.\/locales\/index\.js$/ }, (args) =>
      args.importer.includes(`${sep}node_modules${sep}zod${sep}`)
        ? { path: join(dirname(args.importer), "../locales/index.js"), namespace: "zod-locales" }
        : undefined,
    );
    b.onLoad({ filter: /.*/, namespace: "zod-locales" }, (args) => ({
      contents: 'export { default as en } from "./en.js";',
      resolveDir: dirname(args.path),
      loader: "js",
    }));
  },
};
const result = await build({
  entryPoints: { orchard: join(root, "dist/cli/main.js") },
  outdir: join(root, "dist/bin"),
  bundle: true,
  splitting: true,
  format: "esm",
  platform: "node",
  target: "node20",
  external: ["better-sqlite3"],
  // CommonJS dependencies (commander, the MCP SDK's) call require(): give the chunks one.
  banner: { js: 'import { createRequire as __orchardRequire } from "node:module"; const require = __orchardRequire(import.meta.url);' },
  chunkNames: "[name]-[hash]",
  minifyWhitespace: true,
  minifySyntax: true,
  legalComments: "none",
  logLevel: "warning",
  plugins: [zodEnglishOnly],
  metafile: process.argv.includes("--analyze"),
});
copyFileSync(join(root, "src/index.cjs"), join(root, "dist/index.cjs"));
if (result.metafile) process.stdout.write(await (await import("esbuild")).analyzeMetafile(result.metafile));
