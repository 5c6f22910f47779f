// Submodules are agent input too (SPEC v4 §4.1): a gitlink an agent commits can name a repository
// whose own config names a filter or an fsmonitor, and git runs a submodule's commands without the
// overrides Orchard passes (it clears GIT_CONFIG_COUNT for them). So Orchard's status never
// recurses (`--ignore-submodules=dirty`, status-args.ts: the gitlink's commit is still compared),
// and each populated submodule is looked at here instead: its program settings read and kept off
// as for any untrusted repository (a submodule is never trusted), then its own status. A
// submodule that holds uncommitted work, or whose repository lives inside the worktree (its `.git`
// a directory: a salvage ref cannot capture it), is reported, so the worktree counts it as work
// that is never removed, cleaned or salvaged with it (a nested repository, §4.14).
import { lstatSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { git } from "../run.js";
import { readPlainFile } from "./plain-file.js";
import { commonDirOf, setProgramPolicy } from "../programs/policy.js";
import { readProgramGuard } from "../programs/read.js";
import { statusArgs } from "../status-args.js";
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

/** Paths (relative to `worktree`, each ending "/") of its submodules that hold work or a repository of their own. */
export async function submoduleWork(worktree: string, depth = 0): Promise<string[]> {
  if (depth >= MAX_DEPTH || !lstatSync(join(worktree, ".gitmodules"), { throwIfNoEntry: false })?.isFile()) return [];
  const out: string[] = [];
  for (const path of await declaredPaths(worktree)) {
    const dir = join(worktree, path);
    const dotGit = lstatSync(join(dir, ".git"), { throwIfNoEntry: false });
    if (!dotGit) continue; // not populated: nothing of it is in the worktree
    if (!dotGit.isFile()) {
      out.push(`${path}/`); // its repository lives in the worktree
      continue;
    }
    const common = commonDirOf(dir);
    if (common === null) {
      out.push(`${path}/`); // cannot be placed: unknown, so kept as work
      continue;
    }
    setProgramPolicy(common, await readProgramGuard(dir, common));
    const r = await git(statusArgs(false), { cwd: dir, ok: [0, 128] });
    const changed = r.exitCode !== 0 || r.stdout.split("\0").some((field) => field !== "" && !field.startsWith("# "));
    if (changed || (await submoduleWork(dir, depth + 1)).length > 0) out.push(`${path}/`);
  }
  return out;
}
