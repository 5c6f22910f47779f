// The everyday lookups at a node start (SPEC v5 §3 everyday verbs cost one worktree): `orchard
// path` (so `orchard cd`) and the handles a TAB completes, answered from the registry alone. The
// repository is found as git finds it from the directory (programs/policy.ts commonDirOf: its
// `.git`, no process) and must be one this host recorded at that common dir; the registry is read
// read-only (registry/peek.ts). No git process runs, nothing is assessed, nothing is written.
//
// Each answer is the one the full path (path.ts through Orchard.open) gives, or null: whatever
// this module cannot settle from the registry (no row, a path git may list without one, an
// identity file to recover, a `creating` row to settle, a directory that is gone, another
// registry, a workspace the full path refuses) is left to the full path, which lists the worktrees
// and reports as every command does.
import { existsSync, realpathSync } from "node:fs";
import { hostname } from "node:os";
import { resolve } from "node:path";
import { commonDirOf } from "../../git/programs/policy.js";
import { peekSqlite, type RegistryPeek } from "../../registry/peek.js";
import type { RepoRow, WorktreeRow } from "../../registry/index.js";
import { canonicalTask } from "../shared/naming/task.js";
import { realOrAbsolute } from "../shared/repo/paths.js";
import { defaultHome, requireHomeOutsideRepos } from "../workspace/index.js";
import type { PathResult } from "./path.js";
import { pathFields, RANK, type PathFields } from "./fields.js";

export interface QuickOptions {
  home?: string | undefined;
  repo?: string | undefined;
}

// the host a registry row belongs to, as core/ownership's HOST reads it (not imported: that module
// loads the process readers, which a lookup never needs)
const host = (): string => process.env.ORCHARD_HOST?.trim() || hostname();

/** Control or bidirectional-override characters, or a replacement character: input the full path vets (and refuses). */
const UNVETTED = /[\u0000-\u001f\u007f\u202a-\u202e\u2066-\u2069\ufffd]/;

/** ORCHARD_TRACE=1: why the full path answers instead. */
function leave(why: string): null {
  if (process.env.ORCHARD_TRACE === "1") process.stderr.write(`[orchard trace] quick: ${why}; the full command line answers\n`);
  return null;
}

async function open(options: QuickOptions): Promise<{ peek: RegistryPeek; repo: RepoRow } | null> {
  if (process.env.ORCHARD_REGISTRY) return leave("ORCHARD_REGISTRY"); // a fleet's PostgreSQL registry
  const home = options.home ?? defaultHome();
  let real: string;
  try {
    requireHomeOutsideRepos(home, options.home !== undefined || Boolean(process.env.ORCHARD_HOME));
    real = realpathSync(resolve(home));
  } catch {
    return leave("the workspace"); // refused, or no workspace yet: the full path says so
  }
  const commonDir = commonDirOf(resolve(options.repo ?? process.cwd()));
  if (commonDir === null) return leave("no repository found");
  const peek = await peekSqlite(real, host());
  if (!peek) return leave("the registry cannot be peeked");
  try {
    const repo = await peek.repoAt(commonDir);
    // a row left `creating` is settled by any command of this host (SPEC v3 §5): the full path does
    if (repo && (await peek.creating(repo.identity)).length === 0) return { peek, repo };
  } catch {
    // unreadable: the full path reports it
  }
  peek.close();
  return leave(`no repository recorded at ${commonDir}, or a row left creating`);
}

/**
 * `orchard path <target>` from the registry, or null (the full path answers). `json`: the answer
 * is printed whole, so the primary (no target, `^`), whose branch git knows, is the full path's.
 */
export async function quickPath(options: QuickOptions, target: string | undefined, json: boolean): Promise<PathResult | null> {
  if (target !== undefined && (!target || target.startsWith("-") || UNVETTED.test(target))) return null;
  const opened = await open(options);
  if (!opened) return null;
  const { peek, repo } = opened;
  try {
    if (target === undefined || target === "^") return json || !existsSync(repo.primaryPath) ? null : primary(repo);
    const found = await lookup(peek, repo, target);
    return found && existsSync(found.path) ? { ok: true, ...found } : leave(found ? "its directory is gone" : "no row");
  } catch {
    return leave("the registry could not be read");
  } finally {
    peek.close();
  }
}

function primary(repo: RepoRow): PathResult {
  return { ok: true, path: repo.primaryPath, handle: null, branch: null, task: null, via: "primary" };
}

async function lookup(peek: RegistryPeek, repo: RepoRow, target: string): Promise<PathFields | null> {
  const row = target.includes("@") ? await peek.byHandle(target) : undefined;
  if (row && row.repo === repo.identity) return pathFields(row, "target");
  const rows = await peek.current(repo.identity);
  const wanted = realOrAbsolute(target);
  const atPath = rows.find((r) => r.path === wanted);
  if (atPath) return pathFields(atPath, "target");
  if (existsSync(wanted)) return null; // a directory git may list without a row: the full path's
  const byBranch = rows.find((r) => r.branch === target && r.lifecycle !== "removed");
  if (byBranch) return pathFields(byBranch, "target");
  // a handle without a row may have an identity file to recover from: the full path's
  return target.includes("@") ? null : byTask(rows, repo, target);
}

function byTask(rows: readonly WorktreeRow[], repo: RepoRow, text: string): PathFields | null {
  if (!text.trim()) return null;
  const task = canonicalTask(text, repo.identity);
  const here = host();
  const ordered = rows
    .filter((r) => r.task === task && (r.host === null || r.host === here) && r.lifecycle in RANK)
    .sort((a, b) => (RANK[a.lifecycle] ?? 9) - (RANK[b.lifecycle] ?? 9) || b.lastActivityAt.localeCompare(a.lastActivityAt));
  const [first, ...rest] = ordered;
  if (!first) return null;
  const others = rest.map((r) => r.handle);
  return { ...pathFields(first, "task"), task, ...(others.length > 0 ? { others } : {}) };
}

/** The handles `orchard __complete handles` offers: this host's current rows of the repo; null for the full path. */
export async function quickHandles(options: QuickOptions): Promise<string[] | null> {
  const opened = await open(options);
  if (!opened) return null;
  try {
    const rows = await opened.peek.current(opened.repo.identity);
    return rows.length > 0 ? rows.map((r) => r.handle).sort() : leave("no row");
  } catch {
    return leave("the registry could not be read");
  } finally {
    opened.peek.close();
  }
}
