#!/usr/bin/env node
// The shipped command line (part of `npm run build`, after tsc): esbuild reads dist/cli and writes
// dist/bin/orchard.js, the file package.json's `bin` names, and dist/bin/orchard-cli.cjs, the whole
// command line in one file. Node then reads one file instead of resolving and compiling the ~600
// modules of the command line, zod and commander, and keeps its compiled code between runs (the
// code cache, src/cli/start/code-cache.ts). better-sqlite3's addon stays outside, loaded by its path.
// The library keeps its typed `exports` from tsc (dist/index.js): only the CLI is bundled. The
// `require` entry (src/index.cjs, which hands CommonJS the same ES module) is copied beside it.
import { build } from "esbuild";
import { copyFileSync, writeFileSync } from "node:fs";
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
const common = {
  bundle: true,
  platform: "node",
  target: "node20",
  external: ["better-sqlite3"],
  minifyWhitespace: true,
  minifySyntax: true,
  legalComments: "none",
  logLevel: "warning",
};
// The executable (dist/bin/orchard.js): `--version`, then the bundle below through its code cache
// (src/cli/start/code-cache.ts). Its fallback import of the modules is for a tree built by tsc alone.
// It is CommonJS (dist/bin/package.json says so for the files beside it): Node starts a CommonJS
// main without loading its ES module loader, ≈ 15 ms of every command.
await build({
  ...common,
  entryPoints: { orchard: join(root, "dist/cli/main.js") },
  outdir: join(root, "dist/bin"),
  format: "cjs",
  external: ["./program.js", "./start/quick.js", "./start/lean.js"],
  define: { "import.meta.url": "__orchardEntryUrl" },
  banner: { js: 'const __orchardEntryUrl = require("node:url").pathToFileURL(__filename).href;' },
});
writeFileSync(join(root, "dist/bin/package.json"), '{ "type": "commonjs" }\n');
// The command line as one CommonJS file (dist/bin/orchard-cli.cjs): Node 20 keeps a code cache only
// for scripts, not for ES modules. The modules a command loads on demand (`await import()`: the
// library's capabilities, the MCP server with its SDK, the demo, the HTML report) stay lazy inside
// it: esbuild runs each one's top level only when it is first imported. `import.meta.url` is this
// file's URL, in dist/bin as the modules' chunks were.
/** One command line as one CommonJS file in dist/bin (`name`.cjs), `import.meta.url` that file's URL. */
const commandLine = (name, source, plugins = []) =>
  build({
    ...common,
    entryPoints: { [name]: join(root, source) },
    outdir: join(root, "dist/bin"),
    outExtension: { ".js": ".cjs" },
    format: "cjs",
    // better-sqlite3's JavaScript is bundled too (its addon is loaded by path, src/registry/sqlite.ts):
    // resolving and compiling its dozen files through Node's loader cost ≈ 15 ms of every command.
    external: [],
    define: { "import.meta.url": "__orchardModuleUrl" },
    banner: { js: 'const __orchardModuleUrl = require("node:url").pathToFileURL(__filename).href;' },
    plugins,
    metafile: process.argv.includes("--analyze"),
  });
const result = await commandLine("orchard-cli", "dist/cli/program.js", [zodEnglishOnly]);
// The quick command line (dist/bin/orchard-quick.cjs, src/cli/start/quick.ts): `orchard path` and `orchard
// __complete handles` from the registry alone, run before the whole command line (main.ts). Only
// what it uses is in it (the registry's read-only peek, the driver, the task's canonical form):
// every `orchard cd` and TAB pays a node start and little more.
await commandLine("orchard-quick", "dist/cli/start/quick.js");
// The lean command line (dist/bin/orchard-lean.cjs, src/cli/start/lean.ts): `add`, `release`, `heartbeat`,
// `status` and `remove` without commander and the other commands' modules, run before the whole command line (main.ts),
// which runs instead for any argument list it does not parse. The registry's PostgreSQL client and
// the modules the library imports on demand stay lazy inside it, as in the whole bundle.
await commandLine("orchard-lean", "dist/cli/start/lean.js", [zodEnglishOnly]);
copyFileSync(join(root, "src/index.cjs"), join(root, "dist/index.cjs"));
// `orchard-worktrees/gsd` (package.json `exports`), GSD's API for CommonJS callers: its
// synchronous side (dist/gsd/index.js and what it imports: the bridge and GSD's pure functions) in
// one CommonJS file, dist/gsd.cjs, which any Node 20 can require(). The bridge's worker stays the
// ES module tsc wrote (dist/gsd/worker.js, which imports the library): `import.meta.url` is made
// dist/gsd's so the bridge finds it there.
await build({
  ...common,
  entryPoints: { gsd: join(root, "dist/gsd/index.js") },
  outdir: join(root, "dist"),
  outExtension: { ".js": ".cjs" },
  format: "cjs",
  external: [],
  define: { "import.meta.url": "__orchardGsdUrl" },
  banner: { js: 'const __orchardGsdUrl = require("node:url").pathToFileURL(require("node:path").join(__dirname, "gsd", "index.js")).href;' },
});
if (result.metafile) process.stdout.write(await (await import("esbuild")).analyzeMetafile(result.metafile));
