// The workspace (SPEC §1, v4 §4.11): a home (`--home`, ORCHARD_HOME, ~/.orchard) with its managed
// root and trash, and the registry it records into. Its id is the registry's location — the SQLite
// file under the home, or the PostgreSQL server, database and schema with this host — so another
// home, another registry, or a library caller with its own home is another workspace, while the
// same home over a registry recreated after a loss is the same one. The id is written into the
// identity file and the git lock of every worktree the workspace makes (workspace/identity.ts).
import { lstatSync, mkdirSync, realpathSync, writeFileSync } from "node:fs";
import { dirname, join, relative, isAbsolute, resolve } from "node:path";
import { homedir } from "node:os";
import { failure, usageError } from "../shared/errors.js";
import { readPlainText } from "../shared/files.js";
import { workspaceId } from "./id.js";
import { setProofCacheDir } from "../../git/warm/proof-cache.js";

export interface Workspace {
  home: string;
  root: string;
  /** The workspace's id (id.ts): 16 hex digits. */
  id: string;
}

export function defaultHome(): string {
  return process.env.ORCHARD_HOME || join(homedir(), ".orchard");
}

/**
 * Refuses a workspace inside a linked worktree (its clean or removal would delete the registry
 * and every managed worktree) or, when named explicitly (`--home`, ORCHARD_HOME), inside any
 * repository (SPEC §4.15). The default `~/.orchard` may sit in a home-directory dotfiles repo.
 */
export function requireHomeOutsideRepos(home: string, explicit: boolean): void {
  let dir = resolve(home);
  while (lstatSync(dir, { throwIfNoEntry: false }) === undefined && dirname(dir) !== dir) dir = dirname(dir);
  for (dir = realpathSync(dir); ; dir = dirname(dir)) {
    const dotGit = lstatSync(join(dir, ".git"), { throwIfNoEntry: false });
    if (dotGit && (explicit || !dotGit.isDirectory()))
      throw usageError(
        "invalid_argument",
        `the workspace ${home} lies inside the ${dotGit.isDirectory() ? "repository" : "worktree"} ${dir}; choose a --home outside every repository`,
      );
    if (dirname(dir) === dir) return;
  }
}

/** The workspace's trash, `<home>/trash` (core/shared/removal/trash.ts). */
export function trashDir(home: string): string {
  return join(home, "trash");
}

/**
 * Throws `workspace_not_a_directory` (exit 1, naming the path) unless `path`, a directory of the
 * workspace that Orchard deletes in, is a real directory (lstat: a symbolic link there would steer
 * a deletion out of the workspace; SPEC v3 §4.10). With `create`, an absent one is made first.
 */
export function requireWorkspaceDir(path: string, options: { create: boolean }): void {
  let st = lstatSync(path, { throwIfNoEntry: false });
  if (!st && options.create) {
    mkdirSync(path, { recursive: true });
    st = lstatSync(path);
  }
  if (!st || st.isDirectory()) return;
  const what = st.isSymbolicLink() ? "a symbolic link" : "not a directory";
  throw failure(
    "workspace_not_a_directory",
    `${path} is ${what}: inside the workspace, worktrees/ and trash/ must be real directories (Orchard deletes in them and never through a link); nothing was deleted — replace it with a directory (a link for the whole --home is fine)`,
  );
}

/**
 * Creates the workspace if needed; paths are realpaths so they compare with what git lists. The
 * home is resolved once (a home that is a symlink to a bigger disk is the user's choice); inside
 * it, `worktrees/` and `trash/` must be real directories.
 */
export function openWorkspace(home: string, explicit = true, registry: { url: string | null; host: string } = { url: null, host: "" }): Workspace {
  requireHomeOutsideRepos(home, explicit);
  mkdirSync(resolve(home), { recursive: true });
  const real = realpathSync(resolve(home));
  const root = join(real, "worktrees");
  requireWorkspaceDir(root, { create: true });
  requireWorkspaceDir(trashDir(real), { create: false });
  setProofCacheDir(join(real, "cache")); // what the boundary's checks prove is kept here, by file identity (git/warm/proof-cache.ts)
  return { home: real, root, id: workspaceId(real, registry) };
}

/** True when `path` is strictly inside `dir` (both absolute, realpath form). */
export function isInside(dir: string, path: string): boolean {
  const rel = relative(dir, path);
  return rel !== "" && !rel.startsWith("..") && !isAbsolute(rel);
}

export function managedPath(workspace: Workspace, handle: string): string {
  const path = join(workspace.root, handle);
  if (!isInside(workspace.root, path) || path.slice(workspace.root.length + 1).includes("/"))
    throw usageError("invalid_argument", `the handle ${handle} would leave the workspace`);
  return path;
}

/** The marker `registry migrate` leaves beside a SQLite registry it moved: `<file>.moved`, naming where (password hidden). */
export function markMoved(file: string, to: string): void {
  writeFileSync(`${file}.moved`, `${to}\n`, { mode: 0o644 });
}

/**
 * Refuses the home's own SQLite registry once `registry migrate` moved it into a fleet's registry:
 * that workspace now lives there, and acting on the moved rows from here would judge another
 * registry's leases as this one's (exit 1, registry_moved, naming where it went). Anyone may have
 * written the marker: only the shape migrate writes (movedTarget) is named, JSON-quoted; any other
 * text is a bad marker, refused the same way without a byte of it echoed (SPEC v5 §4).
 */
export function requireNotMoved(home: string): void {
  const marker = join(home, "orchard.db.moved");
  if (!lstatSync(marker, { throwIfNoEntry: false })) return;
  const text = readPlainText(marker, { max: MOVED_MAX_BYTES, follow: false }); // a FIFO or a link is no marker of ours
  const to = text === null ? null : movedTarget(text);
  const back = `delete ${JSON.stringify(marker)} to go back to the SQLite file`;
  if (to === null)
    throw failure(
      "registry_moved",
      `this workspace's registry is marked as moved, but ${JSON.stringify(marker)} is not a marker that registry migrate writes (not shown); pass --registry <url> or set ORCHARD_REGISTRY if it was moved, or ${back}`,
    );
  throw failure(
    "registry_moved",
    `this workspace's registry was moved to ${JSON.stringify(to)} (registry migrate); pass --registry <url> or set ORCHARD_REGISTRY to use it (${back})`,
  );
}

const MOVED_MAX_BYTES = 2048;

/**
 * The URL a marker names when it holds exactly what markMoved writes: one line, a postgres:// URL
 * in the form Node's URL prints (so no space, control character or quote), its password hidden
 * (`***` or none); else null.
 */
export function movedTarget(text: string): string | null {
  const m = /^(postgres(?:ql)?:\/\/[\x21-\x7e]+)\n$/.exec(text);
  if (!m) return null;
  const url = m[1] as string;
  try {
    const parsed = new URL(url);
    if (parsed.toString() !== url) return null;
    if (parsed.password !== "" && parsed.password !== "***") return null;
    return url;
  } catch {
    return null; // not a URL
  }
}
