// Makes sure this Node has a SQLite driver for the registry (src/registry/sqlite-driver.ts). On Node
// ≥ 22.13 that is the built-in node:sqlite: nothing to build, nothing checked. On an older Node it is
// better-sqlite3 (an optional dependency), whose compiled addon may be missing: npm may skip
// dependency install scripts (allowScripts), which leaves it unbuilt on a fresh clone. When the
// addon already loads (an installed clone, `npm install` again, `npm link`), nothing is rebuilt.
import { createRequire } from "node:module";
import { spawnSync } from "node:child_process";

const [major, minor] = process.versions.node.split(".").map(Number);
if (major > 22 || (major === 22 && minor >= 13)) process.exit(0);

const require = createRequire(import.meta.url);
const needs = `Node ${process.versions.node} has no node:sqlite: install better-sqlite3 or use Node ≥ 22.13`;

try {
  require.resolve("better-sqlite3");
} catch {
  process.stderr.write(`${needs} (better-sqlite3, an optional dependency, is not installed).\n`);
  process.exit(1);
}

function loads() {
  try {
    const Database = require("better-sqlite3");
    new Database(":memory:").close();
    return true;
  } catch (error) {
    process.stderr.write(`better-sqlite3 does not load yet: ${error.message.split("\n")[0]}\n`);
    return false;
  }
}

if (!loads()) {
  process.stderr.write("building better-sqlite3 from source (node-gyp)…\n");
  const npm = process.platform === "win32" ? "npm.cmd" : "npm";
  // No --allow-scripts: npm 11 rejects it in a project (EALLOWSCRIPTS); package.json's allowScripts covers it.
  const r = spawnSync(npm, ["rebuild", "better-sqlite3", "--foreground-scripts", "--ignore-scripts=false"], {
    stdio: "inherit",
  });
  if (r.status !== 0 || !loads()) {
    process.stderr.write(
      `better-sqlite3 could not be built: install python3, make and a C++ compiler, then run \`npm rebuild better-sqlite3\`; or use Node ≥ 22.13, which needs none of it.\n`,
    );
    process.exit(1);
  }
}
