// The published package, proven against the packed tarball and not the source tree (issue 23):
// `npm pack` of the built tree, its file list, then one install of the tarball into a clean
// temporary prefix (`npm install -g --prefix`, as a user installs it) from which the CLI, the MCP
// server (the official SDK client), an ESM consumer and a CommonJS consumer run, and `npx` of the
// tarball from a directory without node_modules.
//
// Cost: the tarball's dependencies come from npm's cache (`--prefer-offline`; CI's own install
// filled it). Their install scripts are skipped: the one that matters, better-sqlite3's native
// build (≈ 2 min of CPU here), is the dependency's own business and CI's `npm install` already
// proves it on this machine; the test places that build (the same pinned version, the same Node)
// into the installed tree instead of compiling it again. `pg` is moved out of the installed tree:
// everything here uses the SQLite registry, so nothing may load it (it is imported lazily).
// CI runs it on Node 20 (better-sqlite3) and on the LTS Node (its node:sqlite): npm, the installed command and its consumers run on the Node that runs it.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { spawnSync, type SpawnSyncReturns } from "node:child_process";
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, renameSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { delimiter, dirname, join, normalize, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { hasBuiltinSqlite } from "../../src/registry/sqlite-driver.js";
import { Scenario } from "../helpers/scenario.js";
import { hermeticEnv } from "../helpers/env.js";
import { PROCESS_TIMEOUT_MS, scaled } from "../helpers/time.js";

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "../..");
const PKG = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as { name: string; version: string; dependencies: Record<string, string> };
const NPM = process.platform === "win32" ? "npm.cmd" : "npm";
const INSTALL_TIMEOUT_MS = scaled(200_000);
/** Node ≥ 22.13: the registry runs on node:sqlite, and better-sqlite3 is never loaded. */
const BUILTIN_SQLITE = hasBuiltinSqlite();
/** PATH with this Node first: the installed `orchard` (#!/usr/bin/env node) and npm run on it. */
const PATH = `${dirname(process.execPath)}${delimiter}${process.env.PATH ?? ""}`;
const REQUEST = { timeout: PROCESS_TIMEOUT_MS };

let tmp: string;
let tarball: string;
let files: string[];
let prefix: string;
let installed: string; // <prefix>/lib/node_modules/orchard-worktrees
let bin: string;
let s: Scenario;

/** npm with the machine's own environment (its cache), never the hermetic HOME of git's tests. */
function npm(args: string[], cwd: string, timeout = INSTALL_TIMEOUT_MS): SpawnSyncReturns<string> {
  const r = spawnSync(NPM, args, {
    cwd,
    encoding: "utf8",
    timeout,
    env: { ...process.env, PATH, npm_config_update_notifier: "false", npm_config_fund: "false", npm_config_audit: "false" },
  });
  if (r.status !== 0) throw new Error(`npm ${args.join(" ")} exited ${r.status}: ${r.stderr}${r.error ? String(r.error) : ""}`);
  return r;
}

function run(
  command: string,
  args: string[],
  cwd: string,
  env: NodeJS.ProcessEnv = hermeticEnv({ PATH }),
): { status: number | null; stdout: string; stderr: string } {
  return spawnSync(command, args, { cwd, env, encoding: "utf8", timeout: PROCESS_TIMEOUT_MS });
}

beforeAll(() => {
  tmp = realpathSync(mkdtempSync(join(tmpdir(), "orchard-pack-")));
  // the tree `npm test` has just built (`npm pack` would build again through `prepare`)
  const packed = JSON.parse(npm(["pack", "--ignore-scripts", "--json", "--pack-destination", tmp], ROOT).stdout) as {
    filename: string;
    files: { path: string }[];
  }[];
  tarball = join(tmp, packed[0]!.filename);
  files = packed[0]!.files.map((f) => f.path).sort();

  prefix = join(tmp, "prefix");
  npm(["install", "--global", "--prefix", prefix, "--prefer-offline", "--ignore-scripts", tarball], tmp);
  installed = join(prefix, "lib", "node_modules", PKG.name);
  bin = join(prefix, "bin", "orchard");
  const sqlite = join(installed, "node_modules", "better-sqlite3");
  const version = (dir: string) => (JSON.parse(readFileSync(join(dir, "package.json"), "utf8")) as { version: string }).version;
  expect(version(sqlite)).toBe(version(join(ROOT, "node_modules", "better-sqlite3")));
  cpSync(join(ROOT, "node_modules/better-sqlite3/build/Release/better_sqlite3.node"), join(sqlite, "build/Release/better_sqlite3.node"));
  renameSync(join(installed, "node_modules", "pg"), join(tmp, "pg-moved-away"));
  s = Scenario.create();
}, INSTALL_TIMEOUT_MS * 2);

afterAll(() => {
  s?.cleanup();
  if (tmp) rmSync(tmp, { recursive: true, force: true });
});

describe("the packed tarball", () => {
  it("holds the built package, its docs and licence, and nothing else", () => {
    for (const needed of [
      "package.json",
      "README.md",
      "LICENSE",
      "dist/index.js",
      "dist/index.cjs",
      "dist/index.d.ts",
      "dist/gsd.cjs",
      "dist/gsd/index.d.ts",
      "dist/gsd/worker.js",
      "dist/bin/orchard.js",
      "dist/bin/orchard-lean.cjs",
      "docs/library.md",
      "docs/commands.md",
      "docs/recipes.md",
    ])
      expect(files, needed).toContain(needed);
    const stray = files.filter((f) => /\.map$|\.test\.|^src\/|^test\/|^scripts\/|^bench\/|^\.ci\/|node_modules|tsconfig|\.tgz$|^docs\/ARCHITECTURE/.test(f));
    expect(stray).toEqual([]);
    // the tsc output of the layers the bundle already holds (cli, mcp, demo) is not shipped twice
    expect(files.filter((f) => /^dist\/(cli|mcp|demo)\//.test(f))).toEqual([]);
    const manifest = JSON.parse(readFileSync(join(installed, "package.json"), "utf8")) as Record<string, unknown>;
    expect(manifest).toMatchObject({ name: "orchard-worktrees", bin: { orchard: "dist/bin/orchard.js" }, license: "MIT", types: "dist/index.d.ts" });
    expect(manifest.engines).toEqual({ node: ">=20" });
    for (const field of ["repository", "keywords", "exports"]) expect(manifest[field], field).toBeTruthy();
  });

  it("installs with its command: orchard --version, and a command in a repository", () => {
    const version = run(bin, ["--version"], tmp);
    expect(version.stdout.trim()).toBe(PKG.version);
    const add = run(bin, ["--home", s.home, "add", "feat/packed", "--task", "T-1", "--json"], s.primary);
    expect(add.stderr).toBe("");
    expect(JSON.parse(add.stdout)).toMatchObject({ ok: true, action: "created", branch: "feat/packed" });
    expect(JSON.parse(run(bin, ["--home", s.home, "list", "--json"], s.primary).stdout).worktrees).toHaveLength(1);
  });

  it("serves MCP: the SDK client lists every tool with its annotations and output schema, and calls one", async () => {
    const transport = new StdioClientTransport({
      command: bin,
      args: ["--home", s.home, "mcp"],
      cwd: s.primary,
      env: hermeticEnv({ PATH }) as Record<string, string>,
      stderr: "pipe",
    });
    const client = new Client({ name: "orchard-pack-test", version: "1.0.0" });
    await client.connect(transport, REQUEST);
    try {
      const { tools } = await client.listTools(undefined, REQUEST);
      expect(tools.length).toBeGreaterThanOrEqual(18);
      for (const t of tools) {
        expect(t.annotations, t.name).toMatchObject({ title: expect.any(String), openWorldHint: false });
        for (const hint of ["readOnlyHint", "destructiveHint", "idempotentHint"] as const)
          expect(typeof t.annotations?.[hint], `${t.name}.${hint}`).toBe("boolean");
        expect(t.outputSchema, t.name).toMatchObject({ type: "object" });
      }
      const r = await client.callTool({ name: "orchard_list", arguments: {} }, undefined, REQUEST);
      expect(r.isError).toBe(false);
      expect(r.structuredContent).toMatchObject({ ok: true, worktrees: [{ branch: "feat/packed" }] });
    } finally {
      await client.close();
    }
  });

  it("its README and docs link only files the tarball holds (issue 39 item 5)", () => {
    const docs = files.filter((f) => /^(README\.md|docs\/[^/]+\.md)$/.test(f));
    expect(docs.length).toBeGreaterThan(5);
    const broken: string[] = [];
    for (const doc of docs) {
      const text = readFileSync(join(installed, doc), "utf8");
      for (const [, target = ""] of text.matchAll(/\]\(([^)\s]+)\)/g)) {
        if (/^[a-z]+:/i.test(target) || target.startsWith("#")) continue; // a URL, or an anchor of the same page
        if (!files.includes(normalize(join(dirname(doc), target.split("#")[0] ?? "")))) broken.push(`${doc} → ${target}`);
      }
    }
    expect(broken).toEqual([]);
  });

  it("the everyday verbs run from the installed command: add by task, path, orchard cd in bash, merge, remove", () => {
    const env = { ...hermeticEnv(), PATH: `${dirname(bin)}:${process.env.PATH ?? ""}`, ORCHARD_HOME: s.home };
    const orchard = (...args: string[]) => {
      const r = spawnSync(bin, [...args, "--json"], { cwd: s.primary, env, encoding: "utf8", timeout: PROCESS_TIMEOUT_MS });
      return { status: r.status, json: JSON.parse(r.stdout) as Record<string, unknown> };
    };
    const added = orchard("add", "--task", "T-39");
    expect(added.json).toMatchObject({ ok: true, branch: "t-39" });
    const cd = spawnSync("bash", ["-c", 'eval "$(orchard shell-init bash)" && orchard cd t-39 && pwd'], { cwd: s.primary, env, encoding: "utf8" });
    expect(cd.stdout.trim()).toBe(added.json.path);
    writeFileSync(join(String(added.json.path), "t39.txt"), "t39\n");
    expect(spawnSync("git", ["-C", String(added.json.path), "add", "t39.txt"], { env }).status).toBe(0);
    expect(spawnSync("git", ["-C", String(added.json.path), "commit", "-q", "-m", "t39"], { env }).status).toBe(0);
    expect(orchard("remove", "t-39").status).toBe(3); // a commit that exists nowhere else
    expect(orchard("merge", "t-39", "--strategy", "squash").json).toMatchObject({ ok: true, strategy: "squash" });
    const other = orchard("add", "feat/packed-2");
    expect(orchard("remove", String(other.json.handle)).json).toMatchObject({ ok: true, action: "removed" });
    expect(orchard("list").json.worktrees).toHaveLength(1);
  });

  /** A consumer project whose node_modules holds the installed package (a link to the prefix's copy). */
  function consumer(name: string, packageJson: object, file: string, source: string): string {
    const dir = join(tmp, name);
    mkdirSync(join(dir, "node_modules"), { recursive: true });
    symlinkSync(installed, join(dir, "node_modules", PKG.name), "dir");
    writeFileSync(join(dir, "package.json"), JSON.stringify(packageJson, null, 2));
    writeFileSync(join(dir, file), source);
    return dir;
  }

  const program = (load: string) => `${load}
async function main() {
  const orchard = await Orchard.open({ repo: process.argv[2], home: process.argv[3] });
  try {
    const wt = await orchard.add({ branch: process.argv[4], owner: "consumer" });
    const bad = await orchard.add({ branch: "x", policy: "nope" }).catch((e) => e);
    console.log(JSON.stringify({ ok: wt.ok, action: wt.action, bad: [bad instanceof OrchardError, bad.code, bad.kind] }));
  } finally {
    await orchard.close();
  }
}
main().catch((e) => { console.error(e); process.exit(1); });
`;

  it("an ES module consumer imports it", () => {
    const dir = consumer(
      "esm-consumer",
      { name: "esm-consumer", version: "1.0.0", type: "module" },
      "index.js",
      program(`import { Orchard, OrchardError } from "orchard-worktrees";`),
    );
    const r = run(process.execPath, ["index.js", s.primary, s.home, "feat/esm"], dir);
    expect(r.stderr).toBe("");
    expect(JSON.parse(r.stdout)).toEqual({ ok: true, action: "created", bad: [true, "invalid_argument", "usage"] });
  });

  it("a CommonJS consumer (a default `npm init` project) requires it", () => {
    const dir = consumer(
      "cjs-consumer",
      { name: "cjs-consumer", version: "1.0.0", main: "index.js", scripts: { test: 'echo "Error: no test specified" && exit 1' }, license: "ISC" },
      "index.js",
      program(`const { Orchard, OrchardError } = require("orchard-worktrees");`),
    );
    const r = run(process.execPath, ["index.js", s.primary, s.home, "feat/cjs"], dir);
    expect(r.stderr).toBe("");
    expect(JSON.parse(r.stdout)).toEqual({ ok: true, action: "created", bad: [true, "invalid_argument", "usage"] });
  });

  it("a GSD project requires orchard-worktrees/gsd: GSD's functions, synchronous, served by the installed library (issue 41)", () => {
    const dir = consumer(
      "gsd-consumer",
      { name: "gsd-consumer", version: "1.0.0", main: "index.js", license: "ISC" },
      "index.js",
      `const safety = require("orchard-worktrees/gsd");
safety.configure({ home: process.argv[3] });
const listed = safety.listLinkedWorktreePaths(process.argv[2]);
const reaped = safety.reapOrphanWorktrees(process.argv[2]);
const plan = safety.planWorktreeWaveCleanup(process.argv[2], []);
console.log(JSON.stringify({ exports: Object.keys(safety).sort(), listed: listed.ok && listed.paths.length, reaped: Array.isArray(reaped), plan: plan.reason }));
`,
    );
    const r = run(process.execPath, ["index.js", s.primary, s.home], dir);
    expect(r.stderr).toBe("");
    const out = JSON.parse(r.stdout) as { exports: string[]; listed: number; reaped: boolean; plan: string };
    expect(out.exports).toEqual(
      [
        "OrchardUnavailable", // thrown where the registry cannot open (docs/gsd.md), never an ok answer
        "cmdWorktreeCleanupWave",
        "cmdWorktreeReapOrphans",
        "configure",
        "executeWorktreePrunePlan",
        "executeWorktreeWaveCleanupPlan",
        "inspectWorktreeHealth",
        "listLinkedWorktreePaths",
        "normalizeCleanupManifest",
        "parseWorktreePorcelain",
        "planWorktreePrune",
        "planWorktreeWaveCleanup",
        "pruneOrphanedWorktrees",
        "reapOrphanWorktrees",
        "resolveWorktreeContext",
        "snapshotWorktreeInventory",
      ].sort(),
    );
    expect(out).toMatchObject({ reaped: true, plan: "empty_manifest" });
    expect(out.listed).toBeGreaterThan(0);
  });

  it("both consumers typecheck against the shipped types, and misuse does not", () => {
    const tsc = join(ROOT, "node_modules/typescript/bin/tsc");
    // one compiler run over both consumers' files (each resolves the package from its own
    // node_modules, and nodenext gives each file its own module kind): one start of tsc, not two
    const check = (files: string[]) => {
      // a Node project's TypeScript has @types/node (the declarations name Buffer and NodeJS.ProcessEnv)
      const compilerOptions = {
        strict: true,
        module: "nodenext",
        moduleResolution: "nodenext",
        target: "es2022",
        noEmit: true,
        types: ["node"],
        typeRoots: [join(ROOT, "node_modules/@types")],
      };
      writeFileSync(join(tmp, "tsconfig.json"), JSON.stringify({ compilerOptions, files }));
      return run(process.execPath, [tsc, "-p", "tsconfig.json"], tmp, process.env);
    };
    const body = `
async function main(): Promise<void> {
  const orchard = await Orchard.open({ repo: ".", home: "h" });
  const wt = await orchard.add({ branch: "b", policy: "reuse-compatible", bootstrap: false });
  const action: "created" | "adopted" | "reused" | "recycled" | "refused" | "planned" = wt.action;
  // @ts-expect-error a policy the CLI refuses does not compile
  await orchard.add({ branch: "b", policy: "nope" });
  // @ts-expect-error an outcome the CLI refuses does not compile
  await orchard.release({ target: "b", outcome: "finished" });
  // @ts-expect-error the result narrows on ok: \`error\` only after it
  void wt.error;
  if (!wt.ok && wt.action === "refused") for (const r of wt.reasons) if (r.code === "dirty" && "tracked" in r) void r.tracked;
  void action;
  void OrchardError;
}
void main;
`;
    const esm = consumer(
      "esm-types",
      { name: "esm-types", version: "1.0.0", type: "module" },
      "index.mts",
      `import { Orchard, OrchardError } from "orchard-worktrees";\n${body}`,
    );
    const cjs = consumer(
      "cjs-types",
      { name: "cjs-types", version: "1.0.0" },
      "index.cts",
      `import orchard = require("orchard-worktrees");\nconst { Orchard, OrchardError } = orchard;\n${body}`,
    );
    const r = check([join(esm, "index.mts"), join(cjs, "index.cts")]);
    expect(r.stdout + r.stderr).toBe("");
    expect(r.status).toBe(0);
  });

  it(
    "npx runs the tarball from a directory without node_modules",
    async () => {
      const empty = join(tmp, "empty");
      mkdirSync(empty);
      const npxCache = join(process.env.npm_config_cache ?? join(process.env.HOME ?? "", ".npm"), "_npx");
      const before = new Set(existsSync(npxCache) ? readdirSync(npxCache) : []);
      try {
        // scripts skipped: --version and the tool list never open the SQLite registry
        const npx = (args: string[]) => ["exec", "--yes", "--prefer-offline", "--ignore-scripts", `--package=${tarball}`, "--", "orchard", ...args];
        expect(npm(npx(["--version"]), empty).stdout.trim()).toBe(PKG.version);
        const transport = new StdioClientTransport({
          command: NPM,
          args: npx(["mcp"]),
          cwd: empty,
          env: { ...process.env, PATH } as Record<string, string>,
          stderr: "pipe",
        });
        const client = new Client({ name: "orchard-npx-test", version: "1.0.0" });
        await client.connect(transport, { timeout: INSTALL_TIMEOUT_MS });
        try {
          expect((await client.listTools(undefined, REQUEST)).tools.map((t) => t.name)).toContain("orchard_add");
        } finally {
          await client.close();
        }
        expect(existsSync(join(empty, "node_modules"))).toBe(false);
      } finally {
        for (const entry of existsSync(npxCache) ? readdirSync(npxCache) : [])
          if (!before.has(entry)) rmSync(join(npxCache, entry), { recursive: true, force: true });
      }
    },
    INSTALL_TIMEOUT_MS,
  );

  /** Runs `orchard list` with `path` (inside the installed tree) moved away, then puts it back. */
  function listWithout(path: string, json: boolean): ReturnType<typeof run> {
    const away = join(tmp, "moved-away");
    renameSync(path, away);
    try {
      return run(bin, ["--home", s.home, "list", ...(json ? ["--json"] : [])], s.primary);
    } finally {
      renameSync(away, path);
    }
  }

  it.runIf(BUILTIN_SQLITE)(`on Node ${process.versions.node}, the registry needs nothing of better-sqlite3 (node:sqlite)`, () => {
    expect(run(bin, ["--version"], tmp).stdout.trim()).toBe(PKG.version);
    const r = listWithout(join(installed, "node_modules/better-sqlite3"), true);
    expect(r.stderr).toBe("");
    const { ok, worktrees } = JSON.parse(r.stdout) as { ok: boolean; worktrees: { branch: string }[] };
    expect(ok).toBe(true);
    expect(worktrees.map((w) => w.branch)).toContain("feat/packed");
  });

  it.skipIf(BUILTIN_SQLITE)("without better-sqlite3 on a Node that has no node:sqlite, a command says what to install", () => {
    const r = listWithout(join(installed, "node_modules/better-sqlite3"), false);
    expect(r.status).toBe(1);
    expect(r.stderr).toContain("install better-sqlite3 or use Node ≥ 22.13");
    expect(r.stderr.split("\n").length).toBeLessThan(4);
  });

  it.skipIf(BUILTIN_SQLITE)("without better-sqlite3's native binding, a command says what to install instead of listing paths", () => {
    const r = listWithout(join(installed, "node_modules/better-sqlite3/build"), false);
    expect(r.status).toBe(1);
    expect(r.stderr).toContain("better-sqlite3's native binding is missing");
    expect(r.stderr).toContain("--allow-scripts=better-sqlite3");
    expect(r.stderr.split("\n").length).toBeLessThan(4);
  });
});
