// Submodules are agent input too (SPEC v4 §4.1): a gitlink an agent commits can name a repository
// whose own config names a filter or an fsmonitor, and git runs a submodule's commands without the
// overrides Orchard passes (it clears GIT_CONFIG_COUNT for them). So Orchard's status never
// recurses (`--ignore-submodules=dirty`, status-args.ts: the gitlink's commit is still compared),
// and each populated submodule is looked at here instead: its program settings read and kept off
// as for any untrusted repository (a submodule is never trusted), then its own status. A
// submodule that holds uncommitted work, or whose repository lives inside the worktree (its `.git`
// a directory: a salvage ref cannot capture it), is reported, so the worktree counts it as work
// that is never removed, cleaned or salvaged with it (a nested repository, §4.14).
// A submodule is every gitlink of the index (mode 160000), whether or not `.gitmodules` names it
// (SPEC v5 §4: `git init sub && git add sub` makes one with a warning only), and every `.git` in a
// tracked directory is a nested repository too: git's own status walks past both.
import { lstatSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { git } from "../run.js";
import { readPlainFile } from "./plain-file.js";
import { commonDirOf, setProgramPolicy } from "../programs/policy.js";
import { readProgramGuard } from "../programs/read.js";
import { statusArgs } from "../status-args.js";
import { encodeGitBytes } from "../bytes.js";
import { shapeOf, type IndexShape } from "../parse/index-file.js";
import { readIndexShapeAt } from "./index-shape.js";
import { pinArgs } from "./pin.js";

/** An index larger than this is listed by git (a repository of ~1M files). */
const MAX_INDEX_BYTES = 128 * 1024 * 1024;
import { provedOnce } from "../warm/proof-cache.js";

const MAX_DEPTH = 8;

/** The `path` of every submodule `.gitmodules` declares (kept while the file is the same: warm/proof-cache.ts). */
function declaredPaths(worktree: string): Promise<string[]> {
  const file = join(worktree, ".gitmodules");
  return provedOnce("gitmodules", file, [file], () => readDeclaredPaths(worktree));
}

/** The `path` of every submodule `.gitmodules` declares, read from a private copy (never through git's own discovery). */
async function readDeclaredPaths(worktree: string): Promise<string[]> {
  const bytes = readPlainFile(join(worktree, ".gitmodules"), 1024 * 1024);
  if (bytes === null) return [];
  const scratch = mkdtempSync(join(tmpdir(), "orchard-gitmodules-"));
  try {
    const copy = join(scratch, "gitmodules");
    writeFileSync(copy, bytes, { mode: 0o600 });
    const r = await git(["config", "-z", "--file", copy, "--get-regexp", "^submodule\\..*\\.path$"], { cwd: scratch, ok: [0, 1, 3, 128] });
    return r.stdout
      .split("\0")
      .map((record) => record.slice(record.indexOf("\n") + 1))
      .filter((p) => p !== "" && !p.startsWith("/") && !p.split("/").includes(".."));
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

/**
 * What the index says of `worktree`'s tree: its gitlinks (any stage) and every directory that holds
 * a tracked path. Read from the index file itself (parse/index-file.ts: no process per worktree),
 * else `git ls-files --stage`.
 */
async function readIndexShape(worktree: string): Promise<IndexShape> {
  const gitDir = pinArgs(worktree)[0]?.slice("--git-dir=".length);
  // the walk vet parsed this index before the status was asked: its parse is taken while the file is the same (index-shape.ts)
  const parsed = gitDir === undefined ? null : readIndexShapeAt(join(gitDir, "index"), { max: MAX_INDEX_BYTES, follow: true })?.shape;
  if (parsed) return parsed;
  const r = await git(["ls-files", "--stage", "-z"], { cwd: worktree });
  return shapeOf(
    r.stdout.split("\0").flatMap((record) => {
      const tab = record.indexOf("\t");
      return tab < 0 ? [] : [{ mode: parseInt(record.slice(0, record.indexOf(" ")), 8), path: record.slice(tab + 1) }];
    }),
  );
}

/** A path git printed (bytes.ts), as the bytes the file system knows it by. */
const onDisk = (worktree: string, path: string, ...rest: string[]): Buffer => encodeGitBytes(join(worktree, path, ...rest));

/** Paths (relative to `worktree`, each ending "/") of its submodules that hold work or a repository of their own, and of repositories nested in its tracked directories. */
export async function submoduleWork(worktree: string, depth = 0): Promise<string[]> {
  if (depth >= MAX_DEPTH) return [];
  const { gitlinks, dirs } = await readIndexShape(worktree);
  const declared = lstatSync(join(worktree, ".gitmodules"), { throwIfNoEntry: false })?.isFile() ? await declaredPaths(worktree) : [];
  const out = new Set<string>();
  const links = new Set(gitlinks);
  for (const path of new Set([...gitlinks, ...declared])) if (await holdsWork(worktree, path, { depth, gitlink: links.has(path) })) out.add(`${path}/`);
  // a `.git` in a directory with tracked files: git's status skips it, and its repository's commits live there alone
  for (const dir of dirs) if (lstatSync(onDisk(worktree, dir, ".git"), { throwIfNoEntry: false })) out.add(`${dir}/`);
  return [...out].sort();
}

/** Whether the submodule at `path` holds work that must stay: its own repository, uncommitted work, or content git cannot place. */
async function holdsWork(worktree: string, path: string, options: { depth: number; gitlink: boolean }): Promise<boolean> {
  const dir = join(worktree, path);
  const dotGit = lstatSync(onDisk(worktree, path, ".git"), { throwIfNoEntry: false });
  if (!dotGit) {
    // not populated: nothing of it is in the worktree — unless files sit where a gitlink's checkout
    // would be, which the outer status never lists (a path `.gitmodules` names alone is plain tree)
    const st = lstatSync(onDisk(worktree, path), { throwIfNoEntry: false });
    return options.gitlink && st?.isDirectory() === true && readdirSync(onDisk(worktree, path)).length > 0;
  }
  if (!dotGit.isFile()) return true; // its repository lives in the worktree
  const common = commonDirOf(dir);
  if (common === null) return true; // cannot be placed: unknown, so kept as work
  setProgramPolicy(common, await readProgramGuard(dir, common));
  const r = await git(statusArgs(false), { cwd: dir, ok: [0, 128] });
  const changed = r.exitCode !== 0 || r.stdout.split("\0").some((field) => field !== "" && !field.startsWith("# "));
  return changed || (await submoduleWork(dir, options.depth + 1)).length > 0;
}
