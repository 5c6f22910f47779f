// A repository whose bootstrap installs a fake node_modules from its lockfile (bootstrap.share):
// `install.cjs` (outside the repository) writes node_modules/<name>/index.js for each package of
// package-lock.json and counts its runs in `<root>/installs.log`, so a test proves whether the
// install ran. Committed: the lockfile and a .gitignore for node_modules/.
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Scenario } from "./scenario.js";

export const TRUSTED = { ORCHARD_TRUST: "1" };

const INSTALL = `
const fs = require("fs"), path = require("path");
const lock = JSON.parse(fs.readFileSync("package-lock.json", "utf8"));
for (const [name, version] of Object.entries(lock.packages)) {
  fs.mkdirSync(path.join("node_modules", name, "lib"), { recursive: true });
  fs.writeFileSync(path.join("node_modules", name, "index.js"), "module.exports = " + JSON.stringify(name + "@" + version) + ";\\n");
  fs.writeFileSync(path.join("node_modules", name, "lib", "data.bin"), Buffer.alloc(8192, 7));
}
fs.mkdirSync(path.join("node_modules", ".bin"), { recursive: true });
fs.symlinkSync("../" + Object.keys(lock.packages)[0] + "/index.js", path.join("node_modules", ".bin", "tool"));
fs.appendFileSync(process.argv[2], process.cwd() + "\\n");
`;

export function lockfile(packages: Record<string, string>): string {
  return JSON.stringify({ name: "app", lockfileVersion: 3, packages }, null, 2) + "\n";
}

export interface ShareSetup {
  method?: "auto" | "clone" | "hardlink" | "copy";
  /** More `bootstrap.run` entries after the install. */
  extraRun?: unknown[];
  share?: string[];
  disk?: Record<string, string>;
  /** The install command, if not the fake npm install. */
  install?: string;
}

/** Commits the lockfile and .gitignore on main and writes the .orchard.json. */
export function setUpShare(s: Scenario, setup: ShareSetup = {}): void {
  const script = join(s.root, "install.cjs");
  writeFileSync(script, INSTALL);
  s.commit({ file: ".gitignore", content: "node_modules/\n.venv/\n" });
  s.commit({ file: "package-lock.json", content: lockfile({ left: "1.0.0", right: "2.0.0", pad: "3.0.0" }) });
  const install = setup.install ?? `node ${JSON.stringify(script)} ${JSON.stringify(join(s.root, "installs.log"))}`;
  const bootstrap = {
    run: [install, ...(setup.extraRun ?? [])],
    inputs: ["package-lock.json"],
    share: setup.share ?? ["node_modules"],
    ...(setup.method ? { shareMethod: setup.method } : {}),
  };
  writeFileSync(join(s.primary, ".orchard.json"), JSON.stringify({ bootstrap, ...(setup.disk ? { disk: setup.disk } : {}) }, null, 2));
}

/** How many times the fake install ran. */
export function installs(s: Scenario): number {
  const log = join(s.root, "installs.log");
  return existsSync(log) ? readFileSync(log, "utf8").split("\n").filter(Boolean).length : 0;
}
