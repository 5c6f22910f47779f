// Makes sure the native SQLite binding loads. npm may skip dependency install scripts
// (allowScripts), which leaves better-sqlite3 without its compiled addon on a fresh clone.
// When the addon already loads (an installed clone, `npm install` again, `npm link`), nothing is rebuilt.
import { createRequire } from "node:module";
import { spawnSync } from "node:child_process";

const require = createRequire(import.meta.url);

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
    process.stderr.write("better-sqlite3 could not be built: install python3, make and a C++ compiler, then run `npm rebuild better-sqlite3`.\n");
    process.exit(1);
  }
}
