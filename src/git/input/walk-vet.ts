// The files git opens while it walks a worktree for a status (SPEC v5 §4): every `.gitignore` and
// `.gitattributes` of the directories it visits, `core.excludesFile`, `core.attributesFile`, and
// `info/exclude` / `info/attributes` of the git dir. git opens them with a plain blocking open, so
// a FIFO an agent plants there (or a socket, a device) holds every status of that worktree until
// its timeout. They are lstat'ed before git is asked: a special one makes that worktree unknown,
// naming the file (boundary.ts), and every other worktree is served at once.
// Where: the worktree's top level and every directory its index lists (read by hand, no git: one
// parse per index file, shared with the submodule look, index-shape.ts), the config-named files the
// program guard's one `git config` found (programs/read.ts setWalkConfig), and the git dir's info
// files. A wholly untracked directory at the top level is looked at too (its own `.gitignore` and
// `.gitattributes`); one deeper in the tree is not (a walk of every directory would cost what the
// status costs): there git's timeout, which kills its process group, still ends the wait.
import { lstatSync, readdirSync, statSync, type Stats } from "node:fs";
import { homedir } from "node:os";
import { dirname, isAbsolute, join, resolve } from "node:path";
import { kindOf } from "./admin-vet.js";
import { readPlainFile } from "./plain-file.js";
import { readIndexShapeAt } from "./index-shape.js";
import type { IndexShape } from "../parse/index-file.js";
import { msNow } from "../result.js";

export interface SpecialWalkFile {
  file: string;
  kind: string;
}

const WALKED = [".gitignore", ".gitattributes"];
const INDEX_MAX = 512 * 1024 * 1024;

const special = (st: Stats | undefined): boolean => st !== undefined && (st.isFIFO() || st.isSocket() || st.isCharacterDevice() || st.isBlockDevice());

/** Per common dir: the walk files the repository's config names, for every worktree ("*") or one admin dir. */
const named = new Map<string, ReadonlyMap<string, readonly string[]>>();

/** Records what the program guard's config read found (core.excludesFile, core.attributesFile), by admin dir or "*". */
export function setWalkConfig(commonDir: string, found: ReadonlyMap<string, readonly string[]>): void {
  named.set(commonDir, found);
}

/** A config value as git reads a path: `~/` from home, relative to the worktree. */
function configPath(value: string, worktree: string): string {
  if (value.startsWith("~/")) return join(homedir(), value.slice(2));
  return isAbsolute(value) ? value : resolve(worktree, value);
}

/**
 * The first file git would open while walking `worktree` that is a FIFO, socket or device, or null.
 * `admin` is the worktree's git dir (realpath), `commonDir` the repository's (realpath).
 */
export function specialWalkFile(worktree: string, admin: string, commonDir: string): SpecialWalkFile | null {
  // one command asks for the same worktree's facts, status and state within moments: one look serves them
  const key = `${worktree}\0${admin}`;
  const seen = recent.get(key);
  if (seen && msNow() - seen.at < RECENT_MS) return seen.found;
  const found = lookFor(worktree, admin, commonDir);
  recent.set(key, { at: msNow(), found });
  return found;
}

/** A look is trusted this long (the check is a look before git's open, never a lock: git's timeout is the backstop). */
const RECENT_MS = 1_000;
const recent = new Map<string, { at: number; found: SpecialWalkFile | null }>();

function lookFor(worktree: string, admin: string, commonDir: string): SpecialWalkFile | null {
  const byConfig = named.get(commonDir);
  const configured = [...(byConfig?.get("*") ?? []), ...(byConfig?.get(admin) ?? [])].map((v) => configPath(v, worktree));
  const info = [admin, commonDir].flatMap((dir) => [join(dir, "info", "exclude"), join(dir, "info", "attributes")]);
  // followed: git follows a link there (a dotfile linked from elsewhere is usual)
  for (const file of [...configured, ...info]) {
    const st = statSync(file, { throwIfNoEntry: false });
    if (special(st)) return { file, kind: kindOf(st as Stats) };
  }
  // in the tree git opens them without following a link (since 2.32): only what is there counts
  const dirs = indexDirs(join(admin, "index"), commonDir);
  for (const dir of dirs) {
    const found = specialIn(join(worktree, dir));
    if (found) return found;
  }
  return untrackedChildren(worktree, "", dirs);
}

function specialIn(dir: string): SpecialWalkFile | null {
  const base = dir.endsWith("/") ? dir : `${dir}/`; // `dir` comes from join (normalized): each name is appended, not joined again
  for (const name of WALKED) {
    const file = base + name;
    const st = lstatSync(file, { throwIfNoEntry: false });
    if (special(st)) return { file, kind: kindOf(st as Stats) };
  }
  return null;
}

/** The walked files of the directories in `dir` that the index does not list (git walks them for untracked files). */
function untrackedChildren(worktree: string, dir: string, listed: ReadonlySet<string>): SpecialWalkFile | null {
  let entries;
  try {
    entries = readdirSync(join(worktree, dir), { withFileTypes: true });
  } catch {
    return null; // gone or unreadable: git says so itself
  }
  for (const e of entries) {
    if (!e.isDirectory() || e.name === ".git") continue;
    const rel = dir === "" ? e.name : `${dir}/${e.name}`;
    if (listed.has(rel)) continue;
    const found = specialIn(join(worktree, rel));
    if (found) return found;
  }
  return null;
}

/** The directories of a parsed shape, with the top level: made once per shape (a shape is kept while its index is the same file). */
const dirsOfShape = new WeakMap<IndexShape, ReadonlySet<string>>();

/** The top level ("") and every directory of a path the index lists; just the top level when the index cannot be read. */
export function indexDirs(index: string, commonDir: string): ReadonlySet<string> {
  // one parse serves this look and the submodule look beside the status (index-shape.ts)
  const read = readIndexShapeAt(index, { max: INDEX_MAX, follow: false });
  if (read?.shape) {
    let dirs = dirsOfShape.get(read.shape);
    if (!dirs) dirsOfShape.set(read.shape, (dirs = new Set(["", ...read.shape.dirs])));
    return dirs;
  }
  const dirs = new Set<string>([""]);
  // not what the shape parser reads (a SHA-256 index, a split one, a checksum git skipped): its paths as far as they read
  if (read?.bytes)
    for (const path of indexPaths(read.bytes, hashSize(commonDir))) for (let d = dirname(path); d !== "." && !dirs.has(d); d = dirname(d)) dirs.add(d);
  return dirs;
}

/** 32 for a SHA-256 repository (extensions.objectFormat), else 20. */
function hashSize(commonDir: string): number {
  const config = readPlainFile(join(commonDir, "config"), 1024 * 1024)?.toString("latin1") ?? "";
  return /^\s*objectformat\s*=\s*"?sha256"?\s*$/im.test(config) ? 32 : 20;
}

/**
 * The paths of a git index (versions 2, 3 and 4; a sparse index's directory entries end in `/`).
 * Stops at the first entry it cannot read: what was read is still listed.
 */
export function indexPaths(bytes: Buffer, hash: number): string[] {
  if (bytes.length < 12 || bytes.toString("latin1", 0, 4) !== "DIRC") return [];
  const version = bytes.readUInt32BE(4);
  const count = bytes.readUInt32BE(8);
  if (version < 2 || version > 4) return [];
  const paths: string[] = [];
  let at = 12;
  let previous: Buffer = Buffer.alloc(0);
  for (let i = 0; i < count; i++) {
    const flagsAt = at + 40 + hash;
    if (flagsAt + 2 > bytes.length) break;
    const flags = bytes.readUInt16BE(flagsAt);
    let nameAt = flagsAt + 2 + (version >= 3 && flags & 0x4000 ? 2 : 0);
    let name: Buffer;
    if (version === 4) {
      let strip = 0;
      for (let b = 0x80, shift = 0; b & 0x80; shift++) {
        if (nameAt >= bytes.length) return paths;
        b = bytes[nameAt++] as number;
        strip = shift === 0 ? b & 0x7f : ((strip + 1) << 7) | (b & 0x7f); // git's offset varint
      }
      const end = bytes.indexOf(0, nameAt);
      if (end < 0 || strip > previous.length) return paths;
      name = Buffer.concat([previous.subarray(0, previous.length - strip), bytes.subarray(nameAt, end)]);
      at = end + 1;
    } else {
      const end = bytes.indexOf(0, nameAt);
      if (end < 0) return paths;
      name = bytes.subarray(nameAt, end);
      at = at + Math.floor((end - at + 8) / 8) * 8; // padded with 1–8 NULs to a multiple of 8
    }
    previous = name;
    const path = name.toString("utf8");
    paths.push(path.endsWith("/") ? `${path}x` : path); // a sparse directory: itself a listed directory
  }
  return paths;
}
