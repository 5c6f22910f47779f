// The command line's code cache. Node 20 compiles every ES module from source at each start (it
// has no compile cache before 22.1), and a CLI call compiled ~1 MB of its own code, commander and
// zod every time. The build therefore also writes the command line as one CommonJS file
// (dist/bin/orchard-cli.cjs, scripts/bundle.mjs); this module runs it through `vm.Script` with the
// V8 code cache of an earlier run, read from the user's cache directory, and writes that cache
// when there was none or V8 rejected it (another Node, other V8 flags, another build).
//
// Where: $XDG_CACHE_HOME/orchard, else ~/.cache/orchard, one file per build of the bundle (its
// path, size and mtime, and the Node version, name the file). Anything wrong with it (missing,
// unreadable, not ours, rejected by V8) falls back to compiling from source, which is what Node
// did before; a directory that cannot be written is left alone. NODE_DISABLE_COMPILE_CACHE=1 (the
// variable Node's own compile cache obeys) turns it off. The file is bytecode Node runs, so it is
// used only when it and its directory belong to this user and nobody else may write them, as the
// bundle itself.
import { closeSync, fstatSync, mkdirSync, openSync, readFileSync, readdirSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { homedir } from "node:os";
import { basename, dirname, join } from "node:path";
import { Script } from "node:vm";

type Main = (argv: string[], version: string) => Promise<void>;

/**
 * A short name for the bundle's path (FNV-1a, 32 bits, and the length), so the caches of two installs
 * do not replace each other. Not node:crypto: loading it costs every start ~3 ms of CPU, and a clash
 * costs only a cache V8 rejects and writes again.
 */
function pathTag(text: string): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193) >>> 0;
  return `${h.toString(16).padStart(8, "0")}${text.length.toString(16)}`;
}

/** The cache directory, or null when there is none to use. */
function cacheDir(): string | null {
  if (process.env.NODE_DISABLE_COMPILE_CACHE) return null;
  const base = process.env.XDG_CACHE_HOME || (homedir() ? join(homedir(), ".cache") : "");
  return base ? join(base, "orchard") : null;
}

/** Ours and writable by nobody else (the same test for the directory and the file). */
function private_(mode: number, uid: number): boolean {
  return (process.getuid === undefined || uid === process.getuid()) && (mode & 0o022) === 0;
}

function readCache(dir: string, file: string): Buffer | undefined {
  try {
    if (!private_(statSync(dir).mode, statSync(dir).uid)) return undefined;
    const fd = openSync(join(dir, file), "r");
    try {
      const st = fstatSync(fd);
      return st.isFile() && private_(st.mode, st.uid) ? readFileSync(fd) : undefined;
    } finally {
      closeSync(fd);
    }
  } catch {
    return undefined;
  }
}

/** Whether `name` (starting with `prefix`) is a cache of the same bundle and variant: what follows the prefix is a Node version. */
const isBuildOf = (name: string, prefix: string): boolean => name.startsWith("v", prefix.length);

/** Writes the cache beside its older builds' (which it replaces), atomically; failures are ignored. */
function writeCache(dir: string, file: string, prefix: string, data: Buffer): void {
  try {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    const tmp = join(dir, `.${file}.${process.pid}.tmp`);
    writeFileSync(tmp, data, { mode: 0o600 });
    renameSync(tmp, join(dir, file));
    // (the prefix of a bundle loaded without a variant begins every variant's name too: those are not its older builds)
    for (const other of readdirSync(dir)) if (other.startsWith(prefix) && other !== file && isBuildOf(other, prefix)) rmSync(join(dir, other), { force: true });
  } catch {
    // a read-only or full cache directory costs the next start its compile, nothing else
  }
}

/**
 * Loads the CommonJS bundle at `bundle` (its code cache used or made) and returns its `main`; null
 * when the bundle is not there (a tree built by tsc alone), so the caller imports the modules.
 * `variant`: the cache is kept per variant (the lean bundle's verbs, main.ts): the cache holds the
 * functions the run that made it compiled, and a remove run from a cache an add made compiles its
 * own at every start (≈ 1.09× of its CPU).
 */
export function loadBundle<M = Main>(bundle: string, variant?: string): M | null {
  let source: string;
  let st: ReturnType<typeof statSync>;
  try {
    st = statSync(bundle);
    source = readFileSync(bundle, "utf8");
  } catch {
    return null;
  }
  const dir = cacheDir();
  const prefix = `cli-${pathTag(bundle)}-${variant === undefined ? "" : `${variant}-`}`;
  const file = `${prefix}${process.version}-${process.arch}-${st.size}-${Math.trunc(st.mtimeMs)}.v8`;
  const cachedData = dir ? readCache(dir, file) : undefined;
  // the module wrapper Node puts around a CommonJS file, so the bundle runs as `require` would run it
  const script = new Script(`(function (exports, require, module, __filename, __dirname) {${source}\n})`, {
    filename: bundle,
    ...(cachedData ? { cachedData } : {}),
  });
  const rejected = cachedData !== undefined && script.cachedDataRejected === true;
  if (process.env.ORCHARD_TRACE === "1")
    process.stderr.write(
      `[orchard trace] code cache ${cachedData === undefined ? "none" : rejected ? "rejected" : "used"}: ${dir ? join(dir, file) : "off"} (${basename(bundle)})\n`,
    );
  const module = { exports: {} as { main?: M } };
  (script.runInThisContext() as (...args: unknown[]) => void)(module.exports, createRequire(bundle), module, bundle, dirname(bundle));
  if (dir && (cachedData === undefined || rejected))
    // made at exit, so it holds the functions this command compiled, not only the top level
    // (not when the command turned the cache off meanwhile: `demo` changes nothing outside its sandbox)
    process.once("exit", () => process.env.NODE_DISABLE_COMPILE_CACHE || writeCache(dir, file, prefix, script.createCachedData()));
  return module.exports.main ?? null;
}
