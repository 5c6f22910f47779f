// Ignored files are work too (SPEC §4.7) unless they can be had again: disposable (matched by
// the default list, config `disposable`, `bootstrap.preserve`, injected context files) or
// byte-identical to the same path in the primary (what bootstrap copied, e.g. `.env`). Cheap by
// construction: the caller's one `git status --ignored=matching` lists an ignored directory as one
// entry; only non-disposable ignored directories are walked (never following symbolic links), and
// a file is compared with the primary's copy only when the sizes match.
import { closeSync, constants, lstatSync, openSync, readSync, readdirSync, readlinkSync, type BigIntStats } from "node:fs";
import { join } from "node:path";
import type { StatusSummary } from "../../git/parse/status.js";
import type { RepoContext } from "../shared/repo/repo.js";
import type { IgnoredFacts } from "../shared/types.js";
import { disposableMatcher, literalPattern, type DisposableMatcher } from "./disposable.js";
import { isPrimaryLink } from "../shared/primary-link.js";

/** One unique ignored file: its path relative to the worktree and its size in bytes. */
export interface IgnoredFile {
  path: string;
  size: number;
}

export const SAMPLE_SIZE = 5;

const matchers = new WeakMap<RepoContext, DisposableMatcher>();

/** The repo's disposable rules (§4.7, §6): defaults + `disposable` + `bootstrap.preserve` + context files. */
export function disposableOf(repo: RepoContext): DisposableMatcher {
  let matcher = matchers.get(repo);
  if (!matcher) {
    const config = repo.config.config;
    matcher = disposableMatcher([
      ...(config.disposable ?? []),
      ...(config.bootstrap?.preserve ?? []),
      ...Object.keys(config.context?.files ?? {}).map(literalPattern),
    ]);
    matchers.set(repo, matcher);
  }
  return matcher;
}

function lstat(path: string): BigIntStats | null {
  return lstatSync(path, { bigint: true, throwIfNoEntry: false }) ?? null;
}

// non-blocking and no link followed: a file swapped for a FIFO since its lstat is never waited on
const PLAIN = constants.O_RDONLY | (constants.O_NONBLOCK ?? 0) | (constants.O_NOFOLLOW ?? 0) | (constants.O_NOCTTY ?? 0);

function sameBytes(a: string, b: string): boolean {
  const fa = openSync(a, PLAIN);
  try {
    const fb = openSync(b, PLAIN);
    try {
      const ba = Buffer.alloc(64 * 1024);
      const bb = Buffer.alloc(64 * 1024);
      for (;;) {
        const na = readSync(fa, ba, 0, ba.length, null);
        const nb = readSync(fb, bb, 0, bb.length, null);
        if (na !== nb || !ba.subarray(0, na).equals(bb.subarray(0, nb))) return false;
        if (na === 0) return true;
      }
    } finally {
      closeSync(fb);
    }
  } finally {
    closeSync(fa);
  }
}

/** The primary holds the same bytes (or the same symlink) at the same path. */
function sameAsPrimary(primary: string | null, rel: string, file: string, st: BigIntStats): boolean {
  if (primary === null) return false;
  const theirs = lstat(join(primary, rel));
  if (!theirs) return false;
  if (st.isSymbolicLink()) return theirs.isSymbolicLink() && readlinkSync(file) === readlinkSync(join(primary, rel));
  return theirs.isFile() && theirs.size === st.size && sameBytes(file, join(primary, rel));
}

/**
 * The unique ignored files of a worktree, from the ignored entries of its status. Throws when a
 * directory cannot be read (the caller reports the dirty fact as unknown, never as clean).
 */
export function scanIgnored(options: {
  worktree: string;
  status: Pick<StatusSummary, "paths">;
  primary: string | null;
  disposable: DisposableMatcher;
  /** Receives each ignored directory that holds its own `.git` (a nested worktree or repository, §4.14); not walked. */
  nested?: string[];
}): IgnoredFile[] {
  const { worktree, primary, disposable } = options;
  const unique: IgnoredFile[] = [];
  const consider = (rel: string): void => {
    const file = join(worktree, rel);
    const st = lstat(file);
    // vanished since status, or a FIFO/socket/device: holds no bytes anyone could lose
    if (!st || !(st.isFile() || st.isSymbolicLink())) return;
    // a directory the bootstrap shares with the primary (bootstrap.link): the primary's, never walked
    if (st.isSymbolicLink() && isPrimaryLink(worktree, rel, primary)) return;
    if (!sameAsPrimary(primary, rel, file, st)) unique.push({ path: rel, size: Number(st.size) });
  };
  const walk = (dir: string): void => {
    if (lstat(join(worktree, dir, ".git"))) {
      options.nested?.push(dir);
      return;
    }
    for (const entry of readdirSync(join(worktree, dir), { withFileTypes: true })) {
      const rel = `${dir}/${entry.name}`;
      if (entry.isDirectory()) {
        if (!disposable(rel, true)) walk(rel);
      } else if (!disposable(rel, false)) consider(rel);
    }
  };
  for (const p of options.status.paths) {
    if (p.kind !== "ignored") continue;
    const isDirectory = p.path.endsWith("/");
    const rel = p.path.replace(/\/+$/, "");
    if (disposable(rel, isDirectory)) continue;
    if (isDirectory) walk(rel);
    else consider(rel);
  }
  return unique.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}

/** What Facts report: `{count, bytes, sample}` (SPEC §4.7). */
export function ignoredFacts(files: readonly IgnoredFile[]): IgnoredFacts {
  return { count: files.length, bytes: files.reduce((sum, f) => sum + f.size, 0), sample: files.slice(0, SAMPLE_SIZE).map((f) => f.path) };
}

export const NO_IGNORED: IgnoredFacts = { count: 0, bytes: 0, sample: [] };
