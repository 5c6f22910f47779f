// Husks: directories under the managed root (`<home>/worktrees`) that git does not list — left
// by a pruned registration, a killed `worktree add`, or a hand-made copy. Reading one never
// follows a symbolic link. Attribution: the `.git` file's gitdir names a repo's common dir, else
// the directory name `<repo name>@<slug>` names a repo of the registry. A directory whose `.git`
// points at a live registration is someone's worktree, not a husk.
import { existsSync, lstatSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { readPlainFile } from "../shared/files.js";
import { tmpdir } from "node:os";
import { basename, dirname, join, resolve } from "node:path";
import { readIgnoredEntries, readUnignoredFiles } from "../../git/read.js";
import { disposableMatcher, scanIgnored, type IgnoredFile } from "../facts/index.js";
import type { HuskFacts } from "./types.js";
import { realOrAbsolute } from "../shared/repo/paths.js";
import { readAdminWorktreePath } from "../shared/repo/admin.js";

export interface KnownRepo {
  identity: string;
  name: string;
  commonDir: string;
}

/** What a `.git` file says: its admin dir, that dir's common dir, and whether the registration still points back here. */
export interface GitPointer {
  adminDir: string;
  commonDir: string | null;
  registered: boolean;
}

export function readGitPointer(dir: string): GitPointer | null {
  const dotGit = join(dir, ".git");
  const st = lstatSync(dotGit, { throwIfNoEntry: false });
  if (!st?.isFile()) return null;
  let text: string;
  const bytes = readPlainFile(dotGit);
  if (bytes === null) return null; // unreadable (or not a plain file): treated as no pointer
  text = bytes.toString("utf8");
  const m = /^gitdir: (.+?)\r?\n?$/s.exec(text);
  if (!m?.[1]) return null;
  const adminDir = resolve(dir, m[1]);
  let commonDir: string | null = null;
  let registered = false;
  try {
    commonDir = realOrAbsolute(resolve(adminDir, (readPlainFile(join(adminDir, "commondir"))?.toString("utf8") ?? "").trim()));
    const recorded = readAdminWorktreePath(adminDir);
    registered = recorded !== null && realOrAbsolute(recorded) === realOrAbsolute(dir);
  } catch {
    // the admin dir is gone: a stale pointer; commonDir stays the best guess
    commonDir ??= existsSync(dirname(dirname(adminDir))) ? realOrAbsolute(dirname(dirname(adminDir))) : null;
  }
  return { adminDir, commonDir, registered };
}

/** True when the tree holds no file, symlink or other non-directory entry. Stops at the first. */
function isEmptyTree(root: string): boolean {
  const stack = [root];
  while (stack.length) {
    const dir = stack.pop() as string;
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      if (!entry.isDirectory()) return false;
      stack.push(join(dir, entry.name));
    }
  }
  return true;
}

export function attributeHusk(path: string, pointer: GitPointer | null, repos: readonly KnownRepo[]): KnownRepo | null {
  if (pointer?.commonDir) {
    const byDir = repos.find((r) => realOrAbsolute(r.commonDir) === pointer.commonDir);
    if (byDir) return byDir;
  }
  const name = path.slice(path.lastIndexOf("/") + 1);
  const at = name.indexOf("@");
  return at > 0 ? (repos.find((r) => r.name === name.slice(0, at)) ?? null) : null;
}

/** Facts of one husk directory; null when it is a live registration of some repo (not a husk). */
export async function readHuskFacts(path: string, repos: readonly KnownRepo[]): Promise<HuskFacts | null> {
  const st = lstatSync(path, { throwIfNoEntry: false });
  if (!st) return null;
  if (st.isSymbolicLink()) return { symlink: true, empty: false, salvageable: null, uniqueIgnored: null, nestedRepository: false, repo: null };
  if (!st.isDirectory()) return null;
  const pointer = readGitPointer(path);
  if (pointer?.registered) return null;
  const repo = attributeHusk(path, pointer, repos);
  const facts: HuskFacts = {
    symlink: false,
    empty: isEmptyTree(path),
    salvageable: null,
    uniqueIgnored: null,
    nestedRepository: false,
    repo: repo?.identity ?? null,
  };
  if (facts.empty || !repo) return facts;
  const scratch = mkdtempSync(join(tmpdir(), "orchard-husk-"));
  try {
    const files = await readUnignoredFiles(repo.commonDir, path, join(scratch, "empty-index"));
    facts.nestedRepository = files.some((f) => f.endsWith("/"));
    facts.salvageable = files.length;
    facts.uniqueIgnored = (await readHuskUniqueIgnored(repo.commonDir, path)).length;
  } catch {
    facts.salvageable = null; // git could not read it: the verdict says the fact is unknown
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
  return facts;
}

/**
 * Unique ignored files of a husk (§4.7). A husk has no checkout config to read, so only the
 * default disposable list applies (more is kept, never less); the primary is the common dir's
 * parent when the common dir is a `.git` directory.
 */
export async function readHuskUniqueIgnored(commonDir: string, path: string): Promise<IgnoredFile[]> {
  const scratch = mkdtempSync(join(tmpdir(), "orchard-husk-"));
  try {
    const entries = await readIgnoredEntries(commonDir, path, join(scratch, "empty-index"));
    const primary = basename(commonDir) === ".git" ? dirname(commonDir) : null;
    const status = { paths: entries.map((p) => ({ kind: "ignored" as const, path: p })) };
    return scanIgnored({ worktree: path, status, primary, disposable: disposableMatcher([]) });
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

/** Directories (and symlinks) directly under the managed root that are not in `known`. */
export function listRootEntries(root: string, known: ReadonlySet<string>): string[] {
  let names: string[];
  try {
    names = readdirSync(root);
  } catch {
    return []; // no managed root yet: no husks
  }
  return names
    .map((name) => join(root, name))
    .filter((path) => {
      if (known.has(path)) return false;
      const st = lstatSync(path, { throwIfNoEntry: false });
      return !!st && (st.isDirectory() || st.isSymbolicLink());
    })
    .sort();
}
