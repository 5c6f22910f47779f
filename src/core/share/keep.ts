// Keeping and using pristine copies (bootstrap.share). `keepCopy` runs right after the install,
// before `add` answers, so no agent has touched the directories yet: the install's own tree moves
// into the store and the worktree gets a copy of it (keepTree); `materialise` gives a new
// worktree the directories of a kept copy. A directory that names its own absolute path cannot
// be shared: a Python virtual environment (`pyvenv.cfg`) unless marked `relocatable = true` (uv
// venv --relocatable), or a symbolic link whose absolute target lies inside the worktree that
// installed it. Such a directory is refused (`share_not_relocatable`) and nothing is kept.
import { createHash, type Hash } from "node:crypto";
import { existsSync, lstatSync, mkdirSync, readdirSync, readlinkSync, renameSync, rmSync } from "node:fs";
import { isAbsolute, join } from "node:path";
import { isInside } from "../shared/context.js";
import {
  beginBuild,
  finishBuild,
  keptDir,
  keptTree,
  openRepoStore,
  removeKept,
  shareKey,
  touchKept,
  type KeptCopy,
  type KeptMarker,
  type ShareKeyParts,
} from "./store.js";
import { copyTree, type ShareMethod, type UsedMethod } from "./tree.js";
import { removeTree } from "./tree-cp.js";
import { changedWhy, rootLine } from "./digest.js";
import { readPlainText } from "../shared/files.js";
import { flushFilesystem } from "../../git/filesystem/flush.js";

export interface ShareRequest extends ShareKeyParts {
  home: string;
  /** The repo's name in the workspace (the store's directory). */
  repo: string;
  worktree: string;
  method: ShareMethod;
}

export type KeepResult = { kept: true; method: UsedMethod; files: number; key: string } | { kept: false; why: string; problem: "not_relocatable" | "missing" };

/** Why `dir` of `worktree` cannot be shared as it is, or null. Looks at the top of the directory and one level down for venvs. */
export function relocationProblem(worktree: string, dir: string): string | null {
  const root = join(worktree, dir);
  const cfgs = [join(root, "pyvenv.cfg"), ...subdirs(root).map((d) => join(root, d, "pyvenv.cfg"))];
  for (const cfg of cfgs) {
    if (!existsSync(cfg)) continue;
    const text = readPlainText(cfg, { follow: false });
    if (text === null) return `${cfg} is not a plain file of at most 64 KiB`;
    if (!/^\s*relocatable\s*=\s*true\s*$/im.test(text)) return `${cfg} is a Python virtual environment that names its own path (not relocatable)`;
  }
  const link = absoluteLinkInside(worktree, root);
  return link ? `${link} is a symbolic link to an absolute path inside the worktree` : null;
}

function subdirs(dir: string): string[] {
  try {
    return readdirSync(dir, { withFileTypes: true })
      .filter((e) => e.isDirectory())
      .map((e) => e.name);
  } catch {
    return []; // not a directory: the caller reports it missing
  }
}

function absoluteLinkInside(worktree: string, root: string): string | null {
  const stack = [root];
  while (stack.length) {
    const dir = stack.pop() as string;
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, e.name);
      if (e.isDirectory()) stack.push(path);
      else if (e.isSymbolicLink()) {
        const target = readlinkSync(path);
        if (isAbsolute(target) && (target === worktree || isInside(worktree, target))) return path;
      }
    }
  }
  return null;
}

const isRealDir = (path: string): boolean => lstatSync(path, { throwIfNoEntry: false })?.isDirectory() === true;

/** Keeps a pristine copy of the worktree's shared directories under their key (a whole copy, or none). */
export async function keepCopy(request: ShareRequest): Promise<KeepResult> {
  for (const dir of request.dirs) {
    if (!isRealDir(join(request.worktree, dir))) return { kept: false, problem: "missing", why: `the install made no directory ${dir}` };
    const problem = relocationProblem(request.worktree, dir);
    if (problem) return { kept: false, problem: "not_relocatable", why: problem };
  }
  const key = shareKey(request);
  const store = openRepoStore(request.home, request.repo);
  const build = beginBuild(store);
  let method: UsedMethod = request.method === "auto" ? "clone" : request.method;
  let files = 0;
  const hash = createHash("sha256");
  // once the filesystem is seen to clone: the install's dirty pages written out in one pass, not one
  // file at a time by each clone (git/filesystem/flush.ts)
  let flushed = false;
  const beforeClones = async (): Promise<void> => {
    if (!flushed) await flushFilesystem(request.worktree);
    flushed = true;
  };
  try {
    mkdirSync(join(build, "dirs"));
    for (const dir of [...request.dirs].sort()) {
      requireParents(join(build, "dirs"), dir);
      hash.update(rootLine(dir));
      const copied = await keepTree(join(request.worktree, dir), keptTree(build, dir), continueWith(request.method, method), {
        fault: "share.copying",
        beforeClones,
        hash,
      });
      method = copied.method;
      files += copied.files;
    }
    const marker: KeptMarker = {
      key,
      repo: request.repo,
      bootstrap: request.bootstrap,
      runtime: request.runtime,
      dirs: [...request.dirs],
      method,
      files,
      createdAt: new Date().toISOString(),
      digest: hash.digest("hex"), // inodes survive the rename: the digest holds at the key
    };
    finishBuild(build, marker, keptDir(request.home, request.repo, key));
  } catch (error) {
    if (existsSync(build)) removeKept(build);
    throw error;
  }
  return { kept: true, method, files, key };
}

/**
 * Keeps the install's tree `live` as `kept` (in the build): the tree itself moves into the build
 * (a rename) and the worktree gets a copy of it back by the method, so the digest (digest.ts's
 * lines of the build's entries) is read while the copy runs, not after it (tree-cp.ts). No agent
 * has seen the tree yet (the add has not answered), and a copy by the default method never shares
 * a writable file with the kept one either way. Where the rename cannot be made (another
 * filesystem), the tree is copied into the build and its digest read there. A copy that fails gives
 * the worktree its install back as it was.
 */
async function keepTree(live: string, kept: string, method: ShareMethod, options: { fault: string; beforeClones: () => Promise<void>; hash: Hash }) {
  const { hash, ...rest } = options;
  try {
    renameSync(live, kept);
  } catch {
    return await copyTree(live, kept, method, { ...rest, digest: { hash, of: "target" } });
  }
  try {
    return await copyTree(kept, live, method, { ...rest, digest: { hash, of: "source" } });
  } catch (error) {
    if (lstatSync(live, { throwIfNoEntry: false })) removeTree(live); // what the copy made: the install goes back in its place
    renameSync(kept, live);
    throw error;
  }
}

/** What materialise did: the directories made, or none (`modified`: the copy changed since it was kept). */
export type Materialised = { modified: null; method: UsedMethod; files: number } | { modified: string };

/**
 * Gives the worktree each shared directory of the copy; the worktree must have none of them yet.
 * The copy's digest is read while copying (digest.ts's lines of the source, tree.ts): a copy that
 * changed since it was kept is never handed out — what was made from it is removed again and the
 * answer is `modified` (share_modified), before anyone but this process has seen the directories.
 */
export async function materialise(copy: KeptCopy, worktree: string, method: ShareMethod): Promise<Materialised> {
  let used: UsedMethod = method === "auto" ? "clone" : method;
  let files = 0;
  const hash = createHash("sha256");
  const made: string[] = [];
  for (const dir of [...(copy.marker?.dirs ?? [])].sort()) {
    requireParents(worktree, dir);
    hash.update(rootLine(dir));
    const copied = await copyTree(keptTree(copy.path, dir), join(worktree, dir), continueWith(method, used), { digest: { hash, of: "source" } });
    made.push(join(worktree, dir));
    used = copied.method;
    files += copied.files;
  }
  if (hash.digest("hex") !== copy.marker?.digest) {
    for (const path of made) rmSync(path, { recursive: true, force: true }); // made by this call from a changed copy: never handed out
    return { modified: changedWhy(copy.path) };
  }
  touchKept(copy);
  return { modified: null, method: used, files };
}

/** The shared directories the worktree already has (tracked, preserved, or left by an earlier run). */
export function presentDirs(worktree: string, dirs: readonly string[]): string[] {
  return dirs.filter((dir) => lstatSync(join(worktree, dir), { throwIfNoEntry: false }) !== undefined);
}

/** The method for the next directory: `auto` that fell back to copying keeps copying. */
const continueWith = (requested: ShareMethod, used: UsedMethod): ShareMethod => (requested === "auto" && used === "copy" ? "copy" : requested);

/** The parent directories of `dir` under `root` exist as real directories (made when absent). */
function requireParents(root: string, dir: string): void {
  const parts = dir.replace(/\/+$/, "").split("/").slice(0, -1);
  let path = root;
  for (const part of parts) {
    path = join(path, part);
    const st = lstatSync(path, { throwIfNoEntry: false });
    if (!st) mkdirSync(path);
    else if (!st.isDirectory()) throw new Error(`${path} is not a real directory`);
  }
}
